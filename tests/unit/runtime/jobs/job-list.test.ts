import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { createJobQueues, JobsErrors, listJobs } from '../../../../runtime/jobs/index.js';
import { openStore } from '../../../../runtime/store/index.js';
import { recordingLog, rejection } from '../store/backend-kinds.js';

test('lists the newest jobs first, filtered by queue and state, with parsed payloads', async () => {
  const store = await openStore('sqlite::memory:');
  try {
    const queues = createJobQueues(store, { owner: 'w', log: recordingLog() });
    const a = queues.queue('q.a', async () => {});
    const b = queues.queue('q.b', async () => {});
    const ids = [await a.enqueue({ n: 1 }), await a.enqueue({ n: 2 }, { dedupeKey: 'two' }), await b.enqueue('text')];
    await store.run("UPDATE vigil_jobs SET state = 'dead', last_error = 'gave up' WHERE id = ?", [ids[0]]);
    const all = await listJobs(store);
    assert.equal(all.map((j) => j.id), [ids[2], ids[1], ids[0]]);
    const [second] = await listJobs(store, { queue: 'q.a', state: 'pending' });
    assert.equal({ id: second.id, payload: second.payload, dedupeKey: second.dedupeKey, attempt: second.attempt, maxAttempts: second.maxAttempts },
      { id: ids[1], payload: { n: 2 }, dedupeKey: 'two', attempt: 0, maxAttempts: 5 });
    assert.type(second.createdAt, 'number');
    const [dead] = await listJobs(store, { state: 'dead' });
    assert.equal({ id: dead.id, lastError: dead.lastError }, { id: ids[0], lastError: 'gave up' });
    assert.is((await listJobs(store, { limit: 2 })).length, 2);
    assert.equal(await listJobs(store, { queue: 'q.none' }), []);
  } finally {
    await store.close();
  }
});

test('an unknown state or a bad limit is refused', async () => {
  const store = await openStore('sqlite::memory:');
  try {
    assert.is((await rejection(() => listJobs(store, { state: 'sleeping' as never }))).code, JobsErrors.OPTION);
    assert.is((await rejection(() => listJobs(store, { limit: 0 }))).code, JobsErrors.OPTION);
  } finally {
    await store.close();
  }
});

test('works on a store where no job was ever queued', async () => {
  const store = await openStore('sqlite::memory:');
  try {
    assert.equal(await listJobs(store), []);
  } finally {
    await store.close();
  }
});

test.run();
