// `vigil spec` over what a real `vigil run` recorded: traffic through the gateway (ids, word-like usernames, a
// fixed `me`, a create, a 404, a masked field, query parameters), the gateway stopped, then `vigil spec -config`.
// The document is validated by a real OpenAPI 3.1 validator, and so is a hand-written spec merged with it.
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { parse as parseYaml } from 'yaml';
import { freePort } from '../support/net.js';
import { tempDir } from '../support/tmp.js';
import { runVigil, spawnVigil, startVigil, writeConfig } from '../support/vigil-process.js';
import { startRecordingUpstream } from '../support/recording-upstream.js';
import { sendThrough, waitForRecord } from '../support/gateway-client.js';
import { assertValidOpenApi } from '../support/openapi-validator.js';

const TOKEN = 'spec-test-token';
const spec = suite('vigil spec (e2e)');
const work = tempDir('vigil-spec-');
const NAMES = ['alice', 'bob', 'carol', 'dave', 'erin', 'frank', 'grace', 'heidi', 'ivan', 'judy', 'mallory', 'oscar'];
let configFile = '';
let upstream: Awaited<ReturnType<typeof startRecordingUpstream>>;

const json = (res: import('node:http').ServerResponse, status: number, body: unknown) => {
  res.writeHead(status, { 'content-type': 'application/json', 'x-ratelimit-remaining': '99' });
  res.end(JSON.stringify(body));
};

spec.before(async () => {
  upstream = await startRecordingUpstream({}, (req, res, got) => {
    const path = req.url!.split('?')[0];
    const parts = path.split('/').filter(Boolean);
    if (req.method === 'POST' && path === '/users') {
      const body = JSON.parse(got.body.toString('utf8') || '{}') as Record<string, unknown>;
      return json(res, 201, { id: 77, email: body.email, created_at: '2026-11-26T03:00:00Z' });
    }
    if (parts[0] === 'users' && parts[1] === '999') return json(res, 404, { error: 'no such user' });
    if (parts[0] === 'users' && parts.length === 2) {
      const id = Number(parts[1]);
      return json(res, 200, Number.isInteger(id)
        ? { id, email: `u${id}@example.com`, nickname: id % 2 ? null : 'n', card: '4111111111111111' }
        : { login: parts[1], followers: 3, email: `${parts[1]}@example.com` });
    }
    return json(res, 200, { ok: true });
  });
  const proxyPort = await freePort();
  const cpPort = await freePort();
  configFile = writeConfig(work.path, `service:
  upstream: http://127.0.0.1:${upstream.port}
  listen: 127.0.0.1:${proxyPort}
control_plane: { listen: 127.0.0.1:${cpPort}, token: ${TOKEN} }
data_dir: ${work.path}/data
capture: {}
rules:
  - name: all
    match: { path: /** }
    redact: { json_fields: [$.card] }
`);
  const cp = `http://127.0.0.1:${cpPort}`;
  const vigil = await startVigil(configFile, cp, { cwd: work.path });
  try {
    const headers = ['Accept', 'application/json', 'X-Tenant-Id', 'acme'];
    for (let id = 1; id <= 20; id++) await sendThrough(proxyPort, 'GET', `/users/${id}?expand=orders`, headers);
    for (const name of NAMES) await sendThrough(proxyPort, 'GET', `/users/${name}`, headers);
    await sendThrough(proxyPort, 'GET', '/users/me', headers);
    await sendThrough(proxyPort, 'GET', '/users/999?expand=orders', headers);
    for (let i = 0; i < 3; i++) {
      await sendThrough(proxyPort, 'POST', '/users', [...headers, 'Content-Type', 'application/json'], JSON.stringify({ email: `new${i}@example.com`, tags: ['a'] }));
    }
    for (const p of ['/users/20', '/users/oscar', '/users/me', '/users/999', '/users']) await waitForRecord(cp, TOKEN, p);
  } finally {
    await vigil.stop('SIGTERM');
  }
});

spec.after(() => { upstream?.close(); work.cleanup(); });

const run = (...args: string[]) => runVigil(['spec', ...args], { cwd: work.path });

spec('infers a valid OpenAPI 3.1 document from the recorded traffic', async () => {
  const { code, stdout, stderr } = await run('-config', configFile);
  assert.is(code, 0, stderr);
  const doc = parseYaml(stdout);
  await assertValidOpenApi(doc, 'inferred');
  assert.equal(Object.keys(doc.paths).sort(), ['/users', '/users/me', '/users/{id}']);
  const get = doc.paths['/users/{id}'].get;
  assert.is(get.operationId, 'getUserById');
  assert.equal(Object.keys(get.responses), ['200', '404']);
  // Sent with the ids, not with the usernames merged into the same path: optional.
  assert.ok(get.parameters.some((p: { name: string; in: string; required: boolean }) => p.name === 'expand' && p.in === 'query' && !p.required));
  assert.ok(get.parameters.some((p: { name: string; in: string }) => p.name === 'x-tenant-id' && p.in === 'header'));
  const ok = get.responses['200'].content['application/json'].schema;
  assert.equal(ok.properties.email, { type: 'string', format: 'email' });
  assert.equal(ok.properties.nickname?.type, ['string', 'null']);
  assert.is(ok.properties.card['x-vigil-redacted'], true, 'a masked field keeps its name and type');
  assert.is(ok.properties.card.type, 'string');
  const create = doc.paths['/users'].post;
  assert.is(create.operationId, 'createUser');
  assert.equal(Object.keys(create.responses), ['201']);
  assert.equal(create.requestBody.content['application/json'].schema.required, ['email', 'tags']);
  assert.match(stderr, /vigil spec: 3 paths/);
});

spec('--merge a hand-written spec: its words kept, the traffic added, the result valid; --format json --out', async () => {
  writeFileSync(join(work.path, 'hand.yaml'), `openapi: 3.1.0
info: { title: Users, version: '1', description: Written by hand. }
paths:
  /users/{userId}:
    get:
      summary: One user
      x-internal: true
      parameters: [{ name: userId, in: path, required: true, schema: { type: integer } }]
      responses: { '200': { description: The user } }
`);
  const { code, stdout, stderr } = await run('-config', configFile, '--merge', 'hand.yaml', '--out', 'merged.json', '--format', 'json');
  assert.is(code, 0, stderr);
  const summary = JSON.parse(stdout);
  assert.ok(summary.changes.some((c: { kind: string; where: string }) => c.kind === 'path' && c.where === '/users'));
  const doc = JSON.parse(readFileSync(join(work.path, 'merged.json'), 'utf8'));
  await assertValidOpenApi(doc, 'merged');
  const get = doc.paths['/users/{userId}'].get;
  assert.is(get.summary, 'One user');
  assert.is(get['x-internal'], true);
  assert.is(get.responses['200'].description, 'The user');
  assert.ok(get.responses['200'].content['application/json'].schema.properties.email);
  assert.ok(get.responses['404']);
  assert.not.ok(doc.paths['/users/{id}']);
});

spec('exit 2 on a bad flag; exit 1 for a config whose store saw nothing', async () => {
  const bad = await run('-config', configFile, '--format', 'xml');
  assert.is(bad.code, 2);
  assert.match(bad.stderr, /Usage: vigil spec/);
  const empty = writeConfig(work.path, `data_dir: ${work.path}/empty\ncapture: {}\n`, 'empty.yaml');
  const none = await run('-config', empty);
  assert.is(none.code, 1);
  assert.match(none.stderr, /no field observations/);
});

spec('vigil sdk -config: a client of the inferred document, with no spec written by hand', async () => {
  const { code, stdout, stderr } = await runVigil(['sdk', '-config', configFile, '--lang', 'ts'], { cwd: work.path });
  assert.is(code, 0, stderr);
  assert.match(stdout, /fetch\(/);
  assert.match(stdout, /\/users\/\$\{encodeURIComponent/, 'the templated path is a method with its parameter');
  const both = await runVigil(['sdk', '-config', configFile, '--spec', 'x.yaml', '--lang', 'ts'], { cwd: work.path });
  assert.is(both.code, 2);
  assert.match(both.stderr, /either --spec FILE .* or -config FILE/);
});

spec('vigil mock -config: serves the inferred document; a POST to /users is returned by GET of its id', async () => {
  const mock = spawnVigil(['mock', '-config', configFile, '--port', '0', '--quiet'], { cwd: work.path });
  try {
    let url = '';
    for (let i = 0; i < 200 && !url; i++) {
      url = /on (http:\/\/[^ ]+) /.exec(mock.stdout())?.[1] ?? '';
      if (!url) await new Promise((r) => setTimeout(r, 50));
    }
    assert.ok(url, `the mock says where it listens (${mock.stdout()}${mock.stderr()})`);
    assert.match(mock.stdout(), /inferred from /);
    const created = await fetch(`${url}/users`, {
      method: 'POST', headers: { 'content-type': 'application/json', 'x-tenant-id': 'acme' }, body: JSON.stringify({ email: 'zoe@example.com', tags: ['b'] }),
    });
    assert.is(created.status, 201, await created.clone().text());
    const item = await created.json() as { id: number; email: string };
    assert.is(item.email, 'zoe@example.com');
    const read = await fetch(`${url}/users/${item.id}`, { headers: { 'x-tenant-id': 'acme' } });
    assert.is(read.status, 200);
    assert.is((await read.json() as { email: string }).email, 'zoe@example.com');
  } finally {
    await mock.stop('SIGINT');
  }
});

spec.run();
