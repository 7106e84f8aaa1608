// Field observations taken while a batch is governed: kinds, formats, presence and parents, arrays, redaction,
// the caps and their overflow, and that no observation ever holds a value.
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import type { FieldObservation } from '../../../../gateway/fields/api-fields.js';
import governBatch from '../../../../gateway/govern/govern-worker.js';
import { FieldRecorder } from '../../../../gateway/fields/field-recorder.js';
import { governForStorage } from '../../../../gateway/govern/govern.js';
import { formatOf } from '../../../../gateway/fields/value-format.js';
import { compilePolicy } from '../../../../policies/compile.js';
import { compileJsonPath } from '../../../../policies/compile-json-path.js';
import { governJsonText } from '../../../../policies/json-text.js';
import type { PolicyConfig } from '../../../../policies/schema.js';
import type { RawExchange } from '../../../../gateway/govern/types.js';

const policy: PolicyConfig = {
  rules: [
    { name: 'all', match: { path: '/**' }, redact: { headers: ['Authorization'], query_params: ['token'] } },
    { name: 'users', match: { path: '/api/users/**' }, redact: { json_fields: ['$.password', '$.card'] } },
    { name: 'notes', match: { path: '/api/notes/**' }, redact: { detect: ['email'] } },
    { name: 'sampled', match: { path: '/api/sampled/**' }, sample: 0 },
    { name: 'secret', match: { path: '/api/secret/**' }, restrict: ['request_body', 'response_body'] },
  ],
};
const compiled = compilePolicy(policy);

interface Send {
  method?: string; target: string; body?: unknown; response?: unknown; status?: number; time?: number;
  headers?: string[]; rawBody?: string;
}

function exchange(s: Send, i = 0): RawExchange {
  const method = s.method ?? 'POST';
  const path = s.target.split('?')[0];
  const decision = compiled.decide(method, path);
  const json = ['Content-Type', 'application/json'];
  return {
    id: `e${i}`, time: s.time ?? 1000 + i, method, target: s.target, path, ruleIndexes: [...decision.ruleIndexes], labels: {},
    requestHeaders: [...json, ...(s.headers ?? [])], responseHeaders: json, status: s.status ?? 200, durationMs: 1,
    requestBody: s.rawBody !== undefined ? Buffer.from(s.rawBody) : s.body === undefined ? null : Buffer.from(JSON.stringify(s.body)),
    requestTruncated: false,
    responseBody: s.response === undefined ? null : Buffer.from(JSON.stringify(s.response)), responseTruncated: false,
  };
}

async function observe(sends: Send[]): Promise<{ fields: FieldObservation[]; overflow: { route: number; total: number } }> {
  const result = await governBatch({ policy, exchanges: sends.map(exchange), recordFields: true });
  return { fields: result.fields!, overflow: result.fieldOverflow! };
}

const find = (fields: FieldObservation[], route: string, location: string, name: string, status = 0) =>
  fields.find((f) => f.route === route && f.location === location && f.name === name && f.status === status);

test('formats: email, uuid, date-time, date, uri, ipv4, card-like (Luhn), and plain strings', () => {
  const names = (v: string) => ['email', 'uuid', 'date-time', 'date', 'uri', 'ipv4', 'card-like', 'integer'][formatOf(v)] ?? null;
  assert.is(names('ann@example.com'), 'email');
  assert.is(names('123e4567-e89b-12d3-a456-426614174000'), 'uuid');
  assert.is(names('2026-11-26T02:47:21Z'), 'date-time');
  assert.is(names('2026-11-26T02:47:21.123+01:00'), 'date-time');
  assert.is(names('2026-11-26'), 'date');
  assert.is(names('https://example.com/a?b=c'), 'uri');
  assert.is(names('10.0.0.255'), 'ipv4');
  assert.is(names('4111 1111 1111 1111'), 'card-like');
  assert.is(names('4111-1111-1111-1111'), 'card-like');
  assert.is(names('4111111111111111'), 'card-like');
  assert.is(names('4111111111111112'), null, 'Luhn invalid');
  assert.is(names('hello world'), null);
  assert.is(names('2026-13-01'), null);
  assert.is(names('999.1.1.1'), null);
  assert.is(names('ann@'), null);
});

test('kinds, presence and parents of request and response JSON paths, arrays as [*]', async () => {
  const { fields } = await observe([
    { target: '/api/orders/17', body: { id: 1, name: 'a', tags: ['x', 'y', 'z'], items: [{ sku: 'q', n: 1.5 }, { sku: 'r' }], opt: null }, response: { ok: true } },
    { target: '/api/orders/18', body: { id: 2, tags: [], items: [{ sku: 's' }] }, response: { ok: false, at: '2026-01-02' }, status: 201 },
    { target: '/api/orders/19', body: { id: 'three', items: 'none' }, response: { ok: true } },
  ]);
  const route = 'POST /api/orders/{id}';
  assert.equal(find(fields, route, 'exchange', '', 200)!.count, 2);
  assert.equal(find(fields, route, 'exchange', '', 201)!.count, 1);
  const root = find(fields, route, 'request_body', '$')!;
  assert.equal([root.count, root.parents, root.kinds], [3, 3, { object: 3 }]);
  const id = find(fields, route, 'request_body', '$.id')!;
  assert.equal([id.count, id.parents, id.kinds], [3, 3, { integer: 2, string: 1 }]);
  const name = find(fields, route, 'request_body', '$.name')!;
  assert.equal([name.count, name.parents], [1, 3]);
  const tags = find(fields, route, 'request_body', '$.tags[*]')!;
  assert.equal([tags.count, tags.parents, tags.kinds], [3, 3, { string: 3 }]);
  const items = find(fields, route, 'request_body', '$.items')!;
  assert.equal(items.kinds, { array: 2, string: 1 });
  const item = find(fields, route, 'request_body', '$.items[*]')!;
  assert.equal([item.count, item.parents], [3, 3]);
  const sku = find(fields, route, 'request_body', '$.items[*].sku')!;
  assert.equal([sku.count, sku.parents], [3, 3]);
  const n = find(fields, route, 'request_body', '$.items[*].n')!;
  assert.equal([n.count, n.parents, n.kinds], [1, 3, { number: 1 }]);
  assert.equal(find(fields, route, 'request_body', '$.opt')!.kinds, { null: 1 });
  // The response side is per status: its parents are that status's exchanges.
  const ok200 = find(fields, route, 'response_body', '$.ok', 200)!;
  assert.equal([ok200.count, ok200.parents, ok200.kinds], [2, 2, { boolean: 2 }]);
  const at = find(fields, route, 'response_body', '$.at', 201)!;
  assert.equal([at.count, at.parents, at.formats], [1, 1, { date: 1 }]);
  const param = find(fields, route, 'path', 'id')!;
  assert.equal([param.count, param.kinds, param.formats], [3, { integer: 3 }, { integer: 3 }]);
  assert.equal([id.firstSeen, id.lastSeen], [1000, 1002]);
});

test('query parameters and headers: names only, kinds and formats, redacted by rule; restricted bodies not observed', async () => {
  const { fields } = await observe([
    { method: 'GET', target: '/api/search?q=shoes&page=2&price=9.5&token=abc&email=ann%40example.com', headers: ['Authorization', 'Bearer zzz', 'X-Request-Id', '123e4567-e89b-12d3-a456-426614174000'] },
    { method: 'POST', target: '/api/secret/1', body: { hidden: 1 }, response: { hidden: 2 } },
  ]);
  const route = 'GET /api/search';
  assert.equal(find(fields, route, 'query', 'q')!.kinds, { string: 1 });
  assert.equal(find(fields, route, 'query', 'page')!.kinds, { integer: 1 });
  assert.equal(find(fields, route, 'query', 'price')!.kinds, { number: 1 });
  assert.equal(find(fields, route, 'query', 'email')!.formats, { email: 1 });
  assert.is(find(fields, route, 'query', 'token')!.redacted, 1);
  assert.is(find(fields, route, 'query', 'q')!.redacted, 0);
  const auth = find(fields, route, 'request_header', 'authorization')!;
  assert.equal([auth.count, auth.redacted], [1, 1]);
  assert.equal(find(fields, route, 'request_header', 'x-request-id')!.formats, { uuid: 1 });
  assert.ok(find(fields, route, 'response_header', 'content-type', 200));
  assert.not.ok(fields.some((f) => f.route === 'POST /api/secret/{id}' && f.location.endsWith('_body')));
  assert.ok(find(fields, 'POST /api/secret/{id}', 'exchange', '', 200));
});

test('redacted fields count by name and type; detectors count as redaction; unsampled bodies are observed', async () => {
  const { fields } = await observe([
    { target: '/api/users/5', body: { password: 'hunter2', card: { number: '4111111111111111' }, name: 'ann' } },
    { target: '/api/notes/5', body: { text: 'mail ann@example.com', title: 'hi' } },
    { target: '/api/sampled/5', body: { kept: false } },
  ]);
  const pw = find(fields, 'POST /api/users/{id}', 'request_body', '$.password')!;
  assert.equal([pw.count, pw.redacted, pw.kinds], [1, 1, { string: 1 }]);
  const card = find(fields, 'POST /api/users/{id}', 'request_body', '$.card')!;
  assert.equal([card.redacted, card.kinds], [1, { object: 1 }]);
  // Nothing below a redacted value is walked: its keys may be values.
  assert.not.ok(find(fields, 'POST /api/users/{id}', 'request_body', '$.card.number'));
  assert.is(find(fields, 'POST /api/users/{id}', 'request_body', '$.name')!.redacted, 0);
  assert.is(find(fields, 'POST /api/notes/{id}', 'request_body', '$.text')!.redacted, 1);
  assert.is(find(fields, 'POST /api/notes/{id}', 'request_body', '$.title')!.redacted, 0);
  assert.equal(find(fields, 'POST /api/sampled/{id}', 'request_body', '$.kept')!.kinds, { boolean: 1 });
});

test('no observation holds a value: a body, query and headers full of secrets', async () => {
  const secrets = ['hunter2-pass', 'sk_live_4eC39HqLyjWDarjtT1zdp7dc', '4111111111111111', 'ann.secret@example.com',
    'AKIAIOSFODNN7EXAMPLE', 'Bearer-tok-98765', 'q-secret-value', 'nested-secret-xyz', '123e4567-e89b-12d3-a456-426614174000'];
  const { fields } = await observe([{
    target: `/api/users/7?token=${secrets[6]}&plain=${secrets[6]}&${encodeURIComponent(secrets[3])}=1`,
    headers: ['Authorization', secrets[5], 'X-Key', secrets[1]],
    body: { password: secrets[0], key: secrets[1], card: secrets[2], email: secrets[3], aws: secrets[4], deep: { deeper: [secrets[7]] },
      map: { [secrets[3]]: 1, [secrets[8]]: 2, [secrets[2]]: 3 } },
    response: { echo: secrets },
  }]);
  const text = JSON.stringify(fields);
  for (const s of secrets) assert.not.ok(text.includes(s), `observations hold ${s}`);
  // Value-like keys (an email, a uuid, a card number) are one field, `*`.
  assert.equal(find(fields, 'POST /api/users/{id}', 'request_body', '$.map.*')!.count, 3);
  assert.ok(find(fields, 'POST /api/users/{id}', 'query', '*'));
});

test('caps: fields per route, routes, depth; what they leave out is counted', async () => {
  const recorder = new FieldRecorder({ fieldsPerRoute: 8, routes: 2, depth: 3 });
  const decide = (s: Send, i: number) => {
    const e = exchange(s, i);
    governForStorage(e, compiled.decisionFor(e.ruleIndexes), { random: () => 0, fields: recorder });
  };
  decide({ target: '/a', body: { x: { y: { z: { w: 1 } } } } }, 0);
  decide({ target: '/b', body: { a: 1, b: 2, c: 3, d: 4, e: 5, f: 6 } }, 1);
  decide({ target: '/c', body: { a: 1 } }, 2);
  const { fields, fieldOverflow } = recorder.take();
  const a = fields.filter((f) => f.route === 'POST /a').map((f) => f.name);
  assert.ok(a.includes('$.x.y.z'));
  assert.not.ok(a.includes('$.x.y.z.w'), 'deeper than 3 levels is not observed');
  assert.equal(find(fields, 'POST /a', 'request_body', '$.x.y.z')!.kinds, { object: 1 });
  // exchange, two content-type headers, `$` and four of the six keys.
  assert.is(fields.filter((f) => f.route === 'POST /b').length, 8);
  assert.not.ok(fields.some((f) => f.route === 'POST /c'));
  assert.is(fieldOverflow.total, 1);
  assert.is(fieldOverflow.route, 2);
  // The depth limit holds whatever the cap: a 300-level document still yields rows 12 levels deep at most.
  const deep = new FieldRecorder();
  let body = '1';
  for (let i = 0; i < 200; i++) body = `{"k":${body}}`;
  const e = exchange({ target: '/deep', rawBody: body }, 9);
  governForStorage(e, compiled.decisionFor(e.ruleIndexes), { random: () => 0, fields: deep });
  const names = deep.take().fields.filter((f) => f.location === 'request_body').map((f) => f.name);
  assert.is(names.length, 13);
});

test('observing changes nothing in the governed text: the same redactions, the same number read', () => {
  const docs = [
    '{"card":{"number":"4111111111111111","cvc":"1"},"items":[{"cvc":2},{"x":[1,2,{"cvc":"3"}]}],"usage":{"total_tokens":42}}',
    '[{"a\\u0040b":"c"},{"card":null},"str",12.5e3,true]',
    '{"nested":{"deep":{"iban":"DE89370400440532013000"}},"iban":"x","e":"\\"q\\""}',
  ];
  const plan = {
    redact: ['$.card.number', '$.*.cvc', '$.**.iban', '$.items.*.cvc'].map((p) => compileJsonPath(p)),
    read: compileJsonPath('$.usage.total_tokens'),
  };
  const recorder = new FieldRecorder();
  const e = exchange({ target: '/doc', body: {} });
  recorder.begin(e, compiled.decisionFor(e.ruleIndexes));
  for (const doc of docs) {
    const plain = governJsonText(doc, plan);
    const observed = governJsonText(doc, { ...plan, observe: { observer: recorder, root: recorder.bodyRoot('request_body', 0)! } });
    assert.equal(observed, plain, doc);
  }
  assert.ok(recorder.take().fields.some((f) => f.name === '$.card.number' && f.redacted === 1));
});

test('without recordFields the worker returns no fields', async () => {
  const result = await governBatch({ policy, exchanges: [exchange({ target: '/x', body: { a: 1 } })] });
  assert.is(result.fields, undefined);
});

test.run();
