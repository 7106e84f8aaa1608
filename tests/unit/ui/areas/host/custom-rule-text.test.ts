import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { describeRule, draftProblem, toInput } from '../../../../../ui/src/areas/host/custom-rule-text.js';

test('each kind reads as one sentence', () => {
  assert.is(describeRule({ kind: 'unit', target: 'nginx.service', user: true }), 'Fires when nginx.service (a user unit) stops running.');
  assert.is(describeRule({ kind: 'port', target: '5432' }), 'Fires when nothing listens on port 5432.');
  assert.is(describeRule({ kind: 'folder', target: '/var/log', value: 5 }), 'Fires when /var/log grows past 5 GB.');
  assert.is(describeRule({ kind: 'backup', target: '/mnt/b', value: null }), 'Fires when the newest file in /mnt/b is older than 7 days.');
});

test('a draft says what is missing before it is tested', () => {
  assert.is(draftProblem({ name: '', kind: 'port', target: '80' }), 'Give the rule a name.');
  assert.is(draftProblem({ name: 'web', kind: 'port', target: '80000' }), 'A port is a number from 1 to 65535.');
  assert.is(draftProblem({ name: 'web', kind: 'port', target: '80' }), null);
  assert.is(draftProblem({ name: 'logs', kind: 'folder', target: 'var/log', value: 1 }), 'Give an absolute path, starting with /.');
  assert.is(draftProblem({ name: 'logs', kind: 'folder', target: '/var/log' }), 'Give the size in GB past which it fires.');
  assert.is(draftProblem({ name: 'bk', kind: 'backup', target: '/mnt/b', value: null }), null);
  assert.is(draftProblem({ name: 'x', kind: 'process', target: '  ' }), 'Give the process name.');
});

test('the input carries a value only for the kinds that take one', () => {
  assert.equal(toInput({ name: ' web ', kind: 'port', target: ' 80 ', value: 3 }), { name: 'web', kind: 'port', target: '80', enabled: true });
  assert.equal(toInput({ name: 'n', kind: 'unit', target: 'a.service' }), { name: 'n', kind: 'unit', target: 'a.service', enabled: true, user: false });
  assert.equal(toInput({ name: 'f', kind: 'folder', target: '/x', value: 2, enabled: false }), { name: 'f', kind: 'folder', target: '/x', enabled: false, value: 2 });
});

test.run();
