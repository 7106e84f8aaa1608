// `vigil scan` over what a real `vigil run` stored: a policy that masks some fields and not others; the scan finds
// exactly the unmasked ones, prints no raw value in any format, and proposes rules that `vigil validate` accepts.
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { freePort } from '../support/net.js';
import { tempDir } from '../support/tmp.js';
import { fixture } from '../support/paths.js';
import { runVigil, startVigil, writeConfig } from '../support/vigil-process.js';
import { startRecordingUpstream } from '../support/recording-upstream.js';
import { sendThrough, waitForRecord } from '../support/gateway-client.js';

const TOKEN = 'scan-test-token';
const scan = suite('vigil scan');
const work = tempDir('vigil-scan-');
let configFile = '';
let rulesYaml = '';

const JWT = 'eyJhbGciOiJIUzI1NiIsInR5cCI6IkpXVCJ9.eyJzdWIiOiIxMjM0NTY3ODkwIiwibmFtZSI6IkFubiJ9.c2lnbmF0dXJlLWJ5dGVzLWhlcmU';
const PEM = '-----BEGIN RSA PRIVATE KEY-----\nMIIBOgIBAAJBAKj34GkxFhD90vcNLYLInFEX6Ppy1tPf9Cnzj4p4WGeKLs1Pt8Qu\n-----END RSA PRIVATE KEY-----';
const RAW = {
  maskedCard: '4111111111111111', card: '5555555555554444', decoy: '4111111111111112', iban: 'DE89370400440532013000',
  email: 'ann.lee@example.com', queryEmail: 'bob.stone@example.org', jwt: JWT, aws: 'AKIAIOSFODNN7EXAMPLE',
  pemBody: 'MIIBOgIBAAJBAKj34GkxFhD90vcNLYLInFEX6Ppy1tPf9Cnzj4p4WGeKLs1Pt8Qu', bearer: 'live-bearer-Zx81kQ0pLm2VbN7c',
};
const secrets = Object.values(RAW);

type Finding = { route: string; part: string; field: string; kind: string; why: string; records: number; sample: string; rule: string };

let upstream: Awaited<ReturnType<typeof startRecordingUpstream>>;

const headFor = (proxyPort: number, cpPort: number, data: string) => `service:
  upstream: http://127.0.0.1:${upstream.port}
  listen: 127.0.0.1:${proxyPort}
control_plane: { listen: 127.0.0.1:${cpPort}, token: ${TOKEN} }
data_dir: ${work.path}/${data}
`;

/** Runs `vigil run -config file` (its ports and data_dir written by headFor), sends the traffic, stops it. */
async function record(file: string, proxyPort: number, cpPort: number): Promise<void> {
  const cp = `http://127.0.0.1:${cpPort}`;
  const vigil = await startVigil(file, cp, { cwd: work.path });
  try {
    const json = ['Content-Type', 'application/json'];
    await sendThrough(proxyPort, 'POST', '/api/payments/charge', [...json, 'Authorization', `Bearer ${RAW.bearer}`], JSON.stringify({
      card: { number: RAW.maskedCard, backup: RAW.card, decoy: RAW.decoy }, iban: RAW.iban,
    }));
    await sendThrough(proxyPort, 'POST', '/api/users/42/profile', json, JSON.stringify({
      email: RAW.email, session: RAW.jwt, key: RAW.aws, pem: PEM, note: 'order 4111111111111112 shipped',
    }));
    await sendThrough(proxyPort, 'POST', '/api/users/43/profile', json, JSON.stringify({ email: 'cy@example.net' }));
    await sendThrough(proxyPort, 'GET', `/api/search?email=${encodeURIComponent(RAW.queryEmail)}&page=2`, []);
    for (const p of ['/api/payments/charge', '/api/users/42/profile', '/api/users/43/profile', '/api/search']) await waitForRecord(cp, TOKEN, p);
  } finally {
    await vigil.stop('SIGTERM');
  }
}

scan.before(async () => {
  upstream = await startRecordingUpstream({}, (_req, res) => {
    res.writeHead(200, { 'content-type': 'application/json' });
    res.end('{"ok":true}');
  });
  rulesYaml = `rules:
  - name: all
    match: { path: /** }
    redact: { headers: [authorization] }
  - name: payments
    match: { path: /api/payments/** }
    redact: { json_fields: [$.card.number] }
`;
  const proxyPort = await freePort();
  const cpPort = await freePort();
  configFile = writeConfig(work.path, headFor(proxyPort, cpPort, 'data') + rulesYaml, 'vigil.yaml');
  await record(configFile, proxyPort, cpPort);
});

scan.after(() => { upstream?.close(); work.cleanup(); });

const run = (...args: string[]) => runVigil(['scan', ...args], { cwd: work.path });

scan('finds exactly the unmasked values, grouped per route, part and field, with a masked sample and the reason', async () => {
  const { code, stdout, stderr } = await run('-config', configFile, '--format', 'json');
  assert.is(code, 0, stderr);
  const report = JSON.parse(stdout) as { records: number; findings: Finding[] };
  assert.is(report.records, 4);
  const got = report.findings.map((f) => `${f.route} ${f.part} ${f.field} ${f.kind} ${f.records}`).sort();
  assert.equal(got, [
    '/api/payments/** request_body $.card.backup card_number 1',
    '/api/payments/** request_body $.iban iban 1',
    '/api/search query email email 1',
    '/api/users/*/profile request_body $.email email 2',
    '/api/users/*/profile request_body $.key aws_access_key_id 1',
    '/api/users/*/profile request_body $.pem private_key 1',
    '/api/users/*/profile request_body $.session jwt 1',
  ].sort());
  const card = report.findings.find((f) => f.kind === 'card_number')!;
  assert.is(card.why, 'Mastercard, 16 digits, Luhn valid');
  assert.is(card.sample, '5555 **** **** 4444');
  assert.is(report.findings.find((f) => f.route === '/api/search')!.sample, 'b***@example.org');
  assert.is(report.findings.find((f) => f.kind === 'aws_access_key_id')!.sample, 'AKIA…');
  assert.match(report.findings.find((f) => f.kind === 'iban')!.why, /mod-97 valid/);
});

scan('no format prints a raw value', async () => {
  for (const format of ['text', 'json', 'sarif']) {
    const { code, stdout } = await run('-config', configFile, '--format', format);
    assert.is(code, 0);
    for (const s of secrets) assert.not.ok(stdout.includes(s), `${format} printed ${s.slice(0, 6)}…`);
  }
});

scan('the proposed rules pass vigil validate, and with them the same traffic leaves nothing to find', async () => {
  const { stdout } = await run('-config', configFile, '--format', 'json');
  const { findings } = JSON.parse(stdout) as { findings: Finding[] };
  const added = [...new Set(findings.map((f) => f.rule))].map((r) => r.replace(/^/gm, '  ')).join('\n');
  assert.match(added, /json_fields: \["\$\.card\.backup"\]/);
  assert.match(added, /query_params: \["email"\]/);
  const proxyPort = await freePort();
  const cpPort = await freePort();
  const fixed = writeConfig(work.path, `${headFor(proxyPort, cpPort, 'data-fixed')}${rulesYaml}${added}\n`, 'fixed.yaml');
  const validated = await runVigil(['validate', '-config', fixed], { cwd: work.path });
  assert.is(validated.code, 0, `${validated.stdout}${validated.stderr}\n${added}`);
  await record(fixed, proxyPort, cpPort);
  const after = await runVigil(['scan', '-config', fixed, '--format', 'json', '--fail-on-findings'], { cwd: work.path });
  const report = JSON.parse(after.stdout) as { records: number; findings: Finding[] };
  assert.is(report.records, 4);
  assert.equal(report.findings, []);
  assert.is(after.code, 0);
});

scan('SARIF 2.1.0: tool, rules, results with rule ids, messages and locations', async () => {
  const { stdout } = await run('-config', configFile, '--format', 'sarif');
  const sarif = JSON.parse(stdout);
  assert.is(sarif.version, '2.1.0');
  const runRec = sarif.runs[0];
  assert.is(runRec.tool.driver.name, 'vigil scan');
  const ruleIds = runRec.tool.driver.rules.map((r: { id: string }) => r.id);
  assert.ok(ruleIds.includes('vigil-scan/card_number'));
  assert.is(runRec.results.length, 7);
  for (const r of runRec.results) {
    assert.ok(ruleIds.includes(r.ruleId));
    assert.is(runRec.tool.driver.rules[r.ruleIndex].id, r.ruleId);
    assert.type(r.message.text, 'string');
    assert.ok(r.locations[0].logicalLocations[0].fullyQualifiedName);
    assert.is(r.locations[0].physicalLocation.artifactLocation.uri, configFile);
  }
});

scan('text table, --limit, --since and exit codes', async () => {
  const text = await run('-config', configFile);
  assert.is(text.code, 0);
  assert.match(text.stdout, /ROUTE\s+PART\s+FIELD\s+DETECTION/);
  assert.match(text.stdout, /Rules to add/);
  const failing = await run('-config', configFile, '--fail-on-findings');
  assert.is(failing.code, 1);
  const limited = JSON.parse((await run('-config', configFile, '--limit', '1', '--format', 'json')).stdout);
  assert.is(limited.records, 1);
  const recent = JSON.parse((await run('-config', configFile, '--since', '1h', '--format', 'json')).stdout);
  assert.is(recent.records, 4);
  for (const bad of [['--format', 'xml', '-config', configFile], [], ['-config', configFile, '--har', 'x.har'], ['-config', configFile, '--since', 'soon'], ['-config', configFile, '--limit', '0']]) {
    const r = await run(...bad);
    assert.is(r.code, 2, `${bad.join(' ')}: ${r.stderr}`);
  }
});

scan('a HAR file: query, headers, bodies; decoys and plain ids are not reported', async () => {
  const har = fixture('scan/sample.har');
  const { code, stdout } = await run('--har', har, '--format', 'json', '--fail-on-findings');
  assert.is(code, 1);
  const { findings } = JSON.parse(stdout) as { findings: Finding[] };
  assert.equal(findings.map((f) => `${f.route} ${f.part} ${f.field} ${f.kind}`).sort(), [
    '/api/orders/* header X-Service-Token api_key',
    '/api/orders/* query email email',
    '/api/orders/* request_body $.card.number card_number',
    '/api/orders/* request_body $.dni es_dni',
    '/api/orders/* response_body $.iban iban',
  ]);
  assert.is(findings.find((f) => f.kind === 'card_number')!.sample, '4111 **** **** 1111');
  for (const raw of ['4111 1111 1111 1111', 'q8Zr2LmX4vT9nB1cK7yH3pW6sD0fJ5gA', 'ann.lee@example.com', '12345678Z', 'DE89370400440532013000']) {
    assert.not.ok(stdout.includes(raw));
  }
});

scan.run();
