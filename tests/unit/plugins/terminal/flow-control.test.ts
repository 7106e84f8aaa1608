import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { FlowControl, HIGH_WATER_BYTES, LOW_WATER_BYTES } from '../../../../plugins/terminal/flow-control.js';

function fakePty() {
  const calls: string[] = [];
  return { calls, pause: () => calls.push('pause'), resume: () => calls.push('resume') };
}

test('pauses above the high-water mark and resumes only below the low-water mark', () => {
  const pty = fakePty();
  const flow = new FlowControl(pty);
  flow.sent(HIGH_WATER_BYTES);
  assert.equal(pty.calls, [], 'at the mark: still running');
  flow.sent(1);
  assert.equal(pty.calls, ['pause']);
  flow.sent(50_000);
  assert.equal(pty.calls, ['pause'], 'paused once');
  flow.acknowledged(HIGH_WATER_BYTES + 50_001 - LOW_WATER_BYTES);
  assert.ok(flow.isPaused, `at ${flow.pending}, the low-water mark, still paused`);
  flow.acknowledged(1);
  assert.equal(pty.calls, ['pause', 'resume']);
  assert.is(flow.pending, LOW_WATER_BYTES - 1);
});

test('acknowledging more than was sent buys no credit', () => {
  const pty = fakePty();
  const flow = new FlowControl(pty);
  flow.acknowledged(10_000_000);
  assert.is(flow.pending, 0);
  flow.sent(HIGH_WATER_BYTES + 1);
  assert.ok(flow.isPaused);
});

test('a full socket holds the pty even when everything is acknowledged', () => {
  const pty = fakePty();
  const flow = new FlowControl(pty);
  flow.socketFull(true);
  flow.acknowledged(5);
  assert.ok(flow.isPaused);
  flow.sent(HIGH_WATER_BYTES + 1);
  flow.socketFull(false);
  assert.ok(flow.isPaused, 'still held by the acknowledgements');
  flow.acknowledged(HIGH_WATER_BYTES + 1);
  assert.equal(pty.calls, ['pause', 'resume'], 'one pause and one resume for both holds');
});

test.run();
