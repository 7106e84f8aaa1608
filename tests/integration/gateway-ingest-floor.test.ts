// Issue 30, part 3: records a middleware sends get the agent's own policy as a floor. A `vigil run` agent whose
// policy masks Authorization, Cookie, `?token=`, `$.password` and card numbers is sent records that carry all of
// them in clear (a middleware with an old or wrong policy): the stored records hold the marker wherever the agent's
// policy says so, through the list and the detail route, `vigil scan` finds nothing left in them, a route the
// agent's policy restricts is not stored at all, and the agent says (answer, record, metric) what it had to mask.
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { uuidv7 } from '@vigil/plugin-sdk';
import { freePort } from '../support/net.js';
import { tempDir } from '../support/tmp.js';
import { runVigil, startVigil, writeConfig, type VigilProcess } from '../support/vigil-process.js';

type Rec = Record<string, any>;
const TOKEN = 'ingest-floor-dashboard-token';
const INGEST = 'ingest-floor-ingest-token-0123456789';
const floor = suite('middleware records: the agent\'s policy is the floor');
const work = tempDir('vigil-ingest-floor-');
let vigil: VigilProcess | undefined;
let cp = '';
let configFile = '';

const SECRET = {
  bearer: 'Bearer live-Zx81kQ0pLm2VbN7cQ4', cookie: 'sid=cookie-s3cr3t-4e1d', setCookie: 'session=resp-s3cr3t-9a7f',
  token: 'tok-query-s3cr3t-77a1', password: 'hunter2-Pa55w0rd', card: '4111 1111 1111 1111', cardPlain: '5555555555554444',
  nestedPassword: 'n3sted-Pa55w0rd', pathToken: 'tok-in-path-s3cr3t-5b2c', textPassword: 'text-Pa55w0rd-11',
};

floor.before(async () => {
  const cpPort = await freePort();
  cp = `http://127.0.0.1:${cpPort}`;
  configFile = writeConfig(work.path, `control_plane: { listen: 127.0.0.1:${cpPort}, token: ${TOKEN} }
capture: { ingest_token: ${INGEST}, batch_delay: 5ms }
data_dir: ${work.path}/data
rules:
  - name: all
    match: { path: /** }
    labels: { tenant: header:X-Tenant, who: header:Authorization }
    redact: { headers: [Authorization, Cookie, Set-Cookie], query_params: [token] }
  - name: users
    match: { path: /api/users/** }
    redact: { json_fields: [$.password, $.**.password], detect: [card_number] }
  - name: admin
    match: { path: /admin/** }
    restrict: [request_body, response_body, headers]
  - name: uploads
    match: { path: /api/uploads/** }
    restrict: [request_body]
`, 'vigil.yaml');
  vigil = await startVigil(configFile, cp, { cwd: work.path });
});

floor.after(async () => {
  await vigil?.stop('SIGKILL');
  work.cleanup();
});

/** A record as a middleware sends it: every key of a stored record, nothing governed by the agent's policy. */
function record(over: Rec): Rec {
  return {
    id: uuidv7(), time: Date.now(), method: 'POST', path: '/api/users/7', route: ['/**'], query: {}, status: 200, duration_ms: 3,
    headers: { 'Content-Type': 'application/json' }, response_headers: { 'Content-Type': 'application/json' },
    request_body: null, response_body: null, labels: {}, matched_rules: ['all'], tokens: null, sampled: true,
    truncated: false, partial: false, dropped_reason: null, error: null, ...over,
  };
}

const post = async (records: Rec[]) => {
  const res = await fetch(`${cp}/api/gateway/records`, {
    method: 'POST', body: JSON.stringify({ records }), headers: { 'content-type': 'application/json', authorization: `Bearer ${INGEST}` },
  });
  return { status: res.status, body: (await res.json()) as Rec };
};
const get = async (path: string) => {
  const res = await fetch(`${cp}${path}`, { headers: { authorization: `Bearer ${TOKEN}` } });
  return { status: res.status, body: (await res.json()) as Rec };
};
const listed = async (id: string): Promise<Rec | undefined> => ((await get('/api/gateway/records?limit=200')).body.data as Rec[]).find((r) => r.id === id);
const metric = async (line: RegExp): Promise<number> => {
  const text = await (await fetch(`${cp}/metrics`, { headers: { authorization: `Bearer ${TOKEN}` } })).text();
  const m = line.exec(text);
  return m ? Number(m[1]) : 0;
};

const leaky = record({
  path: '/api/users/7',
  query: { token: SECRET.token, page: '2' },
  headers: { 'Content-Type': 'application/json', Authorization: SECRET.bearer, cookie: [SECRET.cookie, 'theme=dark'], 'X-Tenant': 'acme' },
  response_headers: { 'Content-Type': 'application/json', 'Set-Cookie': SECRET.setCookie },
  request_body: { name: 'Ada', password: SECRET.password, card: SECRET.card, profile: { password: SECRET.nestedPassword } },
  response_body: { ok: true, note: `charged ${SECRET.cardPlain}` },
  labels: { tenant: 'acme', who: SECRET.bearer },
  matched_rules: ['all'],
});
const inPath = record({ method: 'GET', path: `/api/users/8?token=${SECRET.pathToken}&page=3`, query: {} });
const textBody = record({ path: '/api/users/9', request_body: `{"password":"${SECRET.textPassword}"}` });
const restricted = record({ path: '/admin/settings', headers: { Authorization: SECRET.bearer }, request_body: { password: SECRET.password } });
const partlyRestricted = record({ path: '/api/uploads/1', request_body: { file: 'private-upload-bytes' }, response_body: { id: 1 } });
const clean = record({ method: 'GET', path: '/api/items', headers: { Authorization: '[REDACTED]', Accept: 'application/json' }, query: { token: '[REDACTED]' } });

floor('the POST says how many records the agent had to govern, and stores none of a route its policy restricts', async () => {
  const res = await post([leaky, inPath, textBody, restricted, partlyRestricted, clean]);
  assert.is(res.status, 200, JSON.stringify(res.body));
  assert.equal(res.body, { stored: 5, duplicates: 0, redacted_by_agent: 4, restricted: 1 });
  assert.is((await get(`/api/gateway/records/${restricted.id}`)).status, 404, 'a route the agent restricts is not stored');
  assert.is(await listed(restricted.id), undefined);
});

floor('every value the agent\'s policy masks reads [REDACTED], in the list and in the detail', async () => {
  const one = (await get(`/api/gateway/records/${leaky.id}`)).body;
  const inList = await listed(leaky.id);
  assert.equal(inList, one, 'the list serves the same record');
  const text = JSON.stringify(one);
  for (const s of Object.values(SECRET)) assert.not.ok(text.includes(s), `${s} stored in clear`);
  assert.not.ok(text.includes('4111111111111111') || text.includes('1111 1111 1111'), 'the card number stored');
  assert.is(one.headers.Authorization, '[REDACTED]');
  assert.equal(one.headers.cookie, ['[REDACTED]', '[REDACTED]'], 'every value of a header, whatever its spelling');
  assert.is(one.headers['X-Tenant'], 'acme');
  assert.is(one.response_headers['Set-Cookie'], '[REDACTED]');
  assert.equal(one.query, { token: '[REDACTED]', page: '2' });
  assert.is(one.request_body.password, '[REDACTED]');
  assert.is(one.request_body.profile.password, '[REDACTED]');
  assert.is(one.request_body.name, 'Ada');
  assert.is(one.request_body.card, '[REDACTED]', 'the card detector masks the span');
  assert.is(one.response_body.note, 'charged [REDACTED]');
  assert.equal(one.labels, { tenant: 'acme', who: '[REDACTED]' }, 'a label read from a header the agent redacts');
  assert.equal(one.agent_masked, [
    'query.token', 'headers.Authorization', 'headers.cookie', 'response_headers.Set-Cookie', 'labels.who',
    'request_body.$.password', 'request_body.$.card', 'request_body.$.profile.password', 'response_body.$.note',
  ]);
});

floor('a query left in the path, a body the agent cannot govern by path, and a restricted part', async () => {
  const q = (await get(`/api/gateway/records/${inPath.id}`)).body;
  assert.is(q.path, '/api/users/8');
  assert.equal(q.query, { token: '[REDACTED]', page: '3' });
  assert.ok(q.agent_masked.includes('query.token'));

  const t = (await get(`/api/gateway/records/${textBody.id}`)).body;
  assert.is(t.request_body, null, 'text where json_fields apply is not stored');
  assert.match(t.dropped_reason, /request_body: .*json_fields/);
  assert.ok(t.agent_masked.includes('request_body'));
  assert.not.ok(JSON.stringify(t).includes(SECRET.textPassword));

  const u = (await get(`/api/gateway/records/${partlyRestricted.id}`)).body;
  assert.is(u.request_body, null);
  assert.equal(u.response_body, { id: 1 });
  assert.equal(u.agent_masked, ['request_body']);
});

floor('a record the middleware governed as the agent would is stored as sent, without a flag', async () => {
  const c = (await get(`/api/gateway/records/${clean.id}`)).body;
  assert.equal(c, clean);
  assert.is('agent_masked' in c, false);
});

floor('the counter moves per reason, and a batch sent again counts nothing twice', async () => {
  const reason = (r: string) => metric(new RegExp(`^vigil_capture_records_regoverned_total\\{reason="${r}"\\} (\\d+)$`, 'm'));
  assert.is(await reason('header'), 1, 'records with a header masked');
  assert.is(await reason('query_param'), 2);
  assert.is(await reason('json_field'), 1);
  assert.is(await reason('detector'), 1);
  assert.is(await reason('body_dropped'), 1);
  assert.is(await reason('restrict'), 1);
  assert.is(await reason('route_restricted'), 1);
  const again = await post([leaky, clean]);
  assert.equal(again.body, { stored: 0, duplicates: 2, redacted_by_agent: 0, restricted: 0 });
  assert.is(await reason('header'), 1);
});

floor('vigil scan finds nothing unmasked in what the agent stored', async () => {
  await vigil!.stop('SIGTERM');
  vigil = undefined;
  const { code, stdout, stderr } = await runVigil(['scan', '-config', configFile, '--format', 'json'], { cwd: work.path });
  assert.is(code, 0, stderr);
  const report = JSON.parse(stdout) as { records: number; findings: unknown[] };
  assert.is(report.records, 5);
  assert.equal(report.findings, []);
  for (const s of Object.values(SECRET)) assert.not.ok(stdout.includes(s));
});

floor.run();
