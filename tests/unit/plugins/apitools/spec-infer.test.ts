// `inferSpec` from field observations: paths (templated, sibling literals merged, fixed words kept), operations,
// parameters, bodies, statuses, schemas (types, nullable, formats, required by presence, redacted). Every document
// goes through a real OpenAPI 3.1 validator.
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { inferSpec } from '../../../../plugins/apitools/openapi/infer-spec.js';
import { operationIdFor } from '../../../../plugins/apitools/openapi/operation-id.js';
import { parseJsonPath } from '../../../../plugins/apitools/openapi/body-schema.js';
import type { JsonSchemaObject, OpenApiDocument, OperationObject } from '../../../../plugins/apitools/openapi/document.js';
import { observe, type Exchange } from '../../../support/field-observations.js';
import { assertValidOpenApi } from '../../../support/openapi-validator.js';

const infer = suite('apitools: spec inference');

const NAMES = ['alice', 'bob', 'carol', 'dave', 'erin', 'frank', 'grace', 'heidi', 'ivan', 'judy', 'mallory', 'oscar'];
const UUIDS = Array.from({ length: 20 }, (_, i) => `5f3a9c2e-1b2d-4c3e-9f00-${String(i).padStart(12, '0')}`);

async function inferred(exchanges: Exchange[], options = {}): Promise<OpenApiDocument> {
  const doc = inferSpec(observe(exchanges), options);
  await assertValidOpenApi(doc);
  return doc;
}
const op = (doc: OpenApiDocument, method: string, path: string): OperationObject => {
  const found = (doc.paths[path] as Record<string, OperationObject> | undefined)?.[method];
  assert.ok(found, `no ${method} ${path} in ${Object.keys(doc.paths).join(', ')}`);
  return found;
};
const responseSchema = (o: OperationObject, status: string) => o.responses[status].content!['application/json'].schema as JsonSchemaObject;

infer('ids are templated by the recorder; more than 10 sibling literals of one shape merge; fixed words never do', async () => {
  const x: Exchange[] = [];
  for (const n of NAMES) {
    x.push({ method: 'GET', path: `/users/${n}`, status: 200, responseBody: { login: n, followers: 3 } });
    x.push({ method: 'GET', path: `/users/${n}/repos`, status: 200, responseBody: [{ name: 'r', stars: 1 }] });
  }
  x.push({ method: 'GET', path: '/users/me', status: 200, responseBody: { login: 'me', followers: 1 } });
  x.push({ method: 'GET', path: '/users/search?q=a', status: 200, responseBody: [] });
  for (let i = 0; i < 3; i++) x.push({ method: 'GET', path: `/orders/${100 + i}`, status: 200, responseBody: { id: 100 + i } });
  const doc = await inferred(x);
  assert.equal(Object.keys(doc.paths).sort(), ['/orders/{id}', '/users/me', '/users/search', '/users/{user_name}', '/users/{user_name}/repos']);
  const get = op(doc, 'get', '/users/{user_name}');
  assert.is(get.operationId, 'getUserByUserName');
  assert.equal(get.parameters![0], {
    name: 'user_name', in: 'path', required: true, schema: { type: 'string' },
    description: 'Takes the 12 distinct word-like values seen at this position (sibling literals merged).',
  });
  assert.is((get['x-vigil-observed'] as { exchanges: number }).exchanges, 12);
  // The merged routes' bodies add up: 12 exchanges, `login` in each.
  assert.equal(responseSchema(get, '200').required, ['followers', 'login']);
  assert.equal(op(doc, 'get', '/orders/{id}').parameters![0].schema, { type: 'integer' });
  assert.is(op(doc, 'get', '/orders/{id}').operationId, 'getOrderById');
});

infer('a literal beside a parameter joins it when its shape fits (an id the recorder took for a word); one unlike it stays', async () => {
  const x: Exchange[] = [];
  for (const id of ['usr_1a', 'usr_2b', 'usr_3c']) x.push({ method: 'GET', path: `/api/users/${id}`, status: 200, responseBody: { id, email: 'a@example.com', name: 'A' } });
  for (const id of ['usr_tz', 'usr_sy']) x.push({ method: 'GET', path: `/api/users/${id}`, status: 200, responseBody: { id, email: 'b@example.com', name: 'B' } });
  x.push({ method: 'GET', path: '/api/users/usr_missing', status: 404, responseBody: { error: { code: 'not_found', message: 'no such user' } } });
  const doc = await inferred(x);
  assert.equal(Object.keys(doc.paths).sort(), ['/api/users/usr_missing', '/api/users/{id}']);
  const get = op(doc, 'get', '/api/users/{id}');
  assert.is((get['x-vigil-observed'] as { exchanges: number }).exchanges, 5);
  assert.match(get.parameters![0].description ?? '', /Also took 2 word-like values/);
});

infer('siblings that differ in shape (resources, not records) stay literal, and so do 10 or fewer', async () => {
  const x: Exchange[] = [];
  const resources = ['users', 'orders', 'invoices', 'products', 'carts', 'coupons', 'refunds', 'shipments', 'reviews', 'stores', 'taxes', 'teams'];
  for (const r of resources) x.push({ method: 'GET', path: `/shop/${r}`, status: 200, responseBody: [{ [`${r}_a`]: 1, [`${r}_b`]: 'x', [`${r}_c`]: true }] });
  for (const n of NAMES.slice(0, 10)) x.push({ method: 'GET', path: `/teams/${n}`, status: 200, responseBody: { name: n } });
  const doc = await inferred(x);
  assert.is(Object.keys(doc.paths).length, 22);
  assert.ok(doc.paths['/shop/users'] && doc.paths['/teams/alice']);
  assert.is(op(doc, 'get', '/shop/users').operationId, 'listShopUsers');
});

infer('the first segment after the root or an API prefix names a resource: never merged, even when bodies look alike', async () => {
  const x: Exchange[] = [];
  for (const r of NAMES) {
    x.push({ method: 'GET', path: `/api/v1/${r}`, status: 200, responseBody: [{ id: 1, name: 'x', created_at: '2026-11-26T03:00:00Z' }] });
    x.push({ method: 'GET', path: `/${r}`, status: 200, responseBody: [{ id: 1, name: 'x' }] });
  }
  const doc = await inferred(x);
  assert.is(Object.keys(doc.paths).length, 24);
  assert.ok(doc.paths['/api/v1/alice'] && doc.paths['/alice']);
});

infer('required by presence ratio (default 0.95, --min-presence), nullable as a type list, integer vs number', async () => {
  const x: Exchange[] = [];
  for (let i = 0; i < 100; i++) {
    const body: Record<string, unknown> = { email: `u${i}@example.com`, score: i % 2 ? 1.5 : 2, age: i, nick: i < 80 ? 'n' : null };
    if (i < 96) body.phone = '555';
    if (i < 50) body.bio = 'b';
    x.push({ method: 'POST', path: '/users', status: 201, requestBody: body, responseBody: { id: i, ...body } });
  }
  let doc = await inferred(x);
  const create = op(doc, 'post', '/users');
  assert.is(create.operationId, 'createUser');
  const request = create.requestBody!.content['application/json'].schema as JsonSchemaObject;
  assert.is(create.requestBody!.required, true);
  assert.equal(request.type, 'object');
  assert.equal(request.required, ['age', 'email', 'nick', 'phone', 'score']);
  assert.equal(request.properties!.nick, { type: ['string', 'null'] });
  assert.equal(request.properties!.score, { type: 'number' });
  assert.equal(request.properties!.age, { type: 'integer' });
  assert.equal(request.properties!.email, { type: 'string', format: 'email' });
  assert.equal(Object.keys(create.responses), ['201']);
  assert.is(create.responses['201'].description, 'Created');
  doc = await inferred(x, { minPresence: 0.99 });
  assert.equal((op(doc, 'post', '/users').requestBody!.content['application/json'].schema as JsonSchemaObject).required, ['age', 'email', 'nick', 'score']);
});

infer('formats: uuid, date-time, date, uri, ipv4 kept; card-like marked sensitive; a mixed field gets none', async () => {
  const x: Exchange[] = UUIDS.map((id, i) => ({
    method: 'GET', path: `/things/${id}`, status: 200,
    responseBody: {
      id, at: '2026-11-26T03:00:00Z', day: '2026-11-26', site: 'https://example.com/x', ip: '10.0.0.1', card: '4111 1111 1111 1111',
      mixed: i % 2 ? 'a@b.co' : 'plain', code: '0042', tags: ['a', 'b'], nested: { deep: [{ v: 1 }] },
    },
  }));
  const doc = await inferred(x);
  const get = op(doc, 'get', '/things/{id}');
  assert.equal(get.parameters![0].schema, { type: 'string', format: 'uuid' });
  const p = responseSchema(get, '200').properties!;
  assert.equal(p.id, { type: 'string', format: 'uuid' });
  assert.equal(p.at, { type: 'string', format: 'date-time' });
  assert.equal(p.day, { type: 'string', format: 'date' });
  assert.equal(p.site, { type: 'string', format: 'uri' });
  assert.equal(p.ip, { type: 'string', format: 'ipv4' });
  assert.is(p.card.format, undefined);
  assert.is(p.card['x-vigil-sensitive'], 'card-like');
  assert.equal(p.mixed, { type: 'string' });
  assert.equal(p.code, { type: 'string', pattern: '^-?[0-9]+$' });
  assert.equal(p.tags, { type: 'array', items: { type: 'string' } });
  assert.equal(p.nested, { type: 'object', properties: { deep: { type: 'array', items: { type: 'object', properties: { v: { type: 'integer' } }, required: ['v'] } } }, required: ['deep'] });
});

infer('redacted fields keep their name and type, marked x-vigil-redacted', async () => {
  const x: Exchange[] = Array.from({ length: 5 }, () => ({
    method: 'POST', path: '/payments?email=a%40b.co', status: 200, requestBody: { card: { number: '4111111111111111' }, amount: 5 },
    redacted: ['request_body:$.card.number', 'query:email'], responseBody: { ok: true },
  }));
  const doc = await inferred(x);
  const post = op(doc, 'post', '/payments');
  const card = (post.requestBody!.content['application/json'].schema as JsonSchemaObject).properties!.card.properties!.number;
  assert.is(card.type, 'string');
  assert.is(card['x-vigil-redacted'], true);
  assert.is(card['x-vigil-sensitive'], 'card-like');
  const email = post.parameters!.find((q) => q.name === 'email')!;
  assert.equal(email, { name: 'email', in: 'query', required: true, schema: { type: 'string', format: 'email', 'x-vigil-redacted': true } });
});

infer('statuses each with their own body; query and header parameters; infrastructure headers left out', async () => {
  const x: Exchange[] = [];
  for (let i = 0; i < 40; i++) {
    const found = i % 4 !== 0;
    x.push({
      method: 'GET', path: `/items/${i}?expand=${i % 2 ? 'a' : 'b'}${i % 3 ? '' : '&page=2'}`, status: found ? 200 : 404,
      headers: { 'X-Tenant-Id': 't1', 'X-Forwarded-For': '1.2.3.4', Accept: 'application/json', 'Idempotency-Key': 'k' },
      responseHeaders: { 'X-RateLimit-Remaining': '10', 'X-Powered-By': 'x', 'content-type': 'application/json' },
      responseBody: found ? { id: i, name: 'n' } : { error: 'not found' },
    });
  }
  const doc = await inferred(x);
  const get = op(doc, 'get', '/items/{id}');
  assert.equal(Object.keys(get.responses), ['200', '404']);
  assert.equal(responseSchema(get, '200').required, ['id', 'name']);
  assert.equal(responseSchema(get, '404').required, ['error']);
  assert.equal(Object.keys(get.responses['200'].headers!), ['x-ratelimit-remaining']);
  assert.equal(get.responses['200'].headers!['x-ratelimit-remaining'], { schema: { type: 'integer' }, required: true });
  assert.equal(get.parameters!.map((q) => `${q.in} ${q.name} ${q.required}`), [
    'path id true', 'query expand true', 'query page false', 'header idempotency-key true', 'header x-tenant-id true',
  ]);
  assert.is(get.tags![0], 'items');
});

infer('paths OpenAPI takes as one (/users/{id}, /users/{email}) get one spelling and their types join', async () => {
  const x: Exchange[] = [];
  for (let i = 0; i < 5; i++) x.push({ method: 'GET', path: `/users/${i}`, status: 200, responseBody: { id: i } });
  x.push({ method: 'GET', path: '/users/ann@example.com', status: 200, responseBody: { id: 9 } });
  x.push({ method: 'DELETE', path: '/users/ann@example.com', status: 204 });
  const doc = await inferred(x);
  assert.equal(Object.keys(doc.paths), ['/users/{id}']);
  // A format applies to the strings only: the integers stay integers.
  assert.equal(op(doc, 'get', '/users/{id}').parameters![0].schema, { type: ['string', 'integer'], format: 'email' });
  assert.equal(op(doc, 'delete', '/users/{id}').parameters![0].schema, { type: 'string', format: 'email' });
  assert.equal(Object.keys(op(doc, 'delete', '/users/{id}').responses), ['204']);
  assert.is(op(doc, 'delete', '/users/{id}').responses['204'].content, undefined);
});

infer('merged routes count presence over all their exchanges: a field only some had is optional', async () => {
  const x: Exchange[] = [];
  for (let i = 0; i < 20; i++) x.push({ method: 'GET', path: `/users/${i}?expand=orders`, status: 200, responseBody: { id: i, profile: { nick: 'n', bio: 'b' } } });
  for (const n of NAMES) x.push({ method: 'GET', path: `/users/${n}`, status: 200, responseBody: { id: 1, profile: { bio: 'b' } } });
  const doc = await inferred(x);
  assert.equal(Object.keys(doc.paths), ['/users/{id}']);
  const get = op(doc, 'get', '/users/{id}');
  assert.equal(get.parameters!.find((p) => p.name === 'expand')!.required, false);
  const profile = responseSchema(get, '200').properties!.profile;
  assert.equal(profile.required, ['bio']);
  assert.equal(responseSchema(get, '200').required, ['id', 'profile']);
});

infer('operation ids: readable, unique, stable', () => {
  assert.is(operationIdFor('GET', '/users'), 'listUsers');
  assert.is(operationIdFor('GET', '/api/v1/users/{id}'), 'getUserById');
  assert.is(operationIdFor('POST', '/users'), 'createUser');
  assert.is(operationIdFor('PUT', '/users/{id}'), 'updateUserById');
  assert.is(operationIdFor('PATCH', '/users/{id}'), 'patchUserById');
  assert.is(operationIdFor('DELETE', '/users/{user_id}/orders/{order_id}'), 'deleteUserOrderByOrderId');
  assert.is(operationIdFor('GET', '/users/{user_id}/orders'), 'listUserOrders');
  assert.is(operationIdFor('POST', '/users/{id}/reset-password'), 'postUserResetPassword');
  assert.is(operationIdFor('GET', '/'), 'getRoot');
  assert.is(operationIdFor('GET', '/health'), 'getHealth');
  const doc = inferSpec(observe([
    { method: 'GET', path: '/a-b', status: 200 }, { method: 'GET', path: '/a_b', status: 200 }, { method: 'PROPFIND', path: '/a', status: 207 },
  ]).concat({ route: 'OPTIONS *', location: 'exchange', status: 204, name: '', count: 1, parents: 1, kinds: {}, formats: {}, redacted: 0, firstSeen: 1, lastSeen: 1 }));
  assert.equal(Object.values(doc.paths).map((p) => p.get!.operationId).sort(), ['getAB', 'getAB2']);
  assert.equal(inferSpec(observe([{ method: 'GET', path: '/a_b', status: 200 }, { method: 'GET', path: '/a-b', status: 200 }])), doc);
});

infer('JSON paths: dots, [*], quoted keys; malformed ones refused', () => {
  assert.equal(parseJsonPath('$'), []);
  assert.equal(parseJsonPath('$.items[*].id'), [{ key: 'items' }, { items: true }, { key: 'id' }]);
  assert.equal(parseJsonPath("$['a.b']['it\\'s']"), [{ key: 'a.b' }, { key: "it's" }]);
  assert.equal(parseJsonPath('$[*][*]'), [{ items: true }, { items: true }]);
  assert.equal(parseJsonPath("$.scores.*['*']"), [{ key: 'scores' }, { values: true }, { key: '*' }]);
  for (const bad of ['', 'a.b', '$..a', "$['open", '$[0]']) assert.is(parseJsonPath(bad), null, bad);
});

infer('an object keyed by values (the recorder\'s `.*`) is a map: additionalProperties, not properties', async () => {
  const row = (name: string, count: number, parents: number, kinds: Record<string, number>) => ({
    route: 'GET /scores', location: 'response_body' as const, status: 200, name, count, parents, kinds, formats: {}, redacted: 0, firstSeen: 1, lastSeen: 2,
  });
  const doc = inferSpec([
    { ...row('', 4, 4, {}), location: 'exchange' }, row('$', 4, 4, { object: 4 }), row('$.by_user', 4, 4, { object: 4 }),
    row('$.by_user.*', 9, 4, { object: 9 }), row('$.by_user.*.points', 9, 9, { integer: 9 }),
  ]);
  await assertValidOpenApi(doc);
  assert.equal(doc.paths['/scores'].get!.responses['200'].content!['application/json'].schema, {
    type: 'object', required: ['by_user'],
    properties: { by_user: { type: 'object', additionalProperties: { type: 'object', properties: { points: { type: 'integer' } }, required: ['points'] } } },
  });
});

infer('info: a title and a version from the data, so the same observations print the same document', async () => {
  const x: Exchange[] = [{ method: 'GET', path: '/a', status: 200, time: Date.UTC(2026, 10, 20) }, { method: 'GET', path: '/a', status: 500, time: Date.UTC(2026, 10, 25) }];
  const doc = await inferred(x, { title: 'Shop' });
  assert.equal(doc.info.title, 'Shop');
  assert.is(doc.info.version, 'observed-2026-11-25');
  assert.match(doc.info.description as string, /from 2 exchanges on 1 operations, seen from 2026-11-20/);
  assert.equal(Object.keys(op(doc, 'get', '/a').responses), ['200', '500']);
  assert.is(op(doc, 'get', '/a').responses['500'].description, 'Internal Server Error');
});

infer.run();
