// A second Node process for the cross-process scheduler test: it opens the same store, registers the same interval
// job id as the test process, records each run in `runs`, and exits after `durationMs`.
//   node scheduler-child.js <storeUrl> <owner> <jobId> <intervalMs> <runMs> <durationMs>
import { createScheduler } from '../../../../runtime/jobs/index.js';
import { openStore } from '../../../../runtime/store/index.js';
import { recordingLog, sleep } from '../store/backend-kinds.js';

const [url, owner, id, intervalMs, runMs, durationMs] = process.argv.slice(2);
const store = await openStore(url);
const scheduler = createScheduler(store, { owner, log: recordingLog() });
scheduler.every(id, Number(intervalMs), async () => {
  const started = Date.now();
  await sleep(Number(runMs));
  await store.run('INSERT INTO runs (owner, started, ended) VALUES (?, ?, ?)', [owner, started, Date.now()]);
}, { immediate: true });
await scheduler.start();
process.stdout.write('started\n');
await sleep(Number(durationMs));
await scheduler.stop();
await store.close();
