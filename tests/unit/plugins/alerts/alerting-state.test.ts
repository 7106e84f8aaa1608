import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { inForce, nextState, type AlertingState } from '../../../../plugins/alerts/alerting-state.js';

const MIN = 60_000;
const T0 = 1_700_000_000_000;
const on: AlertingState = { state: 'on', until: null, changed_at: 0 };

test('the state table: on, stopped until started, snoozed for 15 min, 1 h, 4 h or 24 h', () => {
  const stopped = nextState(on, 'stop', T0);
  assert.is(stopped.state, 'stopped');
  assert.is(inForce(stopped, T0 + 365 * 24 * 60 * MIN).state, 'stopped', 'a stop never ends by itself');
  assert.is(nextState(stopped, 'start', T0 + MIN).state, 'on');
  for (const minutes of [15, 60, 240, 1440]) {
    const snoozed = nextState(on, 'snooze', T0, minutes);
    assert.equal([snoozed.state, snoozed.until], ['snoozed', T0 + minutes * MIN]);
    assert.is(inForce(snoozed, T0 + minutes * MIN - 1).state, 'snoozed');
    const back = inForce(snoozed, T0 + minutes * MIN);
    assert.equal([back.state, back.until, back.changed_at], ['on', null, T0 + minutes * MIN], 'a snooze expires back to on by itself');
  }
  assert.is(nextState(nextState(on, 'snooze', T0, 60), 'start', T0 + MIN).state, 'on', 'start ends a snooze early');
  assert.is(nextState(nextState(on, 'snooze', T0, 60), 'stop', T0 + MIN).state, 'stopped');
});

test('a snooze takes only the listed lengths', () => {
  assert.throws(() => nextState(on, 'snooze', T0, 30), /15, 60, 240, 1440/);
  assert.throws(() => nextState(on, 'snooze', T0), /minutes/);
});

test('bulk actions leave the state as it is', () => {
  const stopped = nextState(on, 'stop', T0);
  for (const action of ['enable_all', 'disable_all', 'clear_history'] as const) assert.is(nextState(stopped, action, T0 + 1), stopped);
});

test.run();
