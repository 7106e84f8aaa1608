import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { isPriority, priorityName, priorityTone } from '../../../../../ui/src/areas/host/log-priority.js';

test('priority numbers map to journalctl names, out of range to info', () => {
  assert.is(priorityName(0), 'emerg');
  assert.is(priorityName(3), 'err');
  assert.is(priorityName(7), 'debug');
  assert.is(priorityName(9), 'info');
  assert.is(priorityName(-1), 'info');
});

test('errors and worse are danger, warnings warn, the rest is quiet', () => {
  assert.is(priorityTone(2), 'danger');
  assert.is(priorityTone(3), 'danger');
  assert.is(priorityTone(4), 'warning');
  assert.is(priorityTone(6), 'neutral');
});

test('only the eight names are priorities', () => {
  assert.ok(isPriority('warning'));
  assert.not.ok(isPriority('warn'));
  assert.not.ok(isPriority(''));
});

test.run();
