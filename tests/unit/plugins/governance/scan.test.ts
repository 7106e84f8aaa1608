import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { ScanCollector, entropy, mayHold, maskFinding, pathTemplate, routeOf, ruleSnippet, type ScanInput } from '../../../../plugins/governance/scan/scan-core.js';
import { harEntries } from '../../../../plugins/governance/scan/scan-sources.js';
import { durationMs, runScan } from '../../../../plugins/governance/scan/scan-command.js';
import { sarifReport } from '../../../../plugins/governance/scan/scan-output.js';
import plugin from '../../../../plugins/governance/index.js';
import { recordingIo } from '../../../support/command-io.js';

const scan = suite('governance: scan core');

const input = (over: Partial<ScanInput>): ScanInput => ({
  id: 'r1', method: 'POST', path: '/api/x', route: ['/**'], query: {}, headers: {}, request_body: null, response_body: null, ...over,
});

scan('masks: cards as on a receipt, emails, keys to four characters, PEM to its header', () => {
  assert.is(maskFinding('card_number', '4111111111111111'), '4111 **** **** 1111');
  assert.is(maskFinding('card_number', '378282246310005'), '3782 **** ***0 005');
  assert.is(maskFinding('email', 'ann@example.com'), 'a***@example.com');
  assert.is(maskFinding('aws_access_key_id', 'AKIAIOSFODNN7EXAMPLE'), 'AKIA…');
  assert.is(maskFinding('private_key', '-----BEGIN EC PRIVATE KEY-----\nabc'), '-----BEGIN EC PRIVATE KEY-----…');
  assert.is(maskFinding('es_dni', '12345678Z'), '********Z');
  assert.not.ok(maskFinding('nl_bsn', '111222333').includes('111222333'));
});

scan('routes: the most specific matched glob, else the path with ids as *', () => {
  assert.is(routeOf(input({ route: ['/**', '/api/pay/**'] })), '/api/pay/**');
  assert.is(routeOf(input({ route: ['/**'], path: '/users/42/cards/5f3a9c2e-1b2d-4c3e-9f00-1234567890ab' })), '/users/*/cards/*');
  assert.is(pathTemplate('/v1/items'), '/v1/items');
});

scan('rule snippets per part', () => {
  assert.is(ruleSnippet('/api/**', 'request_body', '$.card.number', 'card_number'),
    '- name: scan-request-body-api-card-number\n  match: { path: "/api/**" }\n  redact: { json_fields: ["$.card.number"] }');
  assert.match(ruleSnippet('/a', 'header', 'X-Key', 'api_key'), /redact: \{ headers: \["X-Key"\] \}/);
  assert.match(ruleSnippet('/a', 'query', 'email', 'email'), /redact: \{ query_params: \["email"\] \}/);
  assert.match(ruleSnippet('/a', 'response_body', '$', 'email'), /redact: \{ detect: \[email\] \}/);
  assert.match(ruleSnippet('/a', 'response_body', '$', 'es_dni'), /restrict: \[response_body\]/);
});

scan('collects: masked markers and decoys are not findings; records are counted per finding', () => {
  const c = new ScanCollector();
  c.add(input({ id: 'a', request_body: { card: '[REDACTED]', decoy: '4111111111111112', ts: 1700000000000, items: [{ mail: 'x@example.com' }] } }));
  c.add(input({ id: 'b', request_body: { items: [{ mail: 'y@example.com' }, { mail: 'z@example.com' }] } }));
  c.add(input({ id: 'c', headers: { Authorization: '[REDACTED]', 'X-Api-Token': 'q8Zr2LmX4vT9nB1cK7yH3pW6sD0fJ5gA', 'X-Request-Id': 'aaaaaaaaaaaaaaaaaaaa' }, query: { bsn: '111222333', id: '111222333' } }));
  c.add(input({ id: 'd', response_headers: { 'X-Session-Token': 'Zq81LmX4vT9nB1cK7yH3pW6sD0fJ5gAr' } }));
  const got = c.findings().map((f) => `${f.part} ${f.field} ${f.kind} ${f.records}`);
  assert.equal(got, ['request_body $.items.*.mail email 2', 'header X-Api-Token api_key 1', 'header X-Session-Token api_key 1', 'query bsn nl_bsn 1']);
  assert.ok(entropy('aaaa') === 0);
});

scan('the prefilter lets every detectable kind through and skips plain words', () => {
  for (const v of ['4111111111111111', 'DE89370400440532013000', 'a@b.co', 'eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiIxIn0.x', 'AKIAIOSFODNNZEXAMPLE',
    'AIzaSyAaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa', 'sk-proj-abcdefghijklmnopqrstuv', 'ghp_abc', '-----BEGIN PRIVATE KEY-----', 'Bearer abcdefgh',
    'apikey: abcdefghijklmnopq', '12345678Z', '123-45-6789']) assert.ok(mayHold(v), v);
  for (const v of ['visa', 'application/json', 'Hello World', '[REDACTED]']) assert.not.ok(mayHold(v), v);
});

scan('HAR entries: url query, headers, JSON and base64 bodies; not a HAR is refused', () => {
  const [e] = harEntries(JSON.stringify({ log: { entries: [{
    request: { method: 'GET', url: 'https://h/x/1?q=a@b.co', headers: [{ name: 'A', value: '1' }] },
    response: { content: { encoding: 'base64', text: Buffer.from('{"k":1}').toString('base64') } },
  }] } }));
  assert.equal(e.query, { q: ['a@b.co'] });
  assert.equal(e.response_body, { k: 1 });
  assert.is(e.path, '/x/1');
  assert.throws(() => harEntries('{}'), /not a HAR/);
});

scan('durations, SARIF without findings, usage errors exit 2', async () => {
  assert.is(durationMs('7d'), 7 * 86_400_000);
  assert.is(durationMs('7 days'), null);
  const empty = JSON.parse(sarifReport({ source: 'x', records: 0, findings: [] }, '0', undefined));
  assert.is(empty.version, '2.1.0');
  assert.equal(empty.runs[0].results, []);
  const { io, err } = recordingIo(process.cwd());
  assert.is(await runScan({ flags: {}, positionals: [] }, io, '0'), 2);
  assert.match(err(), /Usage: vigil scan/);
  const listed = plugin.commands!.find((c) => c.name === 'scan')!;
  assert.is(await listed.run({ flags: { har: 'x.har', limit: '3' }, positionals: [] }, io), 2);
});

scan.run();
