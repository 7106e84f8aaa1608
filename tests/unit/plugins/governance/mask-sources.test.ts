import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { compileJsonPath } from '../../../../policies/compile-json-path.js';
import type { RuleConfig } from '../../../../policies/schema.js';
import { maskSources, pathCovers } from '../../../../plugins/governance/mask-sources.js';

const covers = (pattern: string, path: string[]) => pathCovers(compileJsonPath(pattern).segments, path);

test('pathCovers: keys, *, ** (zero or more levels), indexes as keys', () => {
  assert.ok(covers('$.card.number', ['card', 'number']));
  assert.not.ok(covers('$.card.number', ['card']));
  assert.ok(covers('$.**.cvc', ['cvc']));
  assert.ok(covers('$.**.cvc', ['a', 'b', '0', 'cvc']));
  assert.ok(covers('$.items.*.secret', ['items', '3', 'secret']));
  assert.not.ok(covers('$.items.secret', ['items', '0', 'secret']));
  // Many `**` stay linear in time.
  assert.not.ok(covers(`$${'.**'.repeat(25)}.x`, Array.from({ length: 2000 }, () => 'a')));
});

test('maskSources: each field to the matched rules whose redact names it; detectors only when nothing names it', () => {
  const rules = [
    { name: 'all', match: { path: '/**' }, redact: { headers: ['Authorization'] } },
    { name: 'pay', match: { path: '/pay/**' }, redact: { json_fields: ['$.card.number'], detect: ['card_number'] } },
    { name: 'other', match: { path: '/x' }, redact: { query_params: ['token'] } },
  ] as RuleConfig[];
  const answer = maskSources([
    { part: 'header', field: 'authorization' },
    { part: 'request_body', field: '$.card.number' },
    { part: 'request_body', field: '$.note', span: true },
    { part: 'query', field: 'token' },
  ], ['all', 'pay'], rules);
  assert.equal(answer.map((a) => a.rules), [
    [{ rule: 'all', by: 'headers', what: 'Authorization' }],
    [{ rule: 'pay', by: 'json_fields', what: '$.card.number' }],
    [{ rule: 'pay', by: 'detect', what: 'card_number' }],
    [{ rule: 'pay', by: 'detect', what: 'card_number' }],
  ], 'the query parameter: `other` names it but did not match this record; only a detector can have masked it');
  assert.equal(maskSources([{ part: 'query', field: 'token' }], ['all'], rules)[0].rules, [], 'no rule in force explains it');
});

test.run();
