import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { FLAPPING_SPAN_MS, INITIAL_STATE, step, type RuleState, type StepOptions } from '../../../../plugins/alerts/rule-state.js';

const MIN = 60_000;
const base: Omit<StepOptions, 'now'> = { cooldownMs: 15 * MIN, flappingTransitions: 4, notifyResolved: true, firingWasNotified: true };

/** Runs breaches (true/false/null) one minute apart from t0 and returns every action with its minute. */
function run(breaches: (boolean | null)[], options: Partial<StepOptions> = {}, start: RuleState = INITIAL_STATE) {
  let state = start;
  let notified = false;
  const log: string[] = [];
  breaches.forEach((breach, i) => {
    const { next, actions } = step(state, { breach }, { ...base, firingWasNotified: notified, ...options, now: 1_000_000_000 + i * MIN });
    for (const a of actions) {
      log.push(`${i}:${a.kind}${a.kind === 'fire' ? `:${a.suppressed ?? 'notify'}` : a.kind === 'resolve' ? `:${a.notify ? 'notify' : 'quiet'}` : ''}`);
      if (a.kind === 'fire') notified = a.suppressed === null;
    }
    state = next;
  });
  return { log, state };
}

test('fires once per breach and resolves when a later window no longer breaches', () => {
  assert.equal(run([false, true, true, true, false, false]).log, ['1:fire:notify', '4:resolve:notify']);
});

test('no verdict changes nothing: a firing rule stays firing, an ok one stays ok', () => {
  assert.equal(run([true, null, null, false]).log, ['0:fire:notify', '3:resolve:notify']);
  assert.equal(run([null, null]).log, []);
});

test('cooldown: a firing within the cooldown of the last notified one is recorded, not notified, and does not restart it', () => {
  // Fires at 0, resolves at 1, fires again at 2 (in cooldown), resolves at 3 (quiet: nobody was told), fires at 15.
  const { log } = run([true, false, true, false, ...Array(11).fill(false), true], { flappingTransitions: 10 });
  assert.equal(log, ['0:fire:notify', '1:resolve:notify', '2:fire:cooldown', '3:resolve:quiet', '15:fire:notify']);
});

test('notify_resolved off: resolutions are quiet', () => {
  assert.equal(run([true, false], { notifyResolved: false }).log, ['0:fire:notify', '1:resolve:quiet']);
});

test('flapping: more than N transitions within the hour notify once, then nothing until an hour passes quietly', () => {
  // N = 4: the fifth transition (minute 4) marks it flapping.
  const { log, state } = run([true, false, true, false, true, false, true, false], { cooldownMs: 0 });
  assert.equal(log, ['0:fire:notify', '1:resolve:notify', '2:fire:notify', '3:resolve:notify', '4:flapping', '4:fire:flapping', '5:resolve:quiet', '6:fire:flapping', '7:resolve:quiet']);
  assert.ok(state.flapping);
});

test('flapping settles after a whole span without a transition; a rule settled while firing says it still fires', () => {
  const flapping = run([true, false, true, false, true], { cooldownMs: 0 }).state;
  assert.ok(flapping.flapping && flapping.status === 'firing');
  const last = Math.max(...flapping.transitions);
  const before = step(flapping, { breach: true }, { ...base, now: last + FLAPPING_SPAN_MS - 1 });
  assert.ok(before.next.flapping, 'not settled a moment before the span ends');
  const after = step(flapping, { breach: true }, { ...base, now: last + FLAPPING_SPAN_MS });
  assert.not.ok(after.next.flapping);
  assert.equal(after.actions, [{ kind: 'settled' }]);
});

test.run();
