// `vigil review` over what a real `vigil run` stored under the base policy: each head policy changes the rules in a
// known way, and the review must report exactly those changes per route, with the requests each touches, fail only
// on weakening, and count what the stored records cannot tell (bodies sampled out when stored).
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { freePort, waitFor } from '../support/net.js';
import { tempDir } from '../support/tmp.js';
import { runVigil, startVigil, writeConfig } from '../support/vigil-process.js';
import { startRecordingUpstream } from '../support/recording-upstream.js';
import { sendThrough } from '../support/gateway-client.js';

const TOKEN = 'review-test-token';
const review = suite('vigil review over stored records');
const work = tempDir('vigil-review-');
let upstream: Awaited<ReturnType<typeof startRecordingUpstream>>;
let configFile = '';

type Row = { kind: string; direction: string; route: string; part: string; field: string; requests: number };
type Finding = { route: string; part: string; field: string; kind: string; records: number; sample: string };
interface Report {
  verdict: string; requests: number; routes: number; weakening: number; changes: Row[];
  kinds: { kind: string; routes: number; requests: number }[];
  not_compared: { route: string; part: string; reason: string; requests: number }[];
  exposures: { pre_existing: Finding[]; introduced: Finding[]; fixed: Finding[] };
  unexercised_rules: string[];
}

const BASE = `rules:
  - name: all
    match: { path: /** }
    redact: { headers: [authorization], query_params: [token] }
    labels: { tenant: "header:X-Tenant" }
  - name: payments
    match: { path: /api/payments/** }
    redact: { json_fields: [$.card.number, $.card.cvc] }
  - name: admin
    match: { path: /admin/** }
    restrict: [response_body]
  - name: orders
    match: { path: /api/orders/** }
    sample: 0
  - name: search
    match: { path: /api/search }
    sample: 0.5
`;

const policies: Record<string, string> = {
  same: BASE,
  weaker: `rules:
  - name: all
    match: { path: /** }
  - name: payments
    match: { path: /api/payments/** }
    redact: { json_fields: [$.card.cvc] }
  - name: admin
    match: { path: /admin/** }
  - name: orders
    match: { path: /api/orders/** }
    sample: 1
    redact: { json_fields: [$.secret] }
  - name: search
    match: { path: /api/search }
    sample: 1
  - name: unused
    match: { path: /nobody/** }
`,
  stronger: `rules:
  - name: all
    match: { path: /** }
    redact: { headers: [authorization], query_params: [token, email], detect: [email] }
    labels: { tenant: "header:X-Tenant", plan: "header:X-Plan" }
  - name: payments
    match: { path: /api/payments/** }
    redact: { json_fields: [$.card.number, $.card.cvc, $.card.backup] }
  - name: admin
    match: { path: /admin/** }
    restrict: [response_body, request_body]
  - name: orders
    match: { path: /api/orders/** }
    sample: 0
  - name: search
    match: { path: /api/search }
    sample: 0.5
`,
  // Only strengthens, on a field with nothing sensitive in it: the card number in $.card.backup stays in the clear.
  unrelated: BASE.replace('query_params: [token]', 'query_params: [token, q]'),
};

const CARD = '4111111111111111';
const BACKUP = '5555555555554444';

review.before(async () => {
  upstream = await startRecordingUpstream({}, (req, res) => {
    res.writeHead(200, { 'content-type': 'application/json' });
    res.end(req.url?.startsWith('/admin') ? '{"email":"ann.lee@example.com"}' : '{"ok":true}');
  });
  const proxyPort = await freePort();
  const cpPort = await freePort();
  configFile = writeConfig(work.path, `service:
  upstream: http://127.0.0.1:${upstream.port}
  listen: 127.0.0.1:${proxyPort}
control_plane: { listen: 127.0.0.1:${cpPort}, token: ${TOKEN} }
data_dir: ${work.path}/data
${BASE}`);
  for (const [name, text] of Object.entries(policies)) writeConfig(work.path, text, `${name}.yaml`);
  const cp = `http://127.0.0.1:${cpPort}`;
  const vigil = await startVigil(configFile, cp, { cwd: work.path });
  try {
    const json = ['Content-Type', 'application/json'];
    const auth = ['Authorization', 'Bearer live-Zx81kQ0pLm2VbN7c', 'X-Tenant', 'acme'];
    for (let i = 0; i < 3; i++) {
      await sendThrough(proxyPort, 'POST', '/api/payments/charge?token=t1', [...json, ...auth], JSON.stringify({
        amount: 10 + i, card: { number: CARD, cvc: '123', backup: BACKUP }, items: [{ sku: 'a' }, { sku: 'b' }],
      }));
    }
    for (let i = 0; i < 2; i++) await sendThrough(proxyPort, 'GET', '/api/search?q=lamp&token=t2&email=bob%40example.org', auth);
    await sendThrough(proxyPort, 'GET', '/admin/users/7', []);
    for (const id of [11, 12]) await sendThrough(proxyPort, 'POST', `/api/orders/${id}`, json, '{"secret":"s3cr3t-value","note":"hi"}');
    await waitFor(async () => {
      const res = await fetch(`${cp}/api/gateway/records?limit=200`, { headers: { authorization: `Bearer ${TOKEN}` } });
      return ((await res.json()) as { data: unknown[] }).data.length === 8;
    }, { what: '8 stored records', timeoutMs: 15_000 });
  } finally {
    await vigil.stop('SIGTERM');
  }
});

review.after(() => { upstream?.close(); work.cleanup(); });

const run = (...args: string[]) => runVigil(['review', ...args], { cwd: work.path });
async function reviewJson(head: string, ...more: string[]): Promise<{ code: number | null; report: Report; stderr: string }> {
  const r = await run('--base', 'same.yaml', '--head', `${head}.yaml`, '-config', configFile, '--format', 'json', ...more);
  return { code: r.code, report: JSON.parse(r.stdout || '{}') as Report, stderr: r.stderr };
}
const rows = (report: Report, direction?: string) => report.changes.filter((c) => !direction || c.direction === direction)
  .map((c) => `${c.kind} | ${c.route} | ${c.part} | ${c.field} | ${c.requests}`).sort();

review('the same policy: every request decided alike, exit 0', async () => {
  const { code, report } = await reviewJson('same');
  assert.is(code, 0);
  assert.is(report.verdict, 'pass');
  assert.is(report.requests, 8);
  assert.is(report.routes, 4);
  assert.equal(report.changes, []);
});

review('a weaker head: every weakening kind per route with the requests it touches, exit 1', async () => {
  const { code, report, stderr } = await reviewJson('weaker');
  assert.is(code, 1, stderr);
  assert.is(report.verdict, 'fail');
  assert.equal(rows(report), [
    'captures_restricted_body | GET /admin/users/{id} | response_body | response_body | 1',
    'drops_label | GET /admin/users/{id} | route | tenant | 1',
    'drops_label | GET /api/search | route | tenant | 2',
    'drops_label | POST /api/orders/{id} | route | tenant | 2',
    'drops_label | POST /api/payments/charge | route | tenant | 3',
    'keeps_more_bodies | GET /api/search | route | sample 0.5 → 1 | 2',
    'keeps_more_bodies | POST /api/orders/{id} | route | sample 0 → 1 | 2',
    // The stored value was masked: the path is known, and that is all the comparison needs.
    'stops_redacting_header | GET /api/search | request_header | Authorization | 2',
    'stops_redacting_header | POST /api/payments/charge | request_header | Authorization | 3',
    'stops_redacting_json_field | POST /api/payments/charge | request_body | $.card.number | 3',
    'stops_redacting_query_param | GET /api/search | query | token | 2',
    'stops_redacting_query_param | POST /api/payments/charge | query | token | 3',
  ].sort());
  assert.is(report.weakening, 12);
  const labels = report.kinds.find((k) => k.kind === 'drops_label')!;
  assert.equal([labels.routes, labels.requests], [4, 8]);
  // Bodies the base policy never kept: their JSON paths are unknown, and the report says so.
  assert.equal(report.not_compared.map((m) => `${m.route} ${m.part} ${m.reason} ${m.requests}`).sort(), [
    'POST /api/orders/{id} request_body body sampled out when stored 2',
    'POST /api/orders/{id} response_body body sampled out when stored 2',
  ]);
  assert.equal(report.unexercised_rules, ['unused']);
});

review('a stronger head: strengthening rows and fixed exposures, exit 0', async () => {
  const { code, report } = await reviewJson('stronger');
  assert.is(code, 0);
  assert.is(report.verdict, 'pass');
  assert.is(report.weakening, 0);
  assert.equal(rows(report), [
    'adds_label | GET /admin/users/{id} | route | plan | 1',
    'adds_label | GET /api/search | route | plan | 2',
    'adds_label | POST /api/orders/{id} | route | plan | 2',
    'adds_label | POST /api/payments/charge | route | plan | 3',
    'restricts_body | GET /admin/users/{id} | request_body | request_body | 1',
    'starts_detecting | GET /admin/users/{id} | route | email | 1',
    'starts_detecting | GET /api/search | route | email | 2',
    'starts_detecting | POST /api/orders/{id} | route | email | 2',
    'starts_detecting | POST /api/payments/charge | route | email | 3',
    'starts_redacting_json_field | POST /api/payments/charge | request_body | $.card.backup | 3',
    'starts_redacting_query_param | GET /api/search | query | email | 2',
  ].sort());
  const fixed = report.exposures.fixed.map((f) => `${f.route} ${f.part} ${f.field} ${f.kind} ${f.records}`).sort();
  assert.equal(fixed, ['/api/payments/** request_body $.card.backup card_number 3', '/api/search query email email 2']);
  assert.equal(report.exposures.introduced, []);
});

review('pre-existing exposures are reported and do not fail the review', async () => {
  const { code, report } = await reviewJson('unrelated');
  assert.is(code, 0);
  assert.equal(rows(report), ['starts_redacting_query_param | GET /api/search | query | q | 2']);
  const pre = report.exposures.pre_existing.map((f) => `${f.route} ${f.part} ${f.field} ${f.kind} ${f.records}`).sort();
  assert.ok(pre.includes('/api/payments/** request_body $.card.backup card_number 3'), pre.join('\n'));
  assert.ok(pre.includes('/api/search query email email 2'), pre.join('\n'));
  assert.is(report.exposures.pre_existing.find((f) => f.kind === 'card_number')!.sample, '5555 **** **** 4444');
});

review('--markdown: the comment with its verdict, a table per kind, counts, and no raw value', async () => {
  const { code, stdout } = await run('--base', 'same.yaml', '--head', 'weaker.yaml', '-config', configFile, '--markdown');
  assert.is(code, 1);
  assert.ok(stdout.startsWith('<!-- vigil-review -->\n### ❌ Vigil policy review: 12 weakening changes'), stdout.slice(0, 200));
  assert.match(stdout, /over \*\*8\*\* requests on \*\*4\*\* routes/);
  assert.match(stdout, /\| Stops redacting a JSON field \| ⚠️ weakening \| 1 \| 3 \|/);
  assert.match(stdout, /\| Drops a label \| ⚠️ weakening \| 4 \| 8 \|/);
  assert.match(stdout, /#### Stops redacting a JSON field\n\n\| Route \| Part \| Field \| Requests \|\n\|---\|---\|---\|---:\|\n\| `POST \/api\/payments\/charge` \| request_body \| `\$\.card\.number` \| 3 \|/);
  assert.match(stdout, /<details><summary>Not compared: 4 request parts the stored records do not hold<\/summary>/);
  for (const raw of [CARD, BACKUP, 'live-Zx81kQ0pLm2VbN7c', 'bob@example.org', 's3cr3t-value']) assert.not.ok(stdout.includes(raw), raw);
  const passing = await run('--base', 'same.yaml', '--head', 'stronger.yaml', '-config', configFile, '--markdown');
  assert.is(passing.code, 0);
  assert.match(passing.stdout, /^<!-- vigil-review -->\n### ✅ Vigil policy review: no weakening/);
  assert.match(passing.stdout, /<details><summary>Strengthening \(11 rows\)<\/summary>/);
});

review('text output, --limit and --since, and usage errors exit 2', async () => {
  const text = await run('--base', 'same.yaml', '--head', 'weaker.yaml', '-config', configFile);
  assert.is(text.code, 1);
  assert.match(text.stdout, /FAIL: 12 weakening changes introduced by this policy change\./);
  assert.match(text.stdout, /stops_redacting_json_field\s+POST \/api\/payments\/charge\s+request_body\s+\$\.card\.number\s+3/);
  assert.is((await reviewJson('same', '--limit', '1')).report.requests, 1);
  assert.is((await reviewJson('same', '--since', '1h')).report.requests, 8);
  for (const bad of [
    ['--head', 'same.yaml', '-config', configFile],
    ['--base', 'same.yaml', '-config', configFile],
    ['--base', 'same.yaml', '--head', 'same.yaml'],
    ['--base', 'same.yaml', '--head', 'same.yaml', '-config', configFile, '--sample', 'x.yaml'],
    ['--base', 'same.yaml', '--head', 'same.yaml', '-config', configFile, '--format', 'sarif'],
    ['--base', 'same.yaml', '--head', 'same.yaml', '-config', configFile, '--markdown', '--format', 'json'],
    ['--base', 'same.yaml', '--head', 'same.yaml', '-config', configFile, '--since', 'soon'],
    ['--base', 'same.yaml', '--head', 'same.yaml', '-config', configFile, '--limit', '0'],
    ['--base', 'same.yaml', '--head', 'missing.yaml', '-config', configFile],
    ['--base', 'same.yaml', '--head', 'same.yaml', '-config', configFile, 'extra'],
  ]) {
    const r = await run(...bad);
    assert.is(r.code, 2, `${bad.join(' ')}: ${r.stderr}`);
  }
});

review.run();
