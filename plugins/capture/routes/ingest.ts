import { HttpError, type GovernedRecord, type HttpRoutes, type StorableRecord, type Store } from '@vigil/plugin-sdk';
import { CaptureErrors } from '../errors.js';
import { INGEST_SCHEME } from '../ingest-auth.js';
import { ingestBodySchema } from '../ingest-record-schema.js';
import { foldRollups, recordRow, type RecordWriter } from '../record-writer.js';
import { foldRulePaths } from '../rule-paths.js';

/**
 * Bytes of one ingest body. The middleware sends at most 4 Mi characters of records per POST; this leaves room for
 * non-ASCII text (up to 3 bytes a character) without letting one POST hold the control plane's memory for long.
 */
export const INGEST_BODY_LIMIT = 16 * 1024 * 1024;
/** Ids looked up per query when finding records already stored (under SQLite's parameter limit). */
const ID_CHUNK = 500;

export interface IngestDeps {
  store: Store;
  writer: RecordWriter;
  tenantLabel: string;
  /** After the batch's rows are committed: metrics, the dashboard's event, `gateway.record` for the exporters. */
  stored(records: readonly StorableRecord[], json: readonly string[]): void;
}

/** A record as received, with its bodies as JSON text, as the telemetry lane's workers hand records to storage. */
function storable(r: GovernedRecord): StorableRecord {
  const { request_body: request, response_body: response, ...rest } = r;
  return { ...rest, request_body_json: JSON.stringify(request), response_body_json: JSON.stringify(response) };
}

/**
 * POST /api/gateway/records: records governed outside this process (by @vigil/express or @vigil/koa, with the same
 * policy code as the gateway), stored through capture's own writer so they count in rollups, rule usage, the
 * inspector and the exporters like the gateway's. A batch is checked whole before anything is stored (400 names the
 * first bad key path). Records already stored (a batch sent again after a lost answer) are skipped, so a retry never
 * counts twice. A failed store is a 503, which the middleware retries.
 */
export function registerIngestRoute(http: HttpRoutes, deps: IngestDeps): void {
  const table = deps.store.table('records');
  http.route({
    method: 'POST', path: '/api/gateway/records', auth: INGEST_SCHEME, tags: ['gateway'],
    summary: 'Store records governed by the Express or Koa middleware',
    description: 'Takes `{ records: GovernedRecord[] }` (1 to 10,000, each with every key of a stored record and no other), '
      + 'authenticated by `Authorization: Bearer <capture.ingest_token>`. Answers `{ stored, duplicates }`.',
    body: ingestBodySchema,
    bodyLimit: INGEST_BODY_LIMIT,
    response: {
      type: 'object',
      properties: { stored: { type: 'integer' }, duplicates: { type: 'integer', description: 'Records skipped: already stored under their id.' } },
    },
    async handler(ctx) {
      const received = (ctx.request.body as { records: GovernedRecord[] }).records;
      const known = await storedIds(deps.store, table, received.map((r) => r.id));
      const seen = new Set<string>();
      const records: StorableRecord[] = [];
      for (const r of received) {
        if (known.has(r.id) || seen.has(r.id)) continue;
        seen.add(r.id);
        records.push(storable(r));
      }
      const rows = records.map(recordRow);
      try {
        await deps.writer.write({ rows, rollups: foldRollups(records, deps.tenantLabel), rulePaths: foldRulePaths(records) });
      } catch (err) {
        throw new HttpError(503, CaptureErrors.INGEST_STORE, `storing ${records.length} record(s) failed: ${(err as Error).message}; nothing was stored, send them again`);
      }
      // The record JSON is the last value of each row: the text stored is the text exported.
      if (records.length > 0) deps.stored(records, rows.map((row) => row[row.length - 1] as string));
      return { stored: records.length, duplicates: received.length - records.length };
    },
  });
}

async function storedIds(store: Store, table: string, ids: readonly string[]): Promise<Set<string>> {
  const found = new Set<string>();
  for (let i = 0; i < ids.length; i += ID_CHUNK) {
    const chunk = ids.slice(i, i + ID_CHUNK);
    const rows = await store.query<{ id: string }>(`SELECT id FROM ${table} WHERE id IN (${chunk.map(() => '?').join(', ')})`, chunk);
    for (const row of rows) found.add(row.id);
  }
  return found;
}
