import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { parse } from 'yaml';
import type { PolicyRule, TryResult } from '../../../../../ui/src/areas/gateway/policy-api.js';
import {
  explainTry, listText, matchText, parseHeaderLines, ruleBadges, ruleSentences, ruleYaml, shareText, yamlScalar,
} from '../../../../../ui/src/areas/gateway/rule-text.js';
import { examplePath } from '../../../../../ui/src/areas/gateway/try-panel.js';

const rule = (over: Partial<PolicyRule>): PolicyRule => ({ index: 0, name: 'r', match: { path: '/**' }, ...over });

const payments = rule({
  index: 1, name: 'payments', match: { path: '/api/payments/**', methods: ['post', 'PUT'] },
  redact: { headers: ['Authorization'], json_fields: ['$.card.number', '$.**.cvc'], detect: ['card_number', 'email'] },
  labels: { tenant: 'header:X-Tenant-Id' }, sample: 0.1, keep_errors: true, meter: { tokens: '$.usage.total_tokens' },
  wasm: './card numbers.wasm', wasm_sha256: 'ab'.repeat(32),
});

test('listText and shareText read as people write them', () => {
  assert.is(listText([]), '');
  assert.is(listText(['a']), 'a');
  assert.is(listText(['a', 'b']), 'a and b');
  assert.is(listText(['a', 'b', 'c']), 'a, b and c');
  assert.is(shareText(0.1), '10 %');
  assert.is(shareText(1 / 3), '33.3 %');
  assert.is(shareText(0.005), '0.5 %');
  assert.is(shareText(0), '0 %');
});

test('badges: one per kind of action, in a fixed order, with what each means', () => {
  assert.equal(ruleBadges(payments).map((b) => [b.kind, b.text, b.tone]), [
    ['redact', 'redact', 'warning'], ['label', 'label', 'accent'], ['sample', 'sample 10 %', 'neutral'],
    ['meter', 'meter', 'neutral'], ['wasm', 'wasm', 'accent'],
  ]);
  assert.is(ruleBadges(payments)[0].title, 'Masks 5 kinds of value');
  assert.equal(ruleBadges(rule({ restrict: ['headers'] })).map((b) => [b.text, b.title]), [['restrict', 'Never captures headers']]);
  assert.equal(ruleBadges(rule({ keep_errors: true })).map((b) => b.text), ['keep errors']);
  assert.equal(ruleBadges(rule({})), []);
});

test('sentences: what the rule does, in words; code in backticks', () => {
  assert.is(matchText(payments), 'POST and PUT on `/api/payments/**`');
  assert.is(matchText(rule({})), 'any method on `/**`');
  assert.equal(ruleSentences(payments), [
    'Masks the header `Authorization`, in requests and responses.',
    'Masks the JSON fields `$.card.number` and `$.**.cvc` in both bodies.',
    'Masks card numbers and email addresses wherever they appear: path, query, headers, labels and bodies.',
    'Labels each request `tenant` with the value of the header `X-Tenant-Id`.',
    'Keeps the bodies of 10 % of requests and of every failed one (5xx or no answer).',
    'Meters tokens from `$.usage.total_tokens` (the response body, else the request body).',
    'Runs the WASM policy `./card numbers.wasm` on the telemetry lane: it can only narrow capture, mask and label more.',
  ]);
  assert.equal(ruleSentences(rule({ restrict: ['request_body', 'response_body'] })), ['Never captures request bodies and response bodies: they are not even copied.']);
  assert.equal(ruleSentences(rule({ sample: 0 })), ['Keeps no bodies: headers, query and metadata only.']);
  assert.match(ruleSentences(rule({}))[0], /^Takes nothing away/);
});

test('ruleYaml: the rule as YAML that reads back as the same rule', () => {
  const text = ruleYaml(payments);
  assert.is(text.split('\n')[0], '- name: payments');
  assert.match(text, /\n {2}wasm: "\.\/card numbers\.wasm" {3}# sha256 abababababab…$/);
  const [back] = parse(text) as PolicyRule[];
  const { index: _i, wasm_sha256: _s, ...written } = payments;
  assert.equal(back, written);
  // Scalars YAML would read as something else are quoted.
  for (const odd of ['true', 'null', '12', '1e3', '*', '*.json', '#x', 'a: b', 'x #y', '[a]', '{a}', '', ' lead', 'trail:', "it's"]) {
    assert.is(parse(`v: ${yamlScalar(odd)}`).v, odd, odd);
  }
  assert.is(yamlScalar('/api/**'), '/api/**');
  assert.is(yamlScalar('$.card.number'), '$.card.number');
  assert.is(yamlScalar('header:X-Tenant-Id'), 'header:X-Tenant-Id');
});

test('parseHeaderLines: Name: value per line; repeats become lists under the first spelling; a bad line is named', () => {
  assert.equal(parseHeaderLines('Authorization: Bearer a:b\n\n x-tenant-id :  acme \nX-Tenant-Id: beta\r\nEmpty:'), {
    headers: { Authorization: 'Bearer a:b', 'x-tenant-id': ['acme', 'beta'], Empty: '' },
  });
  assert.equal(parseHeaderLines(''), { headers: {} });
  assert.equal(parseHeaderLines('Accept: */*\nnot a header'), { error: 'Line 2: write one header per line, as Name: value (the name without spaces).' });
  assert.ok('error' in parseHeaderLines('Bad Name: x'));
  assert.ok('error' in parseHeaderLines(': x'));
});

const result = (over: Partial<TryResult>): TryResult => ({
  stored: false,
  record: {
    id: 'try', time: 0, method: 'POST', path: '/admin/users', route: [], query: {}, status: 200, duration_ms: 0, headers: {}, response_headers: {},
    request_body: null, response_body: null, labels: {}, matched_rules: [], tokens: null, sampled: true, truncated: false, partial: false, dropped_reason: null, error: null,
  },
  matched_rules: [], route: [], restricted: { request_body: [], response_body: [], headers: [] }, redacted: 0,
  sampling: { rate: 1, rule: null, keep_errors: false, kept: true }, wasm_not_applied: [], unmasked: [],
  ...over,
});

test('explainTry: restricted parts name the rule and its glob', () => {
  const admin = rule({ name: 'admin', match: { path: '/admin/**' }, restrict: ['request_body', 'response_body'] });
  const texts = explainTry(result({
    matched_rules: ['all', 'admin'], route: ['/**', '/admin/**'],
    restricted: { request_body: ['admin'], response_body: ['admin'], headers: [] },
  }), [rule({ name: 'all' }), admin]).map((e) => [e.tone, e.text]);
  assert.equal(texts, [
    ['accent', 'Matched rules `all` and `admin` (every matching rule applies, top to bottom); filed under the route `/admin/**`.'],
    ['danger', 'Restricted: the request and response bodies are not stored because rule `admin` restricts `/admin/**`.'],
  ]);
  const headersOnly = explainTry(result({ matched_rules: ['h'], route: ['/h'], restricted: { request_body: [], response_body: ['h'], headers: ['h'] } }),
    [rule({ name: 'h', match: { path: '/h' } })]);
  assert.is(headersOnly[1].text, 'Restricted: the response body and the headers are not stored because rule `h` restricts `/h`.');
});

test('explainTry: masked, labelled, sampled, dropped, metered, and the WASM modules a try does not run', () => {
  const r = result({
    matched_rules: ['payments'], route: ['/api/payments/**'], redacted: 3,
    sampling: { rate: 0.1, rule: 'payments', keep_errors: true, kept: true },
    wasm_not_applied: [{ rule: 'payments', module: './card.wasm' }],
  });
  r.record = { ...r.record, labels: { tenant: 'acme' }, tokens: 42, dropped_reason: 'response_body: not JSON' };
  assert.equal(explainTry(r, [payments]).map((e) => e.text).slice(1), [
    'Masked: 3 values are stored as [REDACTED], by the redactions of `payments`.',
    'Labelled: `tenant` = `acme`.',
    'Sampled: rule `payments` keeps the bodies of 10 % of requests. A try shows a request whose bodies are kept.',
    'Dropped: response_body: not JSON.',
    'Metered: 42 tokens.',
    'Not run here: rule `payments`\'s WASM policy `./card.wasm`. The gateway applies it on top of this record (it can only narrow capture, mask and label more); `vigil policy test` runs it offline.',
  ]);
  const none = explainTry(result({ matched_rules: ['payments'], route: ['/p'] }), [payments]);
  assert.is(none[1].text, 'Nothing masked: the redactions of `payments` found no value in this request.');
  const out = explainTry(result({ sampling: { rate: 0, rule: 's', keep_errors: false, kept: false } }), []);
  assert.equal(out.map((e) => e.text), [
    'No rule matched: the request would be captured in full, with nothing masked.',
    'Bodies not kept: rule `s` keeps the bodies of 0 % of requests. Headers, query and metadata are stored.',
  ]);
});

test('examplePath: a path the glob matches', () => {
  assert.is(examplePath('/api/payments/**'), '/api/payments/example');
  assert.is(examplePath('/**'), '/example');
  assert.is(examplePath('/v*/users/*/profile'), '/vx/users/x/profile');
  assert.is(examplePath('/api/**/charge'), '/api/example/charge');
});

test.run();
