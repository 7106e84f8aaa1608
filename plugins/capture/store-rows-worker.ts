// piscina task module of the capture pool: governs a batch with the redaction plugin's worker module (loaded from
// the URL its service hands out) and turns the records into the rows capture stores, off the main thread.
//
// Why rows and not records: a record is an object graph, and cloning it back to the main thread costs about three
// times as much as JSON-serialising it here and sending strings; the main thread then only binds and inserts.
import { workerData } from 'node:worker_threads';
import type { GovernResult, GovernTask, StorableRecord } from '@vigil/plugin-sdk';
import { unpackExchanges } from './exchange-batch.js';
import { foldRollups, recordRow } from './record-writer.js';
import type { StoreRowsTask, StoredRows, StoreRowsWorkerData } from './types.js';

const data = workerData as StoreRowsWorkerData;
const govern = ((await import(data.governModule)) as { default: (task: GovernTask) => Promise<GovernResult> }).default;

/**
 * Governed records of a batch as `capture_records` rows (record JSON included) and folded minute rollups. When the
 * governance module refuses the batch (one exchange it cannot govern fails all of it), each exchange is governed
 * alone, so only the ones it refuses are lost; they are counted in `failed`, and nothing ungoverned is returned.
 * WASM policy calls that failed on the way are passed on in `sandboxFailures`.
 */
export default async function storeRows(task: StoreRowsTask): Promise<StoredRows> {
  let records: StorableRecord[];
  let failed = 0;
  let firstError: string | null = null;
  const sandboxFailures: Record<string, number> = {};
  const add = (result: GovernResult): StorableRecord[] => {
    for (const [reason, n] of Object.entries(result.sandboxFailures)) sandboxFailures[reason] = (sandboxFailures[reason] ?? 0) + n;
    return result.records;
  };
  const exchanges = unpackExchanges(task.exchanges);
  try {
    records = add(await govern({ policy: task.policy, exchanges }));
  } catch {
    records = [];
    for (const exchange of exchanges) {
      try {
        records.push(...add(await govern({ policy: task.policy, exchanges: [exchange] })));
      } catch (err) {
        failed++;
        firstError ??= err instanceof Error ? err.message : String(err);
      }
    }
  }
  const rows = new Array(records.length);
  for (let i = 0; i < records.length; i++) rows[i] = recordRow(records[i]);
  return { rows, rollups: foldRollups(records, data.tenantLabel), failed, firstError, sandboxFailures };
}
