import { type SqlValue, type Store } from '@vigil/plugin-sdk';
import { recordJson, type StorableRecord } from './governed-record.js';
import { BUCKET_COLUMNS, bucketIndex } from './latency-buckets.js';
import { RULE_PATH_COLUMNS, RULE_PATH_KEY } from './rule-paths.js';

export const RECORD_COLUMNS = ['id', 'time', 'route', 'primary_route', 'status', 'labels', 'record'];
const ROLLUP_KEY = ['bucket', 'route', 'method', 'status_class', 'tenant'];
const ROLLUP_SUMS = ['requests', 'errors', 'tokens', 'duration_sum', ...BUCKET_COLUMNS];
export const ROLLUP_COLUMNS = [...ROLLUP_KEY, ...ROLLUP_SUMS];
/** Positions in a rollup row that the main thread reads back for `vigil_tokens_total`. */
export const ROLLUP = { route: 1, tenant: 4, tokens: 7 } as const;
const MINUTE = 60_000;
/**
 * Tokens counted for one record at most: 2^40 (about 10^12). Columns are 64-bit integers on PostgreSQL, so a
 * metered value of 1e300 would fail the whole batch's insert, and sums over many records must still fit.
 */
export const MAX_TOKENS_PER_RECORD = 2 ** 40;

/** What rows and rollups read of a record: every field but the bodies. */
type RecordFields = Omit<StorableRecord, 'request_body_json' | 'response_body_json'>;

/** The rule glob a record is filed under: the last matching rule's, like the traffic lane's metrics. */
export const primaryRoute = (r: RecordFields): string => r.route[r.route.length - 1] ?? 'unmatched';
export const statusClass = (status: number): string => (status >= 100 && status < 600 ? `${Math.floor(status / 100)}xx` : 'error');
/** An exchange the upstream never answered (status 0) counts as an error, like a 5xx. */
export const isErrorStatus = (status: number): boolean => status === 0 || status >= 500;

/** A label's value, or '' without it. Own properties only: a label named `constructor` must not read the prototype. */
export const labelValue = (r: RecordFields, name: string): string =>
  Object.prototype.hasOwnProperty.call(r.labels, name) ? String(r.labels[name]) : '';

/** Tokens as whole numbers that fit the integer columns (the meter reads any non-negative JSON number). */
export function meteredTokens(r: RecordFields): number | null {
  const t = r.tokens;
  if (typeof t !== 'number' || !Number.isFinite(t) || t < 0) return null;
  return Math.min(Math.round(t), MAX_TOKENS_PER_RECORD);
}

/** Metered tokens per route and tenant in rollup rows (`foldRollups`), for `vigil_tokens_total`: rows without any left out. */
export function rollupTokens(rollups: readonly SqlValue[][]): [route: string, tenant: string, tokens: number][] {
  return rollups.filter((r) => (r[ROLLUP.tokens] as number) > 0)
    .map((r) => [r[ROLLUP.route] as string, r[ROLLUP.tenant] as string, r[ROLLUP.tokens] as number]);
}

/** Milliseconds, finite and not negative: a NaN would break the NOT NULL column and fail the whole batch. */
const durationOf = (r: RecordFields): number => (Number.isFinite(r.duration_ms) && r.duration_ms > 0 ? r.duration_ms : 0);

/** The `capture_records` row of a record, in `RECORD_COLUMNS` order; the record's JSON is the last value. */
export function recordRow(r: StorableRecord): SqlValue[] {
  const route = JSON.stringify(r.route);
  const labels = JSON.stringify(r.labels);
  return [r.id, Math.floor(r.time), route, primaryRoute(r), r.status, labels, recordJson(r, { route, labels })];
}

/**
 * Inserts a batch's record rows and adds its rollup rows to the stored minutes (one upsert per distinct key per
 * batch). Rows come from `recordRow` and `foldRollups`; the capture pool's threads write them with their own store.
 */
export class RecordWriter {
  private readonly upsert: string;
  private readonly upsertRulePaths: string;
  private readonly records: string;
  private readonly rollups: string;
  private readonly rulePaths: string;

  constructor(private readonly store: Store) {
    this.records = store.table('records');
    this.rollups = store.table('rollups');
    this.rulePaths = store.table('rule_paths');
    this.upsert = `ON CONFLICT (${ROLLUP_KEY.join(', ')}) DO UPDATE SET ${ROLLUP_SUMS.map((c) => `${c} = ${this.rollups}.${c} + excluded.${c}`).join(', ')}`;
    this.upsertRulePaths = `ON CONFLICT (${RULE_PATH_KEY.join(', ')}) DO UPDATE SET requests = ${this.rulePaths}.requests + excluded.requests`;
  }

  /** `rulePaths` come from `foldRulePaths` (rule-paths.ts); absent, the batch counts no rule path. */
  async write(batch: { rows: readonly SqlValue[][]; rollups: readonly SqlValue[][]; rulePaths?: readonly SqlValue[][] }): Promise<void> {
    if (batch.rows.length === 0) return;
    // One transaction: records and the rollups that count them are stored together or not at all.
    await this.store.transaction(async (tx) => {
      await tx.insertMany(this.records, RECORD_COLUMNS, batch.rows, { onConflict: 'ON CONFLICT (id) DO NOTHING' });
      await tx.insertMany(this.rollups, ROLLUP_COLUMNS, batch.rollups, { onConflict: this.upsert });
      if (batch.rulePaths?.length) await tx.insertMany(this.rulePaths, RULE_PATH_COLUMNS, batch.rulePaths, { onConflict: this.upsertRulePaths });
    });
  }
}

/** What became of a batch's rows: one transaction, so all stored or all failed (with the error). */
export interface StoreOutcome {
  stored: number;
  storeFailed: number;
  storeError: string | null;
}

/** Runs `write` for `rows` records and reports the outcome instead of throwing: the lane counts and goes on. */
export async function storeOutcome(rows: number, write: () => Promise<void>): Promise<StoreOutcome> {
  try {
    await write();
    return { stored: rows, storeFailed: 0, storeError: null };
  } catch (err) {
    return { stored: 0, storeFailed: rows, storeError: err instanceof Error ? err.message : String(err) };
  }
}

/**
 * Rollup rows for a batch: one per (minute, primary route, method, status class, tenant), in `ROLLUP_KEY` then
 * `ROLLUP_SUMS` order, with request, error and token counts, the duration sum and one count per latency bucket.
 * Rows are sorted by key.
 */
export function foldRollups(records: readonly RecordFields[], tenantLabel: string): SqlValue[][] {
  const byKey = new Map<string, SqlValue[]>();
  const base = ROLLUP_KEY.length;
  for (const r of records) {
    const key: SqlValue[] = [Math.floor(r.time / MINUTE) * MINUTE, primaryRoute(r), r.method, statusClass(r.status), labelValue(r, tenantLabel)];
    const k = key.join('\u0000');
    let row = byKey.get(k);
    if (!row) { row = [...key, 0, 0, 0, 0, ...BUCKET_COLUMNS.map(() => 0)]; byKey.set(k, row); }
    row[base] = (row[base] as number) + 1;
    row[base + 1] = (row[base + 1] as number) + (isErrorStatus(r.status) ? 1 : 0);
    row[base + 2] = (row[base + 2] as number) + (meteredTokens(r) ?? 0);
    const duration = durationOf(r);
    row[base + 3] = (row[base + 3] as number) + duration;
    const b = base + 4 + bucketIndex(duration);
    row[b] = (row[b] as number) + 1;
  }
  // One total order of keys for every batch: concurrent upserts (several batches in flight, several instances on one
  // PostgreSQL) then lock shared rows in the same order and cannot deadlock.
  return [...byKey.keys()].sort((a, b) => (a < b ? -1 : a > b ? 1 : 0)).map((k) => byKey.get(k)!);
}
