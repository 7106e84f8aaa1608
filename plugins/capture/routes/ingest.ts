import { httpError, isJsonContentType, type HttpRoutes, type Store } from '@vigil/plugin-sdk';
import type { StorableRecord } from '../../../gateway/records/governed-record.js';
import { CaptureErrors } from '../errors.js';
import { INGEST_SCHEME } from '../ingest-auth.js';
import { countReasons } from '../../../gateway/records/ingest-task.js';
import { foldRollups, recordRow, type RecordWriter } from '../../../gateway/records/record-writer.js';
import { foldRulePaths } from '../../../gateway/records/rule-paths.js';
import { storedIds } from '../../../gateway/records/stored-ids.js';
import type { IngestedBatch, IngestedRecords } from '../../../gateway/records/lane-tasks.js';
import { ingestOutcomeSchema } from './schemas.js';

/**
 * Bytes of one ingest body. The middleware sends at most 4 Mi characters of records per POST; this leaves room for
 * non-ASCII text (up to 3 bytes a character) without letting one POST hold the control plane's memory for long.
 */
export const INGEST_BODY_LIMIT = 16 * 1024 * 1024;
/**
 * Ingest bodies handed to the capture pool at once: beyond, 503 with Retry-After (the middleware retries). With the
 * body limit, it bounds what ingest holds (64 MiB of bodies, of which each thread parses one at a time), and keeps a
 * place in the pool's queue for every batch of the telemetry lane.
 */
export const MAX_INGEST_IN_FLIGHT = 4;
const RETRY_AFTER_SECONDS = 1;

/**
 * What the route tells the plugin of a batch once its records are committed: the worker's counts, and the records
 * themselves when they were stored on the event loop (a thread without a store, `sqlite::memory:`).
 */
export type IngestStored = IngestedBatch & { storedHere?: { records: readonly StorableRecord[]; json: readonly string[] } };

export interface IngestDeps {
  store: Store;
  /** For a pool whose threads cannot open the store (`sqlite::memory:`): records are written here instead. */
  writer: RecordWriter;
  tenantLabel: string;
  /** Runs one body as an ingest task on the capture pool (its buffer is moved to the thread). */
  run(body: Uint8Array): Promise<IngestedRecords>;
  /** After the batch's rows are committed: metrics, the dashboard's event, `gateway.record` for the exporters. */
  stored(batch: IngestStored): void;
}

/**
 * POST /api/gateway/records: records governed outside this process (by @vigil/express or @vigil/koa), stored
 * through capture's own writer so they count in rollups, rule usage, the inspector and the exporters like the
 * gateway's. The agent's own policy is the floor: each record is governed again with it before it is stored
 * (gateway/govern/regovern-record.ts), and a record of a route it restricts is not stored. The body is parsed,
 * checked, governed and stored in a capture worker: the event loop only moves its bytes. A batch is checked whole
 * before anything is stored (400 names the first bad key path). Records already stored (a batch sent again after a
 * lost answer) are skipped, so a retry never counts twice. A failed store is a 503, which the middleware retries.
 */
export function registerIngestRoute(http: HttpRoutes, deps: IngestDeps): void {
  let inFlight = 0;
  http.route({
    method: 'POST', path: '/api/gateway/records', auth: INGEST_SCHEME, tags: ['gateway'],
    summary: 'Store records governed by the Express or Koa middleware',
    description: 'Takes `{ records: GovernedRecord[] }` as application/json (1 to 10,000, each with every key of a stored record and no other; '
      + 'at most 16 MiB), authenticated by `Authorization: Bearer <capture.ingest_token>`. Every record is governed again with the agent\'s '
      + 'own policy before it is stored. Answers `{ stored, duplicates, redacted_by_agent, restricted }`.',
    rawBody: true,
    bodyLimit: INGEST_BODY_LIMIT,
    response: ingestOutcomeSchema,
    async handler(ctx) {
      const contentType = ctx.headers['content-type'];
      if (!isJsonContentType(contentType)) {
        throw httpError(CaptureErrors.INGEST_MEDIA_TYPE,
          `records must be sent as "Content-Type: application/json"${contentType ? `, not ${JSON.stringify(contentType)}` : ''}`);
      }
      if (inFlight >= MAX_INGEST_IN_FLIGHT) {
        throw httpError(CaptureErrors.INGEST_BUSY,
          `the agent is storing ${MAX_INGEST_IN_FLIGHT} batches of records already; send this one again in a moment`,
          { headers: { 'Retry-After': String(RETRY_AFTER_SECONDS) } });
      }
      inFlight++;
      let result: IngestedRecords;
      try {
        result = await deps.run(movable(ctx.request.body as Buffer));
      } catch (err) {
        throw httpError(CaptureErrors.INGEST_STORE, `governing the records failed: ${(err as Error).message}; nothing was stored, send them again`);
      } finally {
        inFlight--;
      }
      if (result.invalid !== undefined) throw httpError(CaptureErrors.INGEST_BODY, result.invalid);
      const batch = result.unstored ? await storeHere(deps, result) : result;
      if (batch.storeFailed > 0) {
        throw httpError(CaptureErrors.INGEST_STORE, `storing ${batch.storeFailed} record(s) failed: ${batch.storeError}; nothing was stored, send them again`);
      }
      if (batch.stored > 0 || batch.restricted > 0) deps.stored(batch);
      return { stored: batch.stored, duplicates: batch.duplicates, redacted_by_agent: batch.regoverned, restricted: batch.restricted };
    },
  });
}

/**
 * The body's bytes in a buffer of their own, to move to the worker: a small body read in one chunk may be a slice of
 * a shared pool, which must not be detached; a large one owns its memory and moves as it is.
 */
function movable(body: Buffer): Uint8Array {
  if (body.byteOffset === 0 && body.byteLength === body.buffer.byteLength) return body;
  return new Uint8Array(body);
}

/** The records of a thread without a store (`sqlite::memory:`): the ones stored already are skipped, the rest written here. */
async function storeHere(deps: IngestDeps, result: IngestedBatch): Promise<IngestStored> {
  const { records: governed, reasons: governedReasons } = result.unstored!;
  const known = await storedIds(deps.store, governed.map((r) => r.id));
  const fresh = governed.map((_, i) => i).filter((i) => !known.has(governed[i].id));
  const records = fresh.map((i) => governed[i]);
  const reasons = fresh.map((i) => governedReasons[i]);
  const rows = records.map(recordRow);
  const duplicates = result.duplicates + known.size;
  try {
    await deps.writer.write({ rows, rollups: foldRollups(records, deps.tenantLabel), rulePaths: foldRulePaths(records) });
  } catch (err) {
    return { ...result, duplicates, stored: 0, storeFailed: records.length, storeError: (err as Error).message };
  }
  return {
    ...result, duplicates, stored: records.length, storeFailed: 0, storeError: null,
    regoverned: reasons.filter((r) => r.length > 0).length, reasons: countReasons(reasons),
    // The record JSON is the last value of each row: the text stored is the text exported.
    storedHere: { records, json: rows.map((row) => row[row.length - 1] as string) },
  };
}
