// The capture pool's ingest task (POST /api/gateway/records), run in a worker thread: the body is parsed and checked
// here, every record is governed again with the agent's policy (the governance worker module's `regovernRecords`),
// and the new ones are stored through this thread's connection, with their rollups and rule paths. The event loop
// only moves the body's bytes here and gets counts back.
import type { Store } from '@vigil/plugin-sdk';
import type { RegovernReason, RegovernResult, RegovernTask, TelemetryPolicy } from '../govern/govern-task.js';
import type { StorableRecord } from './governed-record.js';
import { readIngestBody } from './ingest-body.js';
import { packRecords } from './record-batch.js';
import { foldRollups, recordRow, RecordWriter, rollupTokens, storeOutcome } from './record-writer.js';
import { foldRulePaths } from './rule-paths.js';
import { storedIds } from './stored-ids.js';
import type { IngestedRecords, IngestTask } from './lane-tasks.js';

export interface IngestTaskDeps {
  regovern(task: RegovernTask): RegovernResult;
  /** The task's policy, parsed (the same object for the same JSON, so governance finds it compiled). */
  policy: TelemetryPolicy;
  tenantLabel: string;
  /** This thread's store; null without one (`sqlite::memory:`): the records then go back to the main thread. */
  store: (() => Promise<Store>) | null;
}

/** Per reason, how many of `reasons` name it (a record counts once under each of its reasons). */
export function countReasons(reasons: readonly (readonly RegovernReason[])[]): Partial<Record<RegovernReason, number>> {
  const out: Partial<Record<RegovernReason, number>> = {};
  for (const list of reasons) for (const r of list) out[r] = (out[r] ?? 0) + 1;
  return out;
}

export async function ingestBatch(task: IngestTask, deps: IngestTaskDeps): Promise<IngestedRecords> {
  const body = readIngestBody(task.ingest);
  if ('invalid' in body) return body;
  const outcomes = deps.regovern({ policy: deps.policy, records: body.records, bodyTexts: body.bodyTexts }).records;
  let restricted = 0;
  let duplicates = 0;
  const seen = new Set<string>();
  let records: StorableRecord[] = [];
  let reasons: RegovernReason[][] = [];
  for (const o of outcomes) {
    if (o.restricted) { restricted++; continue; }
    if (seen.has(o.record.id)) { duplicates++; continue; }
    seen.add(o.record.id);
    records.push(o.record);
    reasons.push(o.reasons as RegovernReason[]);
  }
  const counts = { restricted, tokens: [] as [string, string, number][] };
  if (deps.store === null) {
    return {
      ...counts, duplicates, regoverned: 0, reasons: {}, stored: 0, storeFailed: 0, storeError: null, unstored: { records, reasons },
    };
  }
  let store: Store;
  let known: Set<string>;
  try {
    store = await deps.store();
    known = await storedIds(store, records.map((r) => r.id));
  } catch (err) {
    return { ...counts, duplicates, regoverned: 0, reasons: {}, stored: 0, storeFailed: records.length, storeError: (err as Error).message };
  }
  if (known.size > 0) {
    duplicates += known.size;
    const fresh = records.map((r, i) => i).filter((i) => !known.has(records[i].id));
    records = fresh.map((i) => records[i]);
    reasons = fresh.map((i) => reasons[i]);
  }
  const rows = records.map(recordRow);
  const rollups = foldRollups(records, deps.tenantLabel);
  const rulePaths = foldRulePaths(records);
  const outcome = await storeOutcome(rows.length, () => new RecordWriter(store).write({ rows, rollups, rulePaths }));
  if (outcome.storeFailed > 0) return { ...counts, duplicates, regoverned: 0, reasons: {}, ...outcome };
  return {
    ...counts, duplicates, ...outcome,
    regoverned: reasons.filter((r) => r.length > 0).length,
    reasons: countReasons(reasons),
    tokens: rollupTokens(rollups),
    // The record JSON is the last value of each row: the text stored is the text exported.
    ...(task.withRecords ? { records: packRecords(records, rows.map((row) => row[row.length - 1] as string)) } : {}),
  };
}
