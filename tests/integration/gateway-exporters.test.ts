// Issue 4 acceptance: the gateway with file, webhook, exec and otlp exporters at once, against real local
// receivers. Each receives the same governed records; a receiver that is down for a while misses nothing once it
// recovers; no unredacted value reaches any of them. What each receives is the stored record's JSON text, byte for
// byte (issue 21): the bodies are sent as formatted JSON, which a parse and a stringify on the way would reformat.
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { createServer, type IncomingMessage, type Server } from 'node:http';
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import sqlite3 from 'sqlite3';
import { verifyBodySignature } from '@vigil/plugin-sdk';
import { fixture } from '../support/paths.js';
import { freePort, waitFor } from '../support/net.js';
import { tempDir } from '../support/tmp.js';
import { startVigil, writeConfig, type VigilProcess } from '../support/vigil-process.js';

const CARD = '4111111111111111';
const SECRET_TOKEN = 'sk-live-do-not-leak';
const REQUESTS = 40;

const readBody = (req: IncomingMessage) => new Promise<string>((resolve) => {
  let s = '';
  req.setEncoding('utf8');
  req.on('data', (d) => { s += d; });
  req.on('end', () => resolve(s));
});

function listen(server: Server, port: number) {
  return new Promise<void>((resolve) => server.listen(port, '127.0.0.1', resolve));
}

/** A request body as a client may format it: indented over several lines, `.50`, an escaped `é`. */
const formattedBody = (i: number) => `{\n  "amount": ${i}.50,\n  "note": "caf\\u00e9",\r\n  "card": { "number": "${CARD}" }\n}`;

/** The `record` column of every stored record, by id, read from the SQLite file itself (not through the API). */
async function storedRecords(file: string): Promise<Map<string, string>> {
  const db = await new Promise<sqlite3.Database>((resolve, reject) => {
    const d = new sqlite3.Database(file, sqlite3.OPEN_READONLY, (err) => (err ? reject(err) : resolve(d)));
  });
  try {
    const rows = await new Promise<{ id: string; record: string }[]>((resolve, reject) =>
      db.all('SELECT id, record FROM capture_records', (err: Error | null, r: { id: string; record: string }[]) => (err ? reject(err) : resolve(r))));
    return new Map(rows.map((r) => [r.id, r.record]));
  } finally {
    await new Promise<void>((resolve) => db.close(() => resolve()));
  }
}

const linesOf = (path: string) => (existsSync(path) ? readFileSync(path, 'utf8').split('\n').filter(Boolean) : []);

test('file, webhook, exec and otlp exporters receive the same governed records; a receiver that was down misses nothing', async () => {
  const dir = tempDir();
  const [upstreamPort, proxyPort, cpPort, webhookPort, otlpPort] = await Promise.all([freePort(), freePort(), freePort(), freePort(), freePort()]);

  const upstream = createServer(async (req, res) => {
    await readBody(req);
    res.setHeader('content-type', 'application/json');
    res.end(JSON.stringify({ ok: true, echo: { card: { number: CARD } } }));
  });
  await listen(upstream, upstreamPort);

  // The webhook receiver starts late: the exporter must queue and retry until it is up.
  const webhookIds: string[] = [];
  const webhookBodies: string[] = [];
  let unsigned = 0;
  const webhook = createServer(async (req, res) => {
    const body = await readBody(req);
    webhookBodies.push(body);
    const headers = { signature: req.headers['x-vigil-signature'] as string, timestamp: req.headers['x-vigil-timestamp'] as string };
    if (!verifyBodySignature('s3cret', Buffer.from(body, 'utf8'), headers)) unsigned++;
    for (const r of JSON.parse(body).records) webhookIds.push(r.id);
    res.end('ok');
  });

  const otlpIds: string[] = [];
  const otlpBodies: string[] = [];
  /** Each log record's body, by its `vigil.record.id` attribute. */
  const otlpRecords = new Map<string, unknown>();
  const otlp = createServer(async (req, res) => {
    const body = await readBody(req);
    otlpBodies.push(body);
    const doc = JSON.parse(body);
    for (const rl of doc.resourceLogs ?? []) for (const sl of rl.scopeLogs ?? []) for (const lr of sl.logRecords ?? []) {
      const attr = (lr.attributes ?? []).find((a: { key: string }) => a.key === 'vigil.record.id');
      if (attr) { otlpIds.push(attr.value.stringValue); otlpRecords.set(attr.value.stringValue, lr.body?.stringValue); }
    }
    res.setHeader('content-type', 'application/json');
    res.end('{}');
  });
  await listen(otlp, otlpPort);

  const fileOut = join(dir.path, 'export/records.jsonl');
  const execOut = join(dir.path, 'exec-records.jsonl');
  const config = writeConfig(dir.path, `
data_dir: ${dir.path}/data
control_plane: { listen: 127.0.0.1:${cpPort}, token: test-token }
service:
  upstream: http://127.0.0.1:${upstreamPort}
  listen: 127.0.0.1:${proxyPort}
rules:
  - name: everything
    match: { path: /** }
    redact:
      headers: [Authorization]
      query_params: [token]
  - name: payments
    match: { path: /api/payments/** }
    redact:
      json_fields: [$.**.number]
capture: { batch: 16 }
exporters:
  - { name: archive, type: file, path: ./export/records.jsonl, batch_timeout: 100ms }
  - { name: siem, type: webhook, url: http://127.0.0.1:${webhookPort}/ingest, secret: s3cret, batch_timeout: 100ms, timeout: 2s }
  - { name: pipe, type: exec, command: ${fixture('exporters/append-lines.mjs')}, args: [${execOut}, --ack], ack: true, batch_timeout: 100ms }
  - { name: otel, type: otlp, endpoint: http://127.0.0.1:${otlpPort}, protocol: http/json, batch_timeout: 100ms }
`);
  let vigil: VigilProcess | undefined;
  try {
    vigil = await startVigil(config, `http://127.0.0.1:${cpPort}`);
    for (let i = 0; i < REQUESTS; i++) {
      const res = await fetch(`http://127.0.0.1:${proxyPort}/api/payments/${i}?token=${SECRET_TOKEN}`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', authorization: `Bearer ${SECRET_TOKEN}` },
        body: formattedBody(i),
      });
      assert.is(res.status, 200);
      // The client still sees the upstream's original bytes.
      assert.match(await res.text(), new RegExp(CARD));
    }
    // Down for a while, then up.
    await new Promise((r) => setTimeout(r, 1500));
    await listen(webhook, webhookPort);

    const fileIds = () => linesOf(fileOut).map((l) => JSON.parse(l).id);
    const execIds = () => linesOf(execOut).map((l) => JSON.parse(l).id);
    await waitFor(() => fileIds().length >= REQUESTS && execIds().length >= REQUESTS && otlpIds.length >= REQUESTS && webhookIds.length >= REQUESTS,
      { timeoutMs: 60_000, what: `all receivers to hold ${REQUESTS} records (file ${fileIds().length}, exec ${execIds().length}, otlp ${otlpIds.length}, webhook ${webhookIds.length})` });

    const expected = [...new Set(fileIds())].sort();
    assert.is(expected.length, REQUESTS);
    assert.equal([...new Set(execIds())].sort(), expected, 'exec receiver');
    assert.equal([...new Set(otlpIds)].sort(), expected, 'otlp receiver');
    assert.equal([...new Set(webhookIds)].sort(), expected, 'webhook receiver (was down at first)');

    const everything = [readFileSync(fileOut, 'utf8'), readFileSync(execOut, 'utf8'), ...webhookBodies, ...otlpBodies].join('\n');
    assert.not.ok(everything.includes(CARD), 'a card number reached an exporter');
    assert.not.ok(everything.includes(SECRET_TOKEN), 'a token reached an exporter');
    assert.ok(everything.includes('[REDACTED]'));

    // Byte for byte the stored text: in files and pipes one line each, in webhook bodies joined in the envelope the
    // signature covers, in OTLP as the log record's body.
    const stored = await storedRecords(join(dir.path, 'data/vigil.db'));
    assert.is(stored.size, REQUESTS);
    const sample = stored.values().next().value as string;
    assert.match(sample, /"amount": \d+\.50,\s+"note": "caf\\u00e9",/, 'the body is stored as it was sent');
    for (const [name, lines] of [['file', linesOf(fileOut)], ['exec', linesOf(execOut)]] as const) {
      for (const line of lines) assert.is(line, stored.get(JSON.parse(line).id), `${name} line`);
    }
    for (const body of webhookBodies) {
      const ids = (JSON.parse(body).records as { id: string }[]).map((r) => r.id);
      assert.is(body, `{"records":[${ids.map((id) => stored.get(id)).join(',')}]}`, 'webhook body');
    }
    assert.is(unsigned, 0, 'every webhook body carries a valid signature over the bytes received');
    for (const [id, body] of otlpRecords) assert.is(body, stored.get(id), 'otlp log record body');
  } finally {
    await vigil?.stop('SIGTERM');
    upstream.close(); webhook.close(); otlp.close();
    dir.cleanup();
  }
});

test.run();
