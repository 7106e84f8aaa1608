// `vigil mock` as a real process over a realistic OpenAPI 3.1 spec (tests/fixtures/mock/shop-3.1.yaml): the CRUD round
// trip that Prism cannot do (stoplightio/prism#2026), nested collections scoped by their parent, seeded data that
// repeats per seed, requests refused per the spec, and every answer checked against the spec's response schema.
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fixture } from '../support/paths.js';
import { startMockProcess, specClient, type MockProcess } from '../support/mock-process.js';
import { tempDir } from '../support/tmp.js';
import { runVigil } from '../support/vigil-process.js';

const SPEC = fixture('mock/shop-3.1.yaml');
const mock = suite('vigil mock');
const client = specClient(SPEC);
const work = tempDir('vigil-mock-');
let server: MockProcess;

const call = (method: string, path: string, template: string, body?: unknown, headers?: Record<string, string>) =>
  client.call(server.url, method, path, template, body, headers);

mock.before(async () => { server = await startMockProcess(SPEC, ['--seed', '7']); });
mock.after(async () => { await server?.stop('SIGTERM'); work.cleanup(); });

mock('CRUD: POST, then GET of the list and of the id, PATCH merges, PUT replaces, DELETE removes (then 404)', async () => {
  const created = await call('POST', '/users', '/users', { email: 'ann.lee@example.com', name: 'Ann Lee', role: 'admin', password: 'correct horse' });
  assert.is(created.status, 201);
  assert.is(created.mode, 'stateful');
  const user = created.body;
  assert.is(user.email, 'ann.lee@example.com');
  assert.is(user.name, 'Ann Lee');
  assert.is(user.role, 'admin');
  assert.type(user.id, 'number');
  assert.ok(!('password' in user), 'a writeOnly property is never returned');
  assert.is(created.headers.get('location'), `/users/${user.id}`);

  const list = await call('GET', '/users', '/users');
  assert.is(list.mode, 'stateful');
  assert.equal(list.body.data.map((u: any) => u.id), [user.id]);
  assert.is(list.body.total, 1);
  assert.equal(list.body.data[0], user);

  assert.equal((await call('GET', `/users/${user.id}`, '/users/{id}')).body, user);

  const patched = await call('PATCH', `/users/${user.id}`, '/users/{id}', { nickname: 'annie', tags: ['vip'] }, { 'content-type': 'application/merge-patch+json' });
  assert.is(patched.status, 200);
  assert.equal(patched.body, { ...user, nickname: 'annie', tags: ['vip'] });

  const replaced = await call('PUT', `/users/${user.id}`, '/users/{id}', { email: 'ann@example.org', name: 'Ann L.' });
  assert.is(replaced.status, 200);
  assert.is(replaced.body.email, 'ann@example.org');
  assert.is(replaced.body.id, user.id, 'PUT keeps the id');
  assert.is(replaced.body.created_at, user.created_at, 'PUT keeps what the client cannot write');
  assert.ok(!('nickname' in replaced.body) && !('tags' in replaced.body), 'PUT drops what the new body leaves out');
  assert.equal((await call('GET', `/users/${user.id}`, '/users/{id}')).body, replaced.body);

  const removed = await call('DELETE', `/users/${user.id}`, '/users/{id}');
  assert.is(removed.status, 204);
  const gone = await call('GET', `/users/${user.id}`, '/users/{id}');
  assert.is(gone.status, 404);
  assert.is(gone.body.code, 'not_found');
  assert.match(gone.body.message, `id ${user.id}`);
  assert.is((await call('DELETE', `/users/${user.id}`, '/users/{id}')).status, 404);
  assert.is((await call('PATCH', `/users/${user.id}`, '/users/{id}', { name: 'x' })).status, 404);
  assert.equal((await call('GET', '/users', '/users')).body.data, []);
});

mock('ids follow the sequence, lists filter by declared properties and page with limit and offset', async () => {
  const ids: number[] = [];
  for (const [name, role] of [['Bo', 'member'], ['Cy', 'guest'], ['Di', 'member']]) {
    ids.push((await call('POST', '/users', '/users', { email: `${name.toLowerCase()}@example.com`, name, role })).body.id);
  }
  assert.equal(ids, [ids[0], ids[0] + 1, ids[0] + 2]);
  const members = await call('GET', '/users?role=member', '/users');
  assert.equal(members.body.data.map((u: any) => u.name), ['Bo', 'Di']);
  assert.is(members.body.total, 2);
  const page = await call('GET', '/users?limit=1&offset=1', '/users');
  assert.equal(page.body.data.map((u: any) => u.name), ['Cy']);
  assert.is(page.body.total, 3);
  for (const id of ids) assert.is((await call('DELETE', `/users/${id}`, '/users/{id}')).status, 204);
});

mock('nested collections: orders live under their user, and go with it', async () => {
  const a = (await call('POST', '/users', '/users', { email: 'a@example.com', name: 'A' })).body;
  const b = (await call('POST', '/users', '/users', { email: 'b@example.com', name: 'B' })).body;
  const line = { product: 'Desk Lamp', quantity: 2, price: 19.5 };
  const placed = await call('POST', `/users/${a.id}/orders`, '/users/{user_id}/orders', { lines: [line], note: 'gift wrap' });
  assert.is(placed.status, 201);
  const order = placed.body.data;
  assert.match(order.id, /^[0-9a-f]{8}-[0-9a-f]{4}-4/);
  assert.is(order.user_id, a.id, 'the parent id is written into the item');
  assert.equal(order.lines, [line]);
  assert.is(order.note, 'gift wrap');
  await call('POST', `/users/${b.id}/orders`, '/users/{user_id}/orders', { lines: [{ ...line, quantity: 1 }] });

  const ofA = await call('GET', `/users/${a.id}/orders`, '/users/{user_id}/orders');
  assert.equal(ofA.body.map((o: any) => o.id), [order.id]);
  assert.is((await call('GET', `/users/${b.id}/orders`, '/users/{user_id}/orders')).body.length, 1);
  assert.equal((await call('GET', `/users/${a.id}/orders/${order.id}`, '/users/{user_id}/orders/{order_id}')).body.data, order);
  const elsewhere = await call('GET', `/users/${b.id}/orders/${order.id}`, '/users/{user_id}/orders/{order_id}');
  assert.is(elsewhere.status, 404, "a's order is not b's");

  const orphan = await call('POST', '/users/999/orders', '/users/{user_id}/orders', { lines: [line] });
  assert.is(orphan.status, 404);
  assert.match(orphan.body.message, 'no user with id 999');

  assert.is((await call('DELETE', `/users/${a.id}`, '/users/{id}')).status, 204);
  assert.is((await call('GET', `/users/${a.id}/orders`, '/users/{user_id}/orders')).status, 404);
  await call('POST', '/users', '/users', { email: 'a2@example.com', name: 'A2' });
  assert.is((await call('GET', `/users/${b.id}/orders`, '/users/{user_id}/orders')).body.length, 1, "b's orders stay");
});

mock('invalid requests are refused with the spec\'s error schema: 422 naming each field, 400 for parameters', async () => {
  const bad = await call('POST', '/users', '/users', { email: 'not-an-email', name: '', extra: true });
  assert.is(bad.status, 422);
  assert.is(bad.mode, 'error');
  const fields = bad.body.errors.map((e: any) => e.field).sort();
  assert.equal(fields, ['body', 'body/email', 'body/name']);
  assert.ok(bad.body.errors.some((e: any) => /format "email"/.test(e.message)));
  assert.is((await call('POST', '/users', '/users', { name: 'No Email' })).body.errors[0].field, 'body/email');
  const broken = await call('POST', '/users', '/users', '{"email": ');
  assert.is(broken.status, 422, 'malformed JSON is answered with the status the operation declares for bad input');
  assert.match(broken.body.message, 'not JSON');
  const order = await call('POST', '/users/1/orders', '/users/{user_id}/orders', { lines: [] });
  assert.ok(order.status === 422 || order.status === 404);

  const limit = await fetch(`${server.url}/users?limit=0`);
  assert.is(limit.status, 400);
  assert.match(JSON.stringify(await limit.json()), 'query/limit');
  const id = await fetch(`${server.url}/users/abc`);
  assert.is(id.status, 400);
  const wrongType = await fetch(`${server.url}/users`, { method: 'POST', headers: { 'content-type': 'text/plain' }, body: 'hi' });
  assert.is(wrongType.status, 415);
});

mock('other routes answer seeded, realistic data: path parameters echo, formats are real, Prefer picks a status', async () => {
  const product = await call('GET', '/products/ABC-1234', '/products/{sku}');
  assert.is(product.status, 200);
  assert.is(product.mode, 'generated');
  assert.is(product.body.sku, 'ABC-1234');
  const stats = await call('GET', '/stats', '/stats');
  assert.is(stats.mode, 'generated');
  assert.match(stats.body.contact, /^[a-z]+\.[a-z]+@example\.(com|org|net)$/);
  assert.equal((await call('GET', '/stats', '/stats')).body, stats.body, 'the same request, the same answer');
  const missing = await call('GET', '/products/ABC-1234', '/products/{sku}', undefined, { prefer: 'code=404' });
  assert.is(missing.status, 404);
  const badSku = await fetch(`${server.url}/products/nope`);
  assert.is(badSku.status, 400);
  // The server's base path (servers[0].url ends in /v1) is accepted in front.
  assert.equal((await call('GET', '/v1/stats', '/stats')).body, stats.body);
});

mock('unknown paths are 404, undeclared methods 405 with Allow; CORS is open for local pages', async () => {
  const unknown = await fetch(`${server.url}/nowhere`);
  assert.is(unknown.status, 404);
  assert.match(((await unknown.json()) as { message: string }).message, '/nowhere');
  const wrong = await fetch(`${server.url}/stats`, { method: 'DELETE' });
  assert.is(wrong.status, 405);
  assert.is(wrong.headers.get('allow'), 'GET');
  await wrong.arrayBuffer();
  const preflight = await fetch(`${server.url}/users`, {
    method: 'OPTIONS', headers: { origin: 'http://localhost:5173', 'access-control-request-method': 'POST', 'access-control-request-headers': 'content-type' },
  });
  assert.is(preflight.status, 204);
  assert.is(preflight.headers.get('access-control-allow-origin'), 'http://localhost:5173');
  assert.match(preflight.headers.get('access-control-allow-methods') ?? '', 'POST');
  assert.is(preflight.headers.get('access-control-allow-headers'), 'content-type');
  const simple = await fetch(`${server.url}/stats`, { headers: { origin: 'http://localhost:5173' } });
  assert.is(simple.headers.get('access-control-allow-origin'), 'http://localhost:5173');
  assert.match(simple.headers.get('access-control-expose-headers') ?? '', 'X-Vigil-Mock');
  await simple.arrayBuffer();
});

mock('the same seed gives the same answers in another process; another seed gives others', async () => {
  const session = async (seed: string) => {
    const p = await startMockProcess(SPEC, ['--seed', seed, '--quiet']);
    try {
      const at = (method: string, path: string, template: string, body?: unknown) => client.call(p.url, method, path, template, body);
      const user = (await at('POST', '/users', '/users', { email: 'z@example.com', name: 'Z' })).body;
      const order = (await at('POST', `/users/${user.id}/orders`, '/users/{user_id}/orders', { lines: [{ product: 'Mug', quantity: 1, price: 4 }] })).body;
      return { stats: (await at('GET', '/stats', '/stats')).body, product: (await at('GET', '/products/XYZ-0001', '/products/{sku}')).body, user, order };
    } finally {
      await p.stop('SIGTERM');
    }
  };
  const [first, again, other] = [await session('42'), await session('42'), await session('43')];
  assert.equal(again, first);
  assert.not.equal(other.stats, first.stats);
  assert.not.equal(other.product, first.product);
  assert.not.equal(other.user.created_at, first.user.created_at);
  assert.not.equal(other.order.data.id, first.order.data.id);
});

mock('--items N starts each collection with N generated items, and N under each parent item', async () => {
  const p = await startMockProcess(SPEC, ['--items', '2', '--seed', '9', '--quiet']);
  try {
    const at = (method: string, path: string, template: string, body?: unknown) => client.call(p.url, method, path, template, body);
    const users = (await at('GET', '/users', '/users')).body;
    assert.equal(users.data.map((u: any) => u.id), [1, 2]);
    assert.is(users.total, 2);
    for (const u of users.data) {
      const orders = (await at('GET', `/users/${u.id}/orders`, '/users/{user_id}/orders')).body;
      assert.is(orders.length, 2);
      assert.ok(orders.every((o: any) => o.user_id === u.id));
      assert.equal((await at('GET', `/users/${u.id}/orders/${orders[1].id}`, '/users/{user_id}/orders/{order_id}')).body.data, orders[1]);
    }
    assert.is((await at('POST', '/users', '/users', { email: 'new@example.com', name: 'New' })).body.id, 3);
    assert.is((await runVigil(['mock', '--spec', SPEC, '--items', 'many'])).code, 2);
  } finally {
    await p.stop('SIGTERM');
  }
});

mock('POST /__vigil/reset forgets the items and restarts the ids; GET /__vigil/state shows them', async () => {
  const made = await call('POST', '/users', '/users', { email: 'r@example.com', name: 'R' });
  await call('POST', `/users/${made.body.id}/orders`, '/users/{user_id}/orders', { lines: [{ product: 'Pen', quantity: 1, price: 2 }] });
  const state = await (await fetch(`${server.url}/__vigil/state`)).json() as { collections: Record<string, Record<string, any[]>> };
  assert.ok(state.collections['/users'][''].some((u) => u.id === made.body.id));
  assert.is(state.collections['/users/{user_id}/orders'][String(made.body.id)].length, 1);
  const reset = await fetch(`${server.url}/__vigil/reset`, { method: 'POST' });
  assert.is(reset.status, 204);
  assert.is(reset.headers.get('x-vigil-mock'), 'control');
  assert.equal((await call('GET', '/users', '/users')).body.data, []);
  assert.is((await call('POST', '/users', '/users', { email: 's@example.com', name: 'S' })).body.id, 1);
  assert.is((await fetch(`${server.url}/__vigil/nothing`)).status, 404);
});

mock('every answer above was checked against the spec', () => {
  assert.ok(client.validated() > 40, `${client.validated()} answers validated`);
});

mock('SIGINT closes the server and exits 0', async () => {
  const p = await startMockProcess(SPEC, ['--quiet']);
  await (await fetch(`${p.url}/stats`)).arrayBuffer();
  const { code, signal } = await p.stop('SIGINT');
  assert.is(code, 0);
  assert.is(signal, null);
  assert.match(p.stderr(), 'SIGINT: stopped');
});

mock('usage and spec errors exit 2 naming the file and the key', async () => {
  const none = await runVigil(['mock']);
  assert.is(none.code, 2);
  assert.match(none.stderr, 'give either --spec FILE');
  const missing = await runVigil(['mock', '--spec', join(work.path, 'absent.yaml')]);
  assert.is(missing.code, 2);
  assert.match(missing.stderr, 'absent.yaml');
  const swagger = join(work.path, 'swagger.yaml');
  writeFileSync(swagger, 'swagger: "2.0"\ninfo: { title: t, version: "1" }\npaths: {}\n');
  const old = await runVigil(['mock', '--spec', swagger]);
  assert.is(old.code, 2);
  assert.match(old.stderr, /swagger\.yaml: openapi: expected 3\.0\.x or 3\.1\.x/);
  const dangling = join(work.path, 'dangling.yaml');
  writeFileSync(dangling, 'openapi: 3.1.0\ninfo: { title: t, version: "1" }\npaths:\n  /a:\n    get:\n      responses:\n        "200":\n          description: ok\n          content:\n            application/json:\n              schema: { $ref: "#/components/schemas/Nope" }\n');
  const ref = await runVigil(['mock', '--spec', dangling]);
  assert.is(ref.code, 2);
  assert.match(ref.stderr, 'dangling.yaml: paths["/a"].get.responses["200"]');
  assert.match(ref.stderr, '#/components/schemas/Nope');
  for (const [flags, why] of [[['--port', 'x'], '--port'], [['--seed', '-1'], '--seed'], [['--llm-model', 'm'], 'is for --llm'], [['--bogus'], 'unknown flag']] as const) {
    const r = await runVigil(['mock', '--spec', SPEC, ...flags], { env: { OPENAI_API_KEY: '', VIGIL_MOCK_LLM_API_KEY: '' } });
    assert.is(r.code, 2, flags.join(' '));
    assert.match(r.stderr, why);
  }
  const keyless = await runVigil(['mock', '--spec', SPEC, '--llm'], { env: { OPENAI_API_KEY: '', VIGIL_MOCK_LLM_API_KEY: '' } });
  assert.is(keyless.code, 2);
  assert.match(keyless.stderr, 'VIGIL_MOCK_LLM_API_KEY');
});

mock.run();
