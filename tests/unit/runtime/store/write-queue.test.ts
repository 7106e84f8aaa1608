import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { WriteQueue } from '../../../../runtime/store/write-queue.js';

const tick = () => new Promise((r) => setTimeout(r, 5));

test('tasks run one at a time, in the order they were queued', async () => {
  const q = new WriteQueue();
  const log: string[] = [];
  let running = 0;
  const task = (name: string) => q.run(async () => {
    running++;
    assert.is(running, 1, 'two tasks overlapped');
    log.push(`${name}+`);
    await tick();
    log.push(`${name}-`);
    running--;
    return name;
  });
  const results = await Promise.all([task('a'), task('b'), task('c')]);
  assert.equal(results, ['a', 'b', 'c']);
  assert.equal(log, ['a+', 'a-', 'b+', 'b-', 'c+', 'c-']);
});

test('a failing task rejects its caller and does not block the next', async () => {
  const q = new WriteQueue();
  const failing = q.run(async () => { throw new Error('nope'); });
  const next = q.run(async () => 'fine');
  const err = await failing.then(() => null, (e: Error) => e);
  assert.is(err?.message, 'nope');
  assert.is(await next, 'fine');
});

test('size counts queued and running tasks; drain waits for them', async () => {
  const q = new WriteQueue();
  let done = 0;
  q.run(async () => { await tick(); done++; });
  q.run(async () => { await tick(); done++; });
  assert.is(q.size, 2);
  await q.drain();
  assert.is(done, 2);
  assert.is(q.size, 0);
});

test.run();
