// Field observations end to end: a real `vigil run` governs traffic under redaction rules and stores the fields
// each route used in capture_fields (redacted ones by name and type, no value anywhere in the database); then
// `vigil check` reads them and answers with exit codes and output a CI job can rely on.
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import sqlite3 from 'sqlite3';
import { freePort } from '../support/net.js';
import { tempDir } from '../support/tmp.js';
import { runVigil, startVigil, writeConfig } from '../support/vigil-process.js';
import { startRecordingUpstream } from '../support/recording-upstream.js';
import { sendThrough, waitForRecord } from '../support/gateway-client.js';

const TOKEN = 'check-test-token';
const check = suite('vigil check');
const work = tempDir('vigil-check-');
let configFile = '';
let upstream: Awaited<ReturnType<typeof startRecordingUpstream>>;

const SECRETS = { password: 'pw-Zq81xK0-unique', bearer: 'bearer-Lm2VbN7c-unique', token: 'qtok-9f8e7d6c-unique', card: '4111111111111111' };

interface Row { route: string; location: string; status: number; name: string; count: number; parents: number; kinds: string; formats: string; redacted: number }

function queryDb(file: string, sql: string): Promise<Row[]> {
  return new Promise((resolve, reject) => {
    const db = new sqlite3.Database(file, sqlite3.OPEN_READONLY, (err) => {
      if (err) { reject(err); return; }
      db.all(sql, (e, rows) => { db.close(); if (e) reject(e); else resolve(rows as Row[]); });
    });
  });
}

check.before(async () => {
  upstream = await startRecordingUpstream({}, (_req, res) => {
    res.writeHead(200, { 'content-type': 'application/json' });
    res.end(JSON.stringify({ id: '123e4567-e89b-12d3-a456-426614174000', created: '2026-11-26T02:00:00Z' }));
  });
  const proxyPort = await freePort();
  const cpPort = await freePort();
  configFile = writeConfig(work.path, `service:
  upstream: http://127.0.0.1:${upstream.port}
  listen: 127.0.0.1:${proxyPort}
control_plane: { listen: 127.0.0.1:${cpPort}, token: ${TOKEN} }
data_dir: ${work.path}/data
rules:
  - name: all
    match: { path: /** }
    redact: { headers: [authorization], query_params: [token] }
  - name: users
    match: { path: /api/users/** }
    redact: { json_fields: [$.password, $.card] }
`);
  const cp = `http://127.0.0.1:${cpPort}`;
  const vigil = await startVigil(configFile, cp, { cwd: work.path });
  try {
    const json = ['Content-Type', 'application/json'];
    for (const id of [41, 42]) {
      await sendThrough(proxyPort, 'POST', `/api/users/${id}`, [...json, 'Authorization', `Bearer ${SECRETS.bearer}`], JSON.stringify({
        name: 'Ann', email: 'ann@example.com', legacy_id: id, password: SECRETS.password, card: SECRETS.card, tags: ['a', 'b'],
      }));
    }
    await sendThrough(proxyPort, 'GET', `/api/users/43?include=orders&token=${SECRETS.token}`, []);
    for (const p of ['/api/users/41', '/api/users/42', '/api/users/43']) await waitForRecord(cp, TOKEN, p);
    // The overflow counter is there from the start, at zero: an alert on it sees a series.
    const metrics = await (await fetch(`${cp}/metrics`)).text();
    assert.match(metrics, /^vigil_capture_fields_overflow_total\{cap="route"\} 0$/m);
  } finally {
    await vigil.stop('SIGTERM');
  }
});

check.after(() => { upstream?.close(); work.cleanup(); });

const db = () => join(work.path, 'data', 'vigil.db');
const run = (...args: string[]) => runVigil(['check', '-config', configFile, ...args], { cwd: work.path });

check('capture_fields holds each field by route template, redacted ones by name and type', async () => {
  const rows = await queryDb(db(), 'SELECT * FROM capture_fields ORDER BY route, location, status, name');
  const get = (route: string, location: string, name: string, status = 0) =>
    rows.find((r) => r.route === route && r.location === location && r.name === name && r.status === status);
  const post = 'POST /api/users/{id}';
  assert.equal([get(post, 'exchange', '', 200)?.count, get('GET /api/users/{id}', 'exchange', '', 200)?.count], [2, 1]);
  const legacy = get(post, 'request_body', '$.legacy_id')!;
  assert.equal([legacy.count, legacy.parents, JSON.parse(legacy.kinds)], [2, 2, { integer: 2 }]);
  const password = get(post, 'request_body', '$.password')!;
  assert.equal([password.count, password.redacted, JSON.parse(password.kinds)], [2, 2, { string: 2 }]);
  const card = get(post, 'request_body', '$.card')!;
  assert.equal([card.redacted, JSON.parse(card.formats)], [2, { 'card-like': 2 }]);
  assert.is(get(post, 'request_body', '$.email')!.formats, '{"email":2}');
  assert.is(get(post, 'request_body', '$.tags[*]')!.count, 4);
  assert.is(get(post, 'request_header', 'authorization')!.redacted, 2);
  assert.is(get(post, 'response_body', '$.id', 200)!.formats, '{"uuid":2}');
  assert.is(get(post, 'path', 'id')!.count, 2);
  assert.is(get('GET /api/users/{id}', 'query', 'token')!.redacted, 1);
  assert.is(get('GET /api/users/{id}', 'query', 'include')!.redacted, 0);
});

check('no redacted value is anywhere in the database files', () => {
  for (const file of [db(), `${db()}-wal`]) {
    if (!existsSync(file)) continue;
    const bytes = readFileSync(file).toString('latin1');
    for (const [what, value] of Object.entries(SECRETS)) assert.not.ok(bytes.includes(value), `${file} holds the ${what}`);
  }
});

check('a used field: exit 1 with its count and last-seen time; a concrete path is templated', async () => {
  const text = await run('POST /api/users', '$.legacy_id');
  assert.is(text.code, 0, 'POST /api/users is another route: never seen');
  assert.match(text.stdout, /the route was never seen/);
  const used = await run('POST /api/users/7', '$.legacy_id');
  assert.is(used.code, 1, used.stderr);
  assert.match(used.stdout, /USED {4}POST \/api\/users\/\{id\} {2}\$\.legacy_id \(request body\): 2 times, last seen 20\d\d-/);
  const json = await run('POST /api/users/{id}', 'request:$.password', '--format', 'json');
  assert.is(json.code, 1);
  const report = JSON.parse(json.stdout);
  assert.equal([report.used, report.fields[0].count, report.fields[0].redacted, report.fields[0].route_seen], [1, 2, 2, true]);
  assert.ok(Date.parse(report.fields[0].last_seen) > Date.now() - 600_000);
  assert.is((await run('GET /api/users/1', '?token')).code, 1);
  assert.is((await run('GET /api/users/1', 'header:Authorization')).code, 0, 'the GET sent no authorization header');
  assert.is((await run('POST /api/users/1', 'response:$.created')).code, 1);
});

check('an unused field or an unknown route: exit 0; --since excludes older use', async () => {
  const unused = await run('POST /api/users/1', '$.nickname', '--format', 'json');
  assert.is(unused.code, 0);
  assert.equal(JSON.parse(unused.stdout).fields[0], {
    route: 'POST /api/users/1', field: '$.nickname', route_template: 'POST /api/users/{id}', location: 'request_body',
    name: '$.nickname', used: false, count: 0, redacted: 0, last_seen: null, route_seen: true,
  });
  const unknown = await run('DELETE /nothing/here', '$.x', '--format', 'json');
  assert.is(unknown.code, 0);
  assert.is(JSON.parse(unknown.stdout).fields[0].route_seen, false);
  await new Promise((r) => setTimeout(r, 1100));
  assert.is((await run('POST /api/users/1', '$.legacy_id', '--since', '1s')).code, 0);
  assert.is((await run('POST /api/users/1', '$.legacy_id', '--since', '30d')).code, 1);
});

check('--fields FILE: lines, or YAML; exit 1 when any is used', async () => {
  const lines = writeConfig(work.path, '# fields to remove\nPOST /api/users/{id} $.legacy_id\nPOST /api/users/{id} $.nickname\n', 'fields.txt');
  const out = await run('--fields', lines, '--format', 'json');
  assert.is(out.code, 1);
  assert.equal(JSON.parse(out.stdout).fields.map((f: { used: boolean }) => f.used), [true, false]);
  const yaml = writeConfig(work.path, 'fields:\n  - { route: "POST /api/users/9", field: "$.nickname" }\n', 'fields.yaml');
  assert.is((await run('--fields', yaml)).code, 0);
});

check('usage errors exit 2 with the usage', async () => {
  for (const args of [[], ['POST /api/users'], ['users', '$.x'], ['POST /a', 'nothing'], ['POST /a', '$.x', '--format', 'xml'],
    ['POST /a', '$.x', '--since', 'soon'], ['--fields', join(work.path, 'missing.txt')]]) {
    const { code, stderr } = await run(...args);
    assert.is(code, 2, args.join(' '));
    assert.match(stderr, /Usage: vigil check/);
  }
  const bad = writeConfig(work.path, 'POST /a $.x\nnot a line\n', 'bad.txt');
  const { code, stderr } = await run('--fields', bad);
  assert.is(code, 2);
  assert.match(stderr, /bad\.txt:2:/);
});

check.run();
