// A middleware's records keep their bodies' own text through the agent's ingest, as the gateway's records do: the
// text of each body is cut out of the batch exactly, whatever its spelling, nesting or repeated keys.
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { sentBodyTexts } from '../../../../gateway/records/ingest-body-texts.js';
import { readIngestBody } from '../../../../gateway/records/ingest-body.js';
import { regovernRecords } from '../../../../gateway/govern/govern-worker.js';
import { recordJson } from '../../../../gateway/records/governed-record.js';

const RECORD = (requestBody: string, responseBody: string) => `{"id":"0190b6a0-0000-7000-8000-000000000001","time":1700000000000,`
  + `"method":"POST","path":"/api/users/1","route":["/**"],"query":{},"status":200,"duration_ms":2,"headers":null,`
  + `"response_headers":null,"request_body":${requestBody},"response_body":${responseBody},"labels":{},"matched_rules":["all"],`
  + `"tokens":null,"sampled":true,"truncated":false,"partial":false,"dropped_reason":null,"error":null}`;

const SPELLINGS = [
  '{ "keep" : "caf\\u00e9",\n  "n": 1.50e+2 ,"password" : "x" }',
  '{"big":12345678901234567890,"exp":1E400,"neg":-0,"frac":0.10}',
  '{"2":"b","1":"a"}',
  '{"password":"one","password":"two"}',
  '"a string with \\"quotes\\", ] and } inside"',
  '[[[{"a":[1,{"b":"]"}]}]]]',
  'true', '-1.5e-7', '{}', '[]', '   {"password":"x"}   ',
];

test('each body is cut out exactly as it stands in the batch, whatever its spelling', () => {
  const batch = `{ "records" : [ ${SPELLINGS.map((s, i) => RECORD(s, SPELLINGS[SPELLINGS.length - 1 - i])).join(' ,\n ')} ] }`;
  const texts = sentBodyTexts(batch)!;
  assert.is(texts.length, SPELLINGS.length);
  texts.forEach((t, i) => {
    assert.is(t.request_body, SPELLINGS[i]);
    assert.is(t.response_body, SPELLINGS[SPELLINGS.length - 1 - i]);
  });
});

test('a null body is null, blanks around it or not', () => {
  assert.equal(sentBodyTexts(`{"records":[${RECORD(' null ', 'null')}]}`), [{ request_body: 'null', response_body: 'null' }]);
});

test('a repeated key counts at its last occurrence, as in JSON.parse; other shapes give null', () => {
  const twice = `{"records":[${RECORD('1', '2').replace('"request_body":1', '"request_body":1,"request_body":{"x" : 3}')}],"records":[${RECORD('"last"', '4')}]}`;
  assert.equal(sentBodyTexts(twice), [{ request_body: '"last"', response_body: '4' }]);
  assert.equal(sentBodyTexts('{"records":[]}'), []);
  assert.is(sentBodyTexts('[1,2]'), null);
  assert.is(sentBodyTexts('{"records":[{"request_body":"unterminated'), null);
});

test('deep nesting is walked without recursion', () => {
  const deep = `${'['.repeat(200_000)}${']'.repeat(200_000)}`;
  assert.is(sentBodyTexts(`{"records":[${RECORD(deep, 'null')}]}`)![0].request_body, deep);
});

test('the agent stores a middleware record with its bodies\' own text, redacting by path within it', () => {
  const batch = `{"records":[${RECORD('{ "password" : "p", "n" : 1.50e+2, "esc":"a\\/b" }', '{"2":"b","1":"a"}')}]}`;
  const body = readIngestBody(Buffer.from(batch), 1_800_000_000_000);
  assert.ok('records' in body);
  const rules = [{ name: 'all', match: { path: '/**' } }, { name: 'users', match: { path: '/api/users/**' }, redact: { json_fields: ['$.password'] } }];
  const [out] = regovernRecords({ policy: { rules }, records: body.records, bodyTexts: body.bodyTexts }).records;
  assert.is(out.restricted, false);
  const json = recordJson((out as { record: Parameters<typeof recordJson>[0] }).record);
  assert.ok(json.includes('"request_body":{ "password" : "[REDACTED]", "n" : 1.50e+2, "esc":"a\\/b" },'), json);
  assert.ok(json.includes('"response_body":{"2":"b","1":"a"},'), json);
  assert.match(json, /"agent_masked":\["request_body\.\$\.password"\]/);
});

test.run();
