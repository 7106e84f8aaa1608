// The lane's two refusals are two codes: a project over its own queue (429, the sender slows down) and the process
// over its bytes (503, no sender is at fault); each answers with its entry's status and a Retry-After.
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { HttpError } from '@vigil/plugin-sdk';
import { LlmErrors } from '../../../../../plugins/llm/errors.js';
import { FairDispatch } from '../../../../../plugins/llm/lane/fair-dispatch.js';

async function refusal(p: Promise<unknown>): Promise<HttpError> {
  try {
    await p;
  } catch (err) {
    assert.instance(err, HttpError);
    return err as HttpError;
  }
  throw new Error('expected a refusal');
}

/** A task that runs until `release` is called. */
function held(): { run: () => Promise<string>; release: () => void } {
  let release = (): void => {};
  const done = new Promise<string>((resolve) => { release = () => resolve('done'); });
  return { run: () => done, release };
}

test('a project past its own queue gets LANE_BUSY, 429, while another project is still taken', async () => {
  const lane = new FairDispatch({ slots: 1, perTenant: 2, maxBytes: 1_000_000 });
  const task = held();
  const taken = [lane.submit('a', 10, task.run), lane.submit('a', 10, task.run), lane.submit('a', 10, task.run)];
  const busy = await refusal(lane.submit('a', 10, task.run));
  assert.equal([busy.status, busy.code, busy.headers], [429, LlmErrors.LANE_BUSY, { 'Retry-After': '1' }]);
  const other = lane.submit('b', 10, task.run);
  task.release();
  assert.equal(await Promise.all([...taken, other]), ['done', 'done', 'done', 'done']);
});

test('the process past its bytes gets LANE_SATURATED, 503, whichever project sends', async () => {
  const lane = new FairDispatch({ slots: 1, perTenant: 16, maxBytes: 100 });
  const task = held();
  const first = lane.submit('a', 80, task.run);
  const saturated = await refusal(lane.submit('b', 30, task.run));
  assert.equal([saturated.status, saturated.code, saturated.headers], [503, LlmErrors.LANE_SATURATED, { 'Retry-After': '1' }]);
  task.release();
  assert.is(await first, 'done');
  await new Promise((resolve) => setImmediate(resolve));
  assert.is(await lane.submit('b', 30, async () => 'after'), 'after', 'the bytes are given back when the task ends');
});

test.run();
