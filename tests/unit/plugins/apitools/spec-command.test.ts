// `vigil spec -config FILE` over a real SQLite store holding `capture_fields` rows (capture's migrations and writer): the document
// on stdout or in --out, YAML and JSON, --since, --merge with its change list, and the exit codes (1 with nothing
// observed, 2 on usage). Every document printed goes through a real OpenAPI validator.
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { parse as parseYaml } from 'yaml';
import { openStore } from '../../../../runtime/store/index.js';
import { runSpec } from '../../../../plugins/apitools/openapi/spec-command.js';
import { inferFromConfig, NoObservationsError } from '../../../../plugins/apitools/openapi/field-source.js';
import { readFieldObservations } from '../../../../gateway/fields/field-reads.js';
import plugin from '../../../../plugins/apitools/index.js';
import { tempDir } from '../../../support/tmp.js';
import { recordingIo } from '../../../support/command-io.js';
import { observe, writeFieldRows, type Exchange } from '../../../support/field-observations.js';
import { assertValidOpenApi } from '../../../support/openapi-validator.js';
import { freshPostgresSchema, postgresAvailable } from '../../../support/postgres.js';
import { inferSpec } from '../../../../plugins/apitools/openapi/infer-spec.js';
import { captureMigrations } from '../../../../gateway/records/migrations.js';

const command = suite('apitools: vigil spec command');
const work = tempDir('vigil-spec-cmd-');
const now = Date.now();

function config(name: string): string {
  const file = join(work.path, `${name}.yaml`);
  writeFileSync(file, `data_dir: ${work.path}/${name}\nstorage: { url: "sqlite:${work.path}/${name}.db" }\ncapture: {}\n`);
  return file;
}

async function withStore(name: string, fn: (store: Awaited<ReturnType<typeof openStore>>) => Promise<void>): Promise<string> {
  const file = config(name);
  const backend = await openStore(`sqlite:${work.path}/${name}.db`);
  try { await fn(backend); } finally { await backend.close(); }
  return file;
}

const exchanges: Exchange[] = [];
for (let i = 0; i < 30; i++) exchanges.push({ method: 'GET', path: `/users/${i}`, status: 200, responseBody: { id: i, email: `u${i}@example.com` }, time: now - 3_600_000 });
exchanges.push({ method: 'POST', path: '/users', status: 201, requestBody: { email: 'a@b.co' }, responseBody: { id: 1 }, time: now - 3_600_000 });
// Old traffic: outside --since 1d.
exchanges.push({ method: 'GET', path: '/legacy', status: 200, responseBody: { x: 1 }, time: now - 40 * 86_400_000 });

let shop = '';
command.before(async () => {
  shop = await withStore('shop', async (b) => writeFieldRows(b.forPlugin('capture'), observe(exchanges)));
});
command.after(() => work.cleanup());

const run = async (flags: Record<string, string | boolean>, positionals: string[] = []) => {
  const { io, out, err } = recordingIo(work.path);
  const code = await runSpec({ flags, positionals }, io);
  return { code, out: out(), err: err() };
};

command('prints the inferred document as YAML with a summary on stderr', async () => {
  const { code, out, err } = await run({ config: shop });
  assert.is(code, 0, err);
  const doc = parseYaml(out);
  await assertValidOpenApi(doc);
  assert.equal(Object.keys(doc.paths).sort(), ['/legacy', '/users', '/users/{id}']);
  assert.is(doc.paths['/users/{id}'].get.operationId, 'getUserById');
  assert.match(err, /vigil spec: 3 paths, 3 operations from 32 exchanges/);
});

command('--format json, --out FILE (then a JSON summary on stdout), --since', async () => {
  const { code, out } = await run({ config: shop, format: 'json', out: 'api.json', since: '1d' });
  assert.is(code, 0);
  const summary = JSON.parse(out);
  assert.equal({ paths: summary.paths, operations: summary.operations, exchanges: summary.exchanges, out: summary.out }, { paths: 2, operations: 2, exchanges: 31, out: 'api.json' });
  const doc = JSON.parse(readFileSync(join(work.path, 'api.json'), 'utf8'));
  await assertValidOpenApi(doc);
  assert.not.ok(doc.paths['/legacy'], '--since leaves out what was last seen before it');
});

command('--merge: the hand-written file keeps its words, the change list says what was added', async () => {
  writeFileSync(join(work.path, 'hand.yaml'), `openapi: 3.1.0
info: { title: Users, version: '1' }
paths:
  /users/{userId}:
    get:
      description: Written by hand.
      parameters: [{ name: userId, in: path, required: true, schema: { type: integer } }]
      responses: { '200': { description: One user, content: { application/json: { schema: { type: object, properties: { id: { type: integer } } } } } } }
`);
  const { code, out, err } = await run({ config: shop, merge: 'hand.yaml' });
  assert.is(code, 0, err);
  const doc = parseYaml(out);
  await assertValidOpenApi(doc);
  assert.is(doc.paths['/users/{userId}'].get.description, 'Written by hand.');
  assert.equal(doc.paths['/users/{userId}'].get.responses['200'].content['application/json'].schema.properties.email, { type: 'string', format: 'email' });
  assert.match(err, /merged into hand.yaml: 3 changes/);
  assert.match(err, /\+ property GET \/users\/\{userId\} 200 \$\.email/);
  assert.match(err, /\+ path \/users\n/);
  const json = await run({ config: shop, merge: 'hand.yaml', out: 'merged.yaml', format: 'json' });
  assert.equal(JSON.parse(json.out).changes.map((c: { kind: string }) => c.kind).sort(), ['path', 'path', 'property']);
});

command('exit 1 with how to get observations: a store with no table, and one with an empty table', async () => {
  const none = config('none');
  let r = await run({ config: none });
  assert.is(r.code, 1);
  assert.match(r.err, /no field observations in the store of .*none\.yaml: run `vigil run -config/);
  assert.is(r.out, '');
  const empty = await withStore('empty', async (b) => { await b.forPlugin('capture').migrate(captureMigrations); });
  r = await run({ config: empty });
  assert.is(r.code, 1);
  const old = await run({ config: shop, since: '1m' });
  assert.is(old.code, 1);
  assert.match(old.err, /in that period/);
});

command('exit 2 on usage: missing -config, bad flags, an unreadable or non-OpenAPI --merge file, an invalid config', async () => {
  const cases: [Record<string, string | boolean>, RegExp][] = [
    [{}, /-config FILE is required/],
    [{ config: shop, format: 'xml' }, /--format is yaml or json/],
    [{ config: shop, since: 'soon' }, /--since takes a duration/],
    [{ config: shop, 'min-presence': '1.5' }, /--min-presence takes a ratio/],
    [{ config: shop, 'min-presence': true }, /--min-presence takes a value/],
    [{ config: shop, merge: 'missing.yaml' }, /--merge: cannot read/],
    [{ config: shop, merge: 'api.json' }, /--merge: .*openapi|paths/],
  ];
  writeFileSync(join(work.path, 'api.json'), '{"not": "openapi"}');
  for (const [flags, why] of cases) {
    const r = await run(flags);
    assert.is(r.code, 2, JSON.stringify(flags));
    assert.match(r.err, why);
    assert.match(r.err, /Usage: vigil spec -config FILE/);
  }
  assert.is((await run({ config: shop }, ['extra'])).code, 2);
  const bad = join(work.path, 'bad.yaml');
  writeFileSync(bad, 'capture: { nonsense_key: 1 }\n');
  const r = await run({ config: bad });
  assert.is(r.code, 2);
  assert.match(r.err, /nonsense_key/);
});

command('the plugin lists the command; the loader and inferFromConfig are callable on their own', async () => {
  const listed = plugin.commands!.find((c) => c.name === 'spec')!;
  assert.ok(listed.flags!['min-presence']);
  const { io } = recordingIo(work.path);
  assert.is(await listed.run({ flags: { config: shop, format: 'json' }, positionals: [] }, io), 0);
  const { document, observations } = await inferFromConfig(io, shop, { minPresence: 0.5, title: 'Shop' });
  assert.is(document.info.title, 'Shop');
  assert.ok(observations.length > 5);
  try {
    await inferFromConfig(io, config('none2'));
    assert.unreachable();
  } catch (err) {
    assert.instance(err, NoObservationsError);
  }
  const backend = await openStore(`sqlite:${work.path}/shop.db`);
  try {
    const store = backend.forPlugin('capture');
    await store.run("INSERT INTO capture_fields (route, location, status, name, count, parents, kinds, formats, redacted, first_seen, last_seen) VALUES ('GET /x', 'nowhere', 0, 'a', 1, 1, '{}', '{}', 0, 1, 1), ('GET /y', 'query', 0, 'b', 1, 1, 'not json', '{}', 0, 1, 1)");
    const rows = await readFieldObservations(store);
    assert.not.ok(rows.some((r) => r.route === 'GET /x' || r.route === 'GET /y'), 'unreadable rows are skipped');
    assert.is(rows.length, observe(exchanges).length);
  } finally {
    await backend.close();
  }
});

command('PostgreSQL: the same rows read back the same, and infer the same document as on SQLite', async () => {
  if (!(await postgresAvailable('spec-command postgres'))) return;
  const schema = await freshPostgresSchema('apitools_spec');
  const backend = await openStore(schema.url);
  try {
    const store = backend.forPlugin('capture');
    assert.equal(await readFieldObservations(store), [], 'no table yet: no observations');
    const rows = observe(exchanges);
    await writeFieldRows(store, rows);
    const read = await readFieldObservations(store);
    const key = (r: { route: string; location: string; status: number; name: string }) => `${r.route} ${r.location} ${r.status} ${r.name}`;
    assert.equal(read.sort((a, b) => (key(a) < key(b) ? -1 : 1)), rows.sort((a, b) => (key(a) < key(b) ? -1 : 1)));
    assert.equal(inferSpec(read), inferSpec(rows));
  } finally {
    await backend.close();
    await schema.drop();
  }
});

command.run();
