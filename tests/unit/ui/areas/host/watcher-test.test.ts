import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { checkPattern, watcherInput } from '../../../../../ui/src/areas/host/watcher-test.js';

test('a pattern compiles or says why not', () => {
  assert.ok(checkPattern('Out of memory: Killed process \\d+').ok);
  const bad = checkPattern('(unclosed');
  assert.not.ok(bad.ok);
  if (!bad.ok) assert.match(bad.message, /does not compile/);
  assert.not.ok(checkPattern('').ok);
  assert.not.ok(checkPattern('x'.repeat(501)).ok);
});

test('a listed watcher goes back without its state, with a path only for a file', () => {
  const base = { name: ' oom ', pattern: 'Out of memory', ignore_case: false, enabled: true };
  assert.equal(watcherInput({ ...base, source: 'kernel', path: null }), { name: 'oom', pattern: 'Out of memory', ignore_case: false, source: 'kernel', enabled: true });
  assert.equal(watcherInput({ ...base, source: 'file', path: '/var/log/x.log' }).path, '/var/log/x.log');
});

test.run();
