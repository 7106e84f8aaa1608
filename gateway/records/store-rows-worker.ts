// piscina task module of the capture pool: governs a batch with the governance engine (gateway/govern), turns the
// records into rows and writes them through this thread's own store connection. It also takes the bodies of POST /api/gateway/records (ingest-task.ts), governed by the same module.
// The main thread serves traffic; all it gets back is counts, token totals and, when an exporter listens, the
// records' JSON text with their key fields, for it to publish without parsing. The fields the batches used are held
// by the thread and written by it too (held-fields.ts).
import { workerData } from 'node:worker_threads';
import type { FieldObservation, FieldOverflow } from '../fields/api-fields.js';
import type { GovernResult, RegovernResult, RegovernTask, TelemetryPolicy } from '../govern/govern-task.js';
import type { StorableRecord } from './governed-record.js';
import { workerStore, workerStoreAvailable } from '@vigil/plugin-sdk/worker';
import { unpackExchanges } from '../exchange/exchange-batch.js';
import { packRecords } from './record-batch.js';
import { foldRollups, recordRow, RecordWriter, rollupTokens, storeOutcome } from './record-writer.js';
import { foldRulePaths } from './rule-paths.js';
import { HeldFields } from '../fields/held-fields.js';
import { ingestBatch } from './ingest-task.js';
import governBatch, { regovernRecords } from '../govern/govern-worker.js';
import type { BatchGovernor } from '../lane-stages.js';
import type {
  FlushedFields, FlushFieldsTask, IngestedRecords, IngestTask, StoreRowsTask, StoredRows, StoreRowsWorkerData,
} from './lane-tasks.js';

const data = workerData as StoreRowsWorkerData;
/** The engine, typed by its task contract (govern-task.ts); its own types name the policy's rules more closely. */
const govern = governBatch as BatchGovernor;
const regovern = regovernRecords as (task: RegovernTask) => RegovernResult;
/** This thread's field observations, when it writes them itself (it has a store of its own). */
const held = data.recordFields && workerStoreAvailable() ? new HeldFields(data.fieldsFlushMs) : null;

export default function captureTask(task: StoreRowsTask | FlushFieldsTask | IngestTask): Promise<StoredRows | FlushedFields | IngestedRecords> {
  if ('flushFields' in task) return flushFields();
  if ('ingest' in task) {
    return ingestBatch(task, {
      regovern, policy: policyOf(task.policy), tenantLabel: data.tenantLabel,
      store: workerStoreAvailable() ? workerStore : null,
    });
  }
  return storeRows(task);
}

/** Writes the fields this thread holds (the lane's flush, every `fields_flush` and at stop). */
async function flushFields(): Promise<FlushedFields> {
  if (held === null) return {};
  const { overflow, error } = await held.write(workerStore);
  return { fieldOverflow: overflow, ...(error === null ? {} : { fieldsError: error }) };
}

/**
 * Governs a batch, stores its record rows, folded minute rollups and rule paths, and reports the outcome. When the governance
 * module refuses the batch (one exchange it cannot govern fails all of it), each exchange is governed alone, so
 * only the ones it refuses are lost; they are counted in `failed`, and nothing ungoverned is stored or returned.
 * WASM policy calls that failed on the way are passed on in `sandboxFailures`. Without a store of its own
 * (`sqlite::memory:`), the rows go back to the main thread to be written there.
 */
async function storeRows(task: StoreRowsTask): Promise<StoredRows> {
  const { records, failed, firstError, sandboxFailures, fields, fieldOverflow } = await governAll(task);
  const rows = new Array(records.length);
  for (let i = 0; i < records.length; i++) rows[i] = recordRow(records[i]);
  const rollups = foldRollups(records, data.tenantLabel);
  const rulePaths = foldRulePaths(records);
  const out = {
    failed, firstError, sandboxFailures,
    tokens: rollupTokens(rollups),
    // The record JSON is the last value of each row; exporters get it even when storing fails (it may be the only copy).
    ...(task.withRecords ? { records: packRecords(records, rows.map((row) => row[row.length - 1] as string)) } : {}),
  };
  if (!workerStoreAvailable()) {
    // The main thread merges the observations and writes them with the rows.
    return { ...out, ...(fields === undefined ? {} : { fields, fieldOverflow }), stored: 0, storeFailed: 0, storeError: null, rows, rollups, rulePaths };
  }
  // workerStore() opens this thread's connection once (a failed open is tried again by the next batch).
  const outcome = await storeOutcome(rows.length, async () => new RecordWriter(await workerStore()).write({ rows, rollups, rulePaths }));
  if (held === null || fields === undefined || fieldOverflow === undefined) return { ...out, ...outcome };
  // Held here: only the overflow counts go back. A thread busy with batches writes when its last write is old enough
  // (the lane's flush task waits behind its batches).
  addOverflow(fieldOverflow, held.add(fields));
  if (!held.due()) return { ...out, ...outcome, fieldOverflow };
  const written = await held.write(workerStore);
  addOverflow(fieldOverflow, written.overflow);
  return { ...out, ...outcome, fieldOverflow, ...(written.error === null ? {} : { fieldsError: written.error }) };
}

function addOverflow(into: FieldOverflow, from: FieldOverflow): void {
  into.route += from.route;
  into.total += from.total;
}

/**
 * The last task's policy, parsed once: every batch gets the same object until the policy changes, so governance finds
 * its compiled rules by identity.
 */
let lastPolicy: { json: string; policy: TelemetryPolicy } | null = null;

function policyOf(json: string): TelemetryPolicy {
  if (lastPolicy?.json !== json) lastPolicy = { json, policy: JSON.parse(json) as TelemetryPolicy };
  return lastPolicy.policy;
}

async function governAll(task: StoreRowsTask): Promise<{
  records: StorableRecord[]; failed: number; firstError: string | null; sandboxFailures: Record<string, number>;
  fields?: FieldObservation[]; fieldOverflow?: FieldOverflow;
}> {
  const exchanges = unpackExchanges(task.exchanges);
  const sandboxFailures: Record<string, number> = {};
  const recordFields = data.recordFields;
  const fields: FieldObservation[] | undefined = recordFields ? [] : undefined;
  const fieldOverflow: FieldOverflow = { route: 0, total: 0 };
  const add = (result: GovernResult): StorableRecord[] => {
    for (const [reason, n] of Object.entries(result.sandboxFailures)) sandboxFailures[reason] = (sandboxFailures[reason] ?? 0) + n;
    // Governed one by one (below), the observations come per exchange: the event loop's accumulator merges them.
    if (fields !== undefined && result.fields) for (const f of result.fields) fields.push(f);
    if (result.fieldOverflow) {
      fieldOverflow.route += result.fieldOverflow.route;
      fieldOverflow.total += result.fieldOverflow.total;
    }
    return result.records;
  };
  const observed = fields === undefined ? {} : { fields, fieldOverflow };
  const policy = policyOf(task.policy);
  try {
    return { records: add(await govern({ policy, exchanges, recordFields })), failed: 0, firstError: null, sandboxFailures, ...observed };
  } catch {
    const records: StorableRecord[] = [];
    let failed = 0;
    let firstError: string | null = null;
    for (const exchange of exchanges) {
      try {
        records.push(...add(await govern({ policy, exchanges: [exchange], recordFields })));
      } catch (err) {
        failed++;
        firstError ??= err instanceof Error ? err.message : String(err);
      }
    }
    return { records, failed, firstError, sandboxFailures, ...observed };
  }
}
