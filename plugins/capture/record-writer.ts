import type { SqlValue, Store } from '@vigil/plugin-sdk';
import type { GovernedRecord } from '../redaction/types.js';
import { BUCKET_COLUMNS, bucketIndex } from './latency-buckets.js';

const RECORD_COLUMNS = ['id', 'time', 'method', 'path', 'route', 'primary_route', 'status', 'duration_ms', 'tenant', 'tokens', 'labels', 'record'];
const ROLLUP_KEY = ['bucket', 'route', 'method', 'status_class', 'tenant'];
const ROLLUP_SUMS = ['requests', 'errors', 'tokens', 'duration_sum', ...BUCKET_COLUMNS];
const MINUTE = 60_000;

/** The rule glob a record is filed under: the last matching rule's, like the traffic lane's metrics. */
export const primaryRoute = (r: GovernedRecord): string => r.route[r.route.length - 1] ?? 'unmatched';
export const statusClass = (status: number): string => (status >= 100 && status < 600 ? `${Math.floor(status / 100)}xx` : 'error');
const isError = (status: number) => status === 0 || status >= 500;

/** Writes governed records and folds them into per-minute rollups (one upsert per distinct key per batch). */
export class RecordWriter {
  private readonly upsert: string;

  constructor(private readonly store: Store, private readonly tenantLabel: string) {
    this.upsert = `ON CONFLICT (${ROLLUP_KEY.join(', ')}) DO UPDATE SET ${ROLLUP_SUMS.map((c) => `${c} = ${store.table('rollups')}.${c} + excluded.${c}`).join(', ')}`;
  }

  async write(records: readonly GovernedRecord[]): Promise<void> {
    if (records.length === 0) return;
    const rows: SqlValue[][] = records.map((r) => [
      r.id, r.time, r.method, r.path, JSON.stringify(r.route), primaryRoute(r), r.status, r.duration_ms,
      r.labels[this.tenantLabel] ?? '', r.tokens, JSON.stringify(r.labels), JSON.stringify(r),
    ]);
    await this.store.insertMany(this.store.table('records'), RECORD_COLUMNS, rows, { onConflict: 'ON CONFLICT (id) DO NOTHING' });
    await this.store.insertMany(this.store.table('rollups'), [...ROLLUP_KEY, ...ROLLUP_SUMS], this.rollups(records), { onConflict: this.upsert });
  }

  private rollups(records: readonly GovernedRecord[]): SqlValue[][] {
    const byKey = new Map<string, SqlValue[]>();
    for (const r of records) {
      const key: SqlValue[] = [Math.floor(r.time / MINUTE) * MINUTE, primaryRoute(r), r.method, statusClass(r.status), r.labels[this.tenantLabel] ?? ''];
      const k = key.join('\u0000');
      let row = byKey.get(k);
      if (!row) { row = [...key, 0, 0, 0, 0, ...BUCKET_COLUMNS.map(() => 0)]; byKey.set(k, row); }
      const base = ROLLUP_KEY.length;
      row[base] = (row[base] as number) + 1;
      row[base + 1] = (row[base + 1] as number) + (isError(r.status) ? 1 : 0);
      row[base + 2] = (row[base + 2] as number) + (r.tokens ?? 0);
      row[base + 3] = (row[base + 3] as number) + r.duration_ms;
      const b = base + 4 + bucketIndex(r.duration_ms);
      row[b] = (row[b] as number) + 1;
    }
    return [...byKey.values()];
  }
}
