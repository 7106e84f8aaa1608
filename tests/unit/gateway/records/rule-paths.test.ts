import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { foldRulePaths, HOUR, MAX_SHAPE_LENGTH, pathShape } from '../../../../gateway/records/rule-paths.js';

test('pathShape: id-like segments become parameters, as vigil spec templates paths; everything else stays as received', () => {
  assert.is(pathShape('/users/17/orders'), '/users/{id}/orders');
  assert.is(pathShape('/api/users/usr_v0'), '/api/users/{id}', 'a prefixed id');
  assert.is(pathShape('/api/users/ada%40example.com'), '/api/users/{email}');
  assert.is(pathShape('/users/17/orders/ord_8f3k2j9d'), '/users/{user_id}/orders/{order_id}', 'several, named after their resource');
  assert.is(pathShape('/users/550e8400-E29B-41d4-a716-446655440000'), '/users/{id}');
  assert.is(pathShape('/blobs/0123456789abcdef0123'), '/blobs/{id}');
  assert.is(pathShape('/tokens/01HZX3K4M5N6P7Q8R9S0T1V2W3'), '/tokens/{id}', 'a ULID');
  // Words stay, however long; short hex and mixed names stay too.
  assert.is(pathShape('/api/v1/internationalization-settings'), '/api/v1/internationalization-settings');
  assert.is(pathShape('/files/cafe/abc123'), '/files/cafe/abc123');
  // Case, escapes, matrix parameters and empty segments are the spelling the rules folded: kept.
  assert.is(pathShape('/ADMIN//users;x/%2e%2e/42'), '/ADMIN//users;x/%2e%2e/{id}');
  assert.is(pathShape('/'), '/');
  assert.is(pathShape('/a/'), '/a/');
  assert.is(pathShape('/payments/[REDACTED]'), '/payments/[REDACTED]');
});

test('pathShape: a long path is cut with an ellipsis, never beyond the bound', () => {
  const shape = pathShape(`/${'a-long-segment-name/'.repeat(200)}end`);
  assert.is(shape.length, MAX_SHAPE_LENGTH);
  assert.ok(shape.endsWith('…'));
  assert.is(pathShape(`/${'x'.repeat(5000)}`), '/{id}', 'a segment too long for a word is a value');
});

test('foldRulePaths: one row per hour, rule, method and shape, sorted by key; no rule counts under ""', () => {
  const t = Date.UTC(2024, 4, 1, 12, 30);
  const rows = foldRulePaths([
    { time: t, method: 'GET', path: '/users/1', matched_rules: ['all', 'users'] },
    { time: t + 60_000, method: 'GET', path: '/users/2', matched_rules: ['all', 'users'] },
    { time: t + HOUR, method: 'GET', path: '/users/3', matched_rules: ['all', 'users'] },
    { time: t, method: 'POST', path: '/users', matched_rules: ['all'] },
    { time: t, method: 'GET', path: '/health', matched_rules: [] },
  ]);
  const hour = Date.UTC(2024, 4, 1, 12);
  assert.equal(rows, [
    [hour, '', 'GET', '/health', 1],
    [hour, 'all', 'GET', '/users/{id}', 2],
    [hour, 'all', 'POST', '/users', 1],
    [hour, 'users', 'GET', '/users/{id}', 2],
    [hour + HOUR, 'all', 'GET', '/users/{id}', 1],
    [hour + HOUR, 'users', 'GET', '/users/{id}', 1],
  ]);
});

test.run();
