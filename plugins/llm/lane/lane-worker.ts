// piscina task module of the LLM lane: every ingest request's decoding, validation, redaction and storage, on this
// thread's own store connection. The main thread, which carries the gateway's traffic, gets back the answer, counts
// and references to what was stored.
import { workerStore } from '@vigil/plugin-sdk/worker';
import { laneDeps } from './lane-deps.js';
import { runLaneTask, type LaneDeps } from './lane-tasks.js';
import type { LaneResult, LaneTask } from './lane-types.js';

let deps: Promise<LaneDeps> | undefined;

export default async function laneTask(task: LaneTask): Promise<LaneResult> {
  // A failed open is not kept: the next task tries again (a database that was briefly unreachable).
  deps ??= workerStore().then(laneDeps).catch((err: unknown) => { deps = undefined; throw err; });
  return runLaneTask(await deps, task);
}
