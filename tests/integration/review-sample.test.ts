// `vigil review --sample`: the traffic is a file (requests in the `vigil test` case format, a `vigil test` cases file,
// or a HAR 1.2 file), so raw values are there and the review can show which sensitive-looking values a change lets
// through. Also: JSON paths under arrays and masked subtrees, detectors, restricted headers, keep_errors, and a
// comment that traffic cannot inject markup into.
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { tempDir } from '../support/tmp.js';
import { fixture, fromRoot } from '../support/paths.js';
import { runVigil, writeConfig } from '../support/vigil-process.js';

const sample = suite('vigil review --sample');
const work = tempDir('vigil-review-sample-');

type Row = { kind: string; direction: string; route: string; part: string; field: string; requests: number };
type Finding = { route: string; part: string; field: string; kind: string; records: number };
interface Report { verdict: string; requests: number; changes: Row[]; exposures: { introduced: Finding[]; pre_existing: Finding[] } }

writeConfig(work.path, `rules:
  - name: payments
    match: { path: /api/payments/** }
    redact: { json_fields: [$.card, $.items.*.token, $.meta] }
  - name: users
    match: { path: /api/users/** }
    redact: { detect: [email] }
  - name: internal
    match: { path: /internal/** }
    restrict: [headers]
  - name: jobs
    match: { path: /api/jobs/** }
    sample: 0.2
  - name: orders
    match: { path: /api/orders/** }
    redact: { json_fields: [$.card.number] }
`, 'base.yaml');
writeConfig(work.path, `rules:
  - name: payments
    match: { path: /api/payments/** }
    redact: { json_fields: [$.card.number] }
  - name: users
    match: { path: /api/users/** }
  - name: internal
    match: { path: /internal/** }
  - name: jobs
    match: { path: /api/jobs/** }
    sample: 0.2
    keep_errors: true
  - name: orders
    match: { path: /api/orders/** }
`, 'head.yaml');
writeConfig(work.path, `requests:
  - request:
      method: POST
      path: /api/payments/charge
      body:
        card: { number: "4111111111111111", cvc: "123", holder: Ada }
        items: [{ token: tok_1, sku: a }, { token: tok_2, sku: b }]
        meta: { "a|b\`<img src=x onerror=alert(1)>": 1 }
  - request: { method: GET, path: /api/users/42 }
    response: { body: { email: ann.lee@example.com } }
  - request: { method: GET, path: /internal/stats, headers: { X-Debug: "1" } }
  - request: { method: GET, path: /api/jobs/1 }
    response: { status: 503, body: { error: busy } }
  - request: { method: GET, path: /api/jobs/2 }
    response: { status: 200, body: { ok: true } }
`, 'sample.yaml');

const run = (...args: string[]) => runVigil(['review', ...args], { cwd: work.path });
async function reviewJson(...args: string[]): Promise<{ code: number | null; report: Report; stderr: string }> {
  const r = await run(...args, '--format', 'json');
  return { code: r.code, report: JSON.parse(r.stdout || '{}') as Report, stderr: r.stderr };
}
const rows = (report: Report) => report.changes.map((c) => `${c.kind} | ${c.route} | ${c.part} | ${c.field} | ${c.requests}`).sort();

sample('requests in the case format: masked subtrees, arrays, detectors, restrictions, keep_errors', async () => {
  const { code, report, stderr } = await reviewJson('--base', 'base.yaml', '--head', 'head.yaml', '--sample', 'sample.yaml');
  assert.is(code, 1, stderr);
  assert.is(report.requests, 5);
  assert.equal(rows(report), [
    'captures_restricted_headers | GET /internal/stats | headers | headers | 1',
    'keeps_more_bodies | GET /api/jobs/{id} | route | keep_errors off → on (status 503) | 1',
    'stops_detecting | GET /api/users/{id} | route | email | 1',
    // base masked the whole `card`; head masks only its number: the rest of it is now stored.
    'stops_redacting_json_field | POST /api/payments/charge | request_body | $.card.cvc | 1',
    'stops_redacting_json_field | POST /api/payments/charge | request_body | $.card.holder | 1',
    // Two array elements, one row, one request.
    'stops_redacting_json_field | POST /api/payments/charge | request_body | $.items.*.token | 1',
    "stops_redacting_json_field | POST /api/payments/charge | request_body | $.meta['a|b`<img src=x onerror=alert(1)>'] | 1",
  ]);
  const introduced = report.exposures.introduced.map((f) => `${f.route} ${f.part} ${f.field} ${f.kind}`);
  assert.equal(introduced, ['/api/users/* response_body $.email email']);
});

sample('the comment puts traffic-made text in code spans that cannot break out', async () => {
  const { code, stdout } = await run('--base', 'base.yaml', '--head', 'head.yaml', '--sample', 'sample.yaml', '--markdown');
  assert.is(code, 1);
  const line = stdout.split('\n').find((l) => l.includes('onerror'))!;
  assert.is(line, "| `POST /api/payments/charge` | request_body | ``$.meta['a\\|b`<img src=x onerror=alert(1)>']`` | 1 |");
  assert.not.ok(stdout.includes('ann.lee@example.com'));
  assert.ok(stdout.includes('a***@example.com'));
});

sample('a HAR 1.2 file', async () => {
  const { code, report } = await reviewJson('--base', 'base.yaml', '--head', 'head.yaml', '--sample', fixture('scan/sample.har'));
  assert.is(code, 1);
  assert.equal(rows(report), ['stops_redacting_json_field | POST /api/orders/{id} | request_body | $.card.number | 1']);
  assert.equal(report.exposures.introduced.map((f) => `${f.field} ${f.kind}`), ['$.card.number card_number']);
  // The IBAN in the response and the DNI in the request: neither policy masks them.
  assert.equal(report.exposures.pre_existing.map((f) => `${f.part} ${f.field} ${f.kind}`).sort(), [
    'header X-Service-Token api_key', 'query email email', 'request_body $.dni es_dni', 'response_body $.iban iban',
  ]);
});

sample('a vigil test cases file serves as a sample as it is', async () => {
  const policy = fromRoot('examples/policy.yaml');
  const { code, report, stderr } = await reviewJson('--base', policy, '--head', policy, '--sample', fromRoot('examples/policy.cases.yaml'));
  assert.is(code, 0, stderr);
  assert.ok(report.requests >= 5, String(report.requests));
  assert.equal(report.changes, []);
});

sample('WASM modules, a label read from another header, fewer bodies kept: reported, and only the first fails', async () => {
  writeConfig(work.path, `rules:
  - name: jobs
    match: { path: /api/jobs/** }
    sample: 0.2
    wasm: ./guard.wasm
    labels: { tenant: "header:X-Tenant" }
`, 'wasm-base.yaml');
  const head = `rules:
  - name: jobs
    match: { path: /api/jobs/** }
    sample: 0.1
    labels: { tenant: "header:X-Org" }
`;
  writeConfig(work.path, head, 'wasm-head.yaml');
  const { code, report } = await reviewJson('--base', 'wasm-base.yaml', '--head', 'wasm-head.yaml', '--sample', 'sample.yaml');
  assert.is(code, 1);
  assert.equal(rows(report), [
    'changes_label_source | GET /api/jobs/{id} | route | tenant: header:x-tenant → header:x-org | 2',
    'drops_wasm_policy | GET /api/jobs/{id} | route | ./guard.wasm | 2',
    // The 503 is kept under neither (no keep_errors): both requests' chance drops.
    'keeps_fewer_bodies | GET /api/jobs/{id} | route | sample 0.2 → 0.1 | 2',
  ]);
  assert.is(report.changes.find((c) => c.kind === 'changes_label_source')!.direction, 'changed');
  // Adding the module back is strengthening: exit 0.
  writeConfig(work.path, head.replace('sample: 0.1', 'sample: 0.1\n    wasm: ./guard.wasm'), 'wasm-head2.yaml');
  const back = await reviewJson('--base', 'wasm-head.yaml', '--head', 'wasm-head2.yaml', '--sample', 'sample.yaml');
  assert.is(back.code, 0);
  assert.equal(rows(back.report), ['adds_wasm_policy | GET /api/jobs/{id} | route | ./guard.wasm | 2']);
});

sample('a bad sample file is refused with its place, exit 2', async () => {
  writeConfig(work.path, 'requests:\n  - request: { method: GET, path: /a }\n    reponse: { status: 200 }\n', 'typo.yaml');
  let r = await run('--base', 'base.yaml', '--head', 'head.yaml', '--sample', 'typo.yaml');
  assert.is(r.code, 2);
  assert.match(r.stderr, /typo\.yaml:3:5: unknown key requests\[0\]\.reponse \(did you mean response\?\)/);
  writeConfig(work.path, 'other: 1\n', 'neither.yaml');
  r = await run('--base', 'base.yaml', '--head', 'head.yaml', '--sample', 'neither.yaml');
  assert.is(r.code, 2);
  writeConfig(work.path, 'requests: []\n', 'empty.yaml');
  assert.is((await run('--base', 'base.yaml', '--head', 'head.yaml', '--sample', 'empty.yaml')).code, 2);
  writeConfig(work.path, '{ "log": { "version": "1.2" } }', 'bad.har');
  r = await run('--base', 'base.yaml', '--head', 'head.yaml', '--sample', 'bad.har');
  assert.is(r.code, 2);
  assert.match(r.stderr, /bad\.har: not a HAR file: no log\.entries list/);
  r = await run('--base', 'base.yaml', '--head', 'head.yaml', '--sample', 'nowhere.yaml');
  assert.is(r.code, 2);
  assert.match(r.stderr, /nowhere\.yaml: cannot read the sample file/);
});

sample.after(() => work.cleanup());
sample.run();
