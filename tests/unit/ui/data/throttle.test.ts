import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { throttle, type Timers } from '../../../../ui/src/data/throttle.js';

function fakeTimers() {
  let now = 0;
  const pending: { at: number; fn: () => void; id: number }[] = [];
  let id = 0;
  const timers: Timers = {
    setTimeout: (fn, ms) => { pending.push({ at: now + ms, fn, id: ++id }); return id; },
    clearTimeout: (t) => { const i = pending.findIndex((p) => p.id === t); if (i >= 0) pending.splice(i, 1); },
    now: () => now,
  };
  const advance = (ms: number) => {
    now += ms;
    for (const p of pending.filter((x) => x.at <= now)) { pending.splice(pending.indexOf(p), 1); p.fn(); }
  };
  return { timers, advance, pending };
}

test('the first call runs at once; a burst collapses into one call at the end of the interval', () => {
  const t = fakeTimers();
  let calls = 0;
  const f = throttle(() => calls++, 5000, t.timers);
  f();
  assert.is(calls, 1);
  for (let i = 0; i < 100; i++) { t.advance(10); f(); }
  assert.is(calls, 1);
  t.advance(5000);
  assert.is(calls, 2, 'one trailing call for the whole burst');
  t.advance(10_000);
  assert.is(calls, 2, 'nothing more without calls');
  f();
  assert.is(calls, 3, 'after a quiet interval a call runs at once again');
});

test('cancel drops the pending call (a page that unmounts)', () => {
  const t = fakeTimers();
  let calls = 0;
  const f = throttle(() => calls++, 1000, t.timers);
  f();
  f();
  f.cancel();
  t.advance(5000);
  assert.is(calls, 1);
  assert.is(t.pending.length, 0);
});

test.run();
