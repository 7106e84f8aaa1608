import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { sleep, untilAborted } from '../../../../runtime/delivery/abortable-wait.js';

test('untilAborted settles like the work when the signal stays quiet', async () => {
  const c = new AbortController();
  assert.is(await untilAborted(Promise.resolve(7), c.signal), 7);
  try {
    await untilAborted(Promise.reject(new Error('boom')), c.signal);
    assert.unreachable();
  } catch (err) {
    assert.is((err as Error).message, 'boom');
  }
});

test('untilAborted rejects with the reason as soon as the signal aborts, and swallows the late rejection', async () => {
  const c = new AbortController();
  let rejectWork!: (e: Error) => void;
  const work = new Promise<void>((_r, rej) => { rejectWork = rej; });
  const raced = untilAborted(work, c.signal);
  const reason = new Error('timed out');
  c.abort(reason);
  try { await raced; assert.unreachable(); } catch (err) { assert.is(err, reason); }
  rejectWork(new Error('late'));
  await new Promise((r) => setTimeout(r, 5));
});

test('untilAborted with an already aborted signal rejects at once', async () => {
  const c = new AbortController();
  c.abort(new Error('already'));
  try { await untilAborted(Promise.reject(new Error('ignored')), c.signal); assert.unreachable(); } catch (err) {
    assert.is((err as Error).message, 'already');
  }
});

test('sleep resolves after its time and rejects when aborted', async () => {
  const keep = setTimeout(() => {}, 1_000);
  const c = new AbortController();
  await sleep(1, c.signal);
  const long = sleep(60_000, c.signal);
  c.abort(new Error('stop'));
  try { await long; assert.unreachable(); } catch (err) { assert.is((err as Error).message, 'stop'); }
  try { await sleep(1, c.signal); assert.unreachable(); } catch (err) { assert.is((err as Error).message, 'stop'); }
  clearTimeout(keep);
});

test.run();
