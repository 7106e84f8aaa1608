import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { editDistance, suggestKey } from '../../../../runtime/config/suggest-key.js';

test('an adjacent swap costs one edit', () => {
  assert.is(editDistance('json_feilds', 'json_fields'), 1);
  assert.is(editDistance('ab', 'ba'), 1);
});

test('insertions, deletions and substitutions', () => {
  assert.is(editDistance('lvel', 'level'), 1);
  assert.is(editDistance('listen', 'lsten'), 1);
  assert.is(editDistance('kitten', 'sitting'), 3);
  assert.is(editDistance('', 'abc'), 3);
  assert.is(editDistance('same', 'same'), 0);
});

test('the closest candidate within two edits wins', () => {
  assert.is(suggestKey('json_feilds', ['headers', 'json_fields', 'query']), 'json_fields');
  assert.is(suggestKey('listn', ['listen', 'lockout']), 'listen');
  assert.is(suggestKey('tokn', ['token', 'tls']), 'token');
});

test('nothing is suggested when no candidate is close', () => {
  assert.is(suggestKey('colour', ['level', 'format']), undefined);
  assert.is(suggestKey('abcdef', ['uvwxyz']), undefined);
  assert.is(suggestKey('anything', []), undefined);
});

test('a one-letter key does not "suggest" an unrelated short one', () => {
  assert.is(suggestKey('x', ['id', 'on']), undefined);
});

test('case and - / _ differences match whatever the distance', () => {
  assert.is(suggestKey('bodyLimit', ['body_limit', 'listen']), 'body_limit');
  assert.is(suggestKey('METRICS-AUTH', ['metrics_auth']), 'metrics_auth');
});

test('ties go to the candidate listed first', () => {
  assert.is(suggestKey('lisen', ['listen', 'lister']), 'listen');
});

test.run();
