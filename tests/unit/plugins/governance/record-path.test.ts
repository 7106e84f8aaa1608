import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { lookupRecordPath, parseRecordPath } from '../../../../plugins/governance/record-path.js';

test('parses dotted paths, indexes in brackets or as segments, and quoted keys', () => {
  assert.equal(parseRecordPath('request_body.card.number'), ['request_body', 'card', 'number']);
  assert.equal(parseRecordPath('request_body.items[0].card'), ['request_body', 'items', 0, 'card']);
  assert.equal(parseRecordPath('request_body.items.0.card'), ['request_body', 'items', '0', 'card']);
  assert.equal(parseRecordPath('headers["X-Odd.Name"]'), ['headers', 'X-Odd.Name']);
  assert.equal(parseRecordPath("rules[1].match.path"), ['rules', 1, 'match', 'path']);
});

test('rejects unreadable paths', () => {
  for (const bad of ['', 'a..b', 'a.', 'a[', 'a[x]', '.a']) assert.is(parseRecordPath(bad), null, bad);
});

test('looks values up, header names case-insensitively, and reports where a path stops', () => {
  const record = { headers: { Authorization: 'x' }, request_body: { items: [{ card: 1 }] }, query: { Token: 'q' } };
  assert.equal(lookupRecordPath(record, ['headers', 'authorization']), { found: true, value: 'x' });
  assert.equal(lookupRecordPath(record, ['request_body', 'items', 0, 'card']), { found: true, value: 1 });
  assert.equal(lookupRecordPath(record, ['request_body', 'items', '0', 'card']), { found: true, value: 1 });
  assert.equal(lookupRecordPath(record, ['query', 'token']), { found: false, missingAt: 1 }, 'query names are exact');
  assert.equal(lookupRecordPath(record, ['request_body', 'items', 3]), { found: false, missingAt: 2 });
  assert.equal(lookupRecordPath({ request_body: null }, ['request_body', 'a']), { found: false, missingAt: 1 });
});

test.run();
