import { createHmac } from 'node:crypto';
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { isPermanent, verifyBodySignature } from '@vigil/plugin-sdk';
import { createWebhookExporter, redactUrl } from '../../../../plugins/exporters/webhook-exporter.js';
import { ExporterErrors } from '../../../../plugins/exporters/errors.js';
import { createDeliveryQueue } from '../../../../runtime/delivery/delivery-queue.js';
import { freePort, waitFor } from '../../../support/net.js';
import { RecordingMetrics } from '../../runtime/delivery/support/recording-metrics.js';
import { recordingLogger } from '../../runtime/delivery/support/recording-logger.js';
import { signedHeaders, startReceiver } from './support/http-receiver.js';
import { governedRecords } from './support/governed-records.js';

const SECRET = 's3cret-ünïcode';
const signal = () => new AbortController().signal;
const idsOf = (body: Buffer) => (JSON.parse(body.toString('utf8')).records as { id: string }[]).map((r) => r.id);

test('POSTs { records } joined from the records\' JSON texts as they are, signed with an HMAC-SHA256 of the exact body bytes', async () => {
  const receiver = await startReceiver();
  const exporter = createWebhookExporter({
    name: 'siem', url: `${receiver.url}/ingest`, secret: SECRET,
    headers: { Authorization: 'Bearer abc', 'X-Vigil-Signature': 'forged', 'Content-Type': 'text/plain' },
  }, { log: recordingLogger() });
  const formatted = '{"id":"rec-3", "amount": 1.50, "note": "caf\\u00e9"}';
  const batch = [...governedRecords(3), { json: formatted }];
  await exporter.send(batch, signal());
  await exporter.shutdown();
  await receiver.close();
  assert.is(receiver.requests.length, 1);
  const [req] = receiver.requests;
  assert.is(req.method, 'POST');
  assert.is(req.url, '/ingest');
  assert.is(req.headers['content-type'], 'application/json');
  assert.is(req.headers.authorization, 'Bearer abc');
  assert.is(req.body.toString('utf8'), `{"records":[${batch.map((r) => r.json).join(',')}]}`);
  assert.equal(JSON.parse(req.body.toString('utf8')).records[0].request_body.note, 'café ✓');
  const signed = signedHeaders(req);
  assert.ok(verifyBodySignature(SECRET, req.body, signed), 'signature verifies over the raw body');
  assert.not.ok(verifyBodySignature('other', req.body, signed));
  // Computed here independently of the exporter's code: what a receiver in any language would do.
  const timestamp = req.headers['x-vigil-timestamp'] as string;
  assert.is(req.headers['x-vigil-signature'], `sha256=${createHmac('sha256', SECRET).update(`${timestamp}.${req.body.toString('utf8')}`).digest('hex')}`);
  const ts = Number(timestamp);
  assert.ok(Number.isInteger(ts) && Math.abs(ts - Date.now() / 1000) < 600, `timestamp ${ts}`);
});

test('the signature covers the timestamp: a replay under a fresh timestamp, a stale one or a changed body fails', async () => {
  const receiver = await startReceiver();
  const exporter = createWebhookExporter({ name: 'siem', url: receiver.url, secret: SECRET }, { log: recordingLogger() });
  await exporter.send(governedRecords(1), signal());
  await exporter.shutdown();
  await receiver.close();
  const [req] = receiver.requests;
  const signed = signedHeaders(req);
  const sent = Number(signed.timestamp);
  assert.ok(verifyBodySignature(SECRET, req.body, signed, { nowSeconds: sent + 299 }), 'within the tolerance');
  assert.not.ok(verifyBodySignature(SECRET, req.body, signed, { nowSeconds: sent + 301 }), 'stale: a replay of an old request');
  assert.not.ok(verifyBodySignature(SECRET, req.body, { ...signed, timestamp: String(sent + 60) }, { nowSeconds: sent + 60 }),
    'the same signature under a fresh timestamp');
  assert.not.ok(verifyBodySignature(SECRET, Buffer.concat([req.body, Buffer.from(' ')]), signed, { nowSeconds: sent }), 'a changed body');
  assert.not.ok(verifyBodySignature(SECRET, req.body, { ...signed, timestamp: `${sent}.5` }, { nowSeconds: sent }), 'a malformed timestamp');
  assert.not.ok(verifyBodySignature(SECRET, req.body, { ...signed, timestamp: undefined }));
});

test('without a secret no signature header is sent', async () => {
  const receiver = await startReceiver();
  const exporter = createWebhookExporter({ name: 'siem', url: receiver.url }, { log: recordingLogger() });
  await exporter.send(governedRecords(1), signal());
  await exporter.shutdown();
  await receiver.close();
  assert.is(receiver.requests[0].headers['x-vigil-signature'], undefined);
  assert.ok(receiver.requests[0].headers['x-vigil-timestamp']);
});

test('a 4xx is permanent, except 408 and 429; 5xx are retryable; Retry-After on 429/503 becomes retryAfterMs', async () => {
  const answers: [number, Record<string, string>][] = [
    [400, {}], [404, {}], [422, {}], [302, { location: '/elsewhere' }], [408, {}], [429, { 'retry-after': '2' }],
    [500, {}], [503, { 'retry-after': '1' }], [502, { 'retry-after': '7' }],
  ];
  const receiver = await startReceiver((_req, res, i) => {
    res.writeHead(answers[i][0], answers[i][1]);
    res.end(`problem number ${i}`);
  });
  const exporter = createWebhookExporter({ name: 'siem', url: receiver.url }, { log: recordingLogger() });
  const errors: { permanent: boolean; code?: string; retryAfterMs?: number; message: string }[] = [];
  for (let i = 0; i < answers.length; i++) {
    try {
      await exporter.send(governedRecords(1), signal());
      assert.unreachable(`answer ${answers[i][0]} accepted`);
    } catch (err) {
      const e = err as { code?: string; retryAfterMs?: number; message: string };
      errors.push({ permanent: isPermanent(err), code: e.code, retryAfterMs: e.retryAfterMs, message: e.message });
    }
  }
  await exporter.shutdown();
  await receiver.close();
  assert.equal(errors.map((e) => e.permanent), [true, true, true, true, false, false, false, false, false]);
  assert.is(errors[0].code, ExporterErrors.REJECTED);
  assert.is(errors[4].code, ExporterErrors.UNAVAILABLE);
  assert.match(errors[0].message, '400');
  assert.match(errors[0].message, 'problem number 0');
  assert.match(errors[3].message, 'redirects are not followed');
  assert.is(errors[5].retryAfterMs, 2000);
  assert.is(errors[7].retryAfterMs, 1000);
  assert.is(errors[8].retryAfterMs, undefined, 'Retry-After is honoured on 429 and 503 only');
});

test('through a delivery queue: 400 is not retried and counts as failed', async () => {
  const receiver = await startReceiver((_req, res) => { res.statusCode = 400; res.end('bad'); });
  const exporter = createWebhookExporter({ name: 'siem', url: receiver.url }, { log: recordingLogger() });
  const metrics = new RecordingMetrics();
  const queue = createDeliveryQueue({ name: 'siem', send: exporter.send, backoffMs: 1, maxBackoffMs: 5 }, { metrics, log: recordingLogger() });
  queue.pushMany(governedRecords(4));
  await queue.flush(5_000);
  await queue.shutdown();
  await exporter.shutdown();
  await receiver.close();
  assert.is(receiver.requests.length, 1);
  assert.is(metrics.value('vigil_export_failed_total', 'siem'), 4);
  assert.is(metrics.value('vigil_export_sent_total', 'siem'), 0);
});

test('through a delivery queue: 503 then 200 is retried and delivered once', async () => {
  const receiver = await startReceiver((_req, res, i) => {
    res.statusCode = i === 0 ? 503 : 200;
    res.end();
  });
  const exporter = createWebhookExporter({ name: 'siem', url: receiver.url, secret: SECRET }, { log: recordingLogger() });
  const metrics = new RecordingMetrics();
  const queue = createDeliveryQueue({ name: 'siem', send: exporter.send, backoffMs: 1, maxBackoffMs: 5 }, { metrics, log: recordingLogger() });
  queue.pushMany(governedRecords(3));
  await queue.flush(5_000);
  await queue.shutdown();
  await exporter.shutdown();
  await receiver.close();
  assert.is(receiver.requests.length, 2);
  assert.equal(idsOf(receiver.requests[1].body), ['rec-0', 'rec-1', 'rec-2']);
  assert.ok(verifyBodySignature(SECRET, receiver.requests[1].body, signedHeaders(receiver.requests[1])));
  assert.is(metrics.value('vigil_export_sent_total', 'siem'), 3);
  assert.is(metrics.value('vigil_export_failed_total', 'siem'), 0);
});

test('a receiver that is down for a while then comes up misses nothing, and gets everything in order', async () => {
  const port = await freePort();
  const exporter = createWebhookExporter({ name: 'siem', url: `http://127.0.0.1:${port}/in` }, { log: recordingLogger() });
  const metrics = new RecordingMetrics();
  const log = recordingLogger();
  const queue = createDeliveryQueue({
    name: 'siem', send: exporter.send, maxBatch: 10, maxDelayMs: 5, backoffMs: 5, maxBackoffMs: 40,
  }, { metrics, log });
  for (let i = 0; i < 100; i += 20) queue.pushMany(governedRecords(20, i));
  await waitFor(() => log.entries.some((e) => /will retry/.test(e.msg)), { what: 'a failed attempt while the receiver is down' });
  const receiver = await startReceiver(undefined, port);
  await queue.flush(10_000);
  await queue.shutdown();
  await exporter.shutdown();
  await receiver.close();
  const ids = receiver.requests.flatMap((r) => idsOf(r.body));
  assert.equal(ids, governedRecords(100).map((r) => r.id));
  assert.is(metrics.value('vigil_export_sent_total', 'siem'), 100);
  assert.is(metrics.value('vigil_export_dropped_total', 'siem'), 0);
});

test('an unreachable receiver is a retryable error, and an abort ends a hanging request with its reason', async () => {
  const port = await freePort();
  const down = createWebhookExporter({ name: 'siem', url: `http://127.0.0.1:${port}` }, { log: recordingLogger() });
  try { await down.send(governedRecords(1), signal()); assert.unreachable(); } catch (err) {
    assert.not.ok(isPermanent(err));
    assert.is((err as { code?: string }).code, ExporterErrors.UNAVAILABLE);
  }
  await down.shutdown();

  const receiver = await startReceiver(() => { /* never answers */ });
  const hanging = createWebhookExporter({ name: 'siem', url: receiver.url }, { log: recordingLogger() });
  const c = new AbortController();
  const sending = hanging.send(governedRecords(1), c.signal);
  await waitFor(() => receiver.requests.length === 1, { what: 'the request to arrive' });
  const reason = new Error('attempt timed out');
  c.abort(reason);
  try { await sending; assert.unreachable(); } catch (err) { assert.is(err, reason); }
  await hanging.shutdown();
  await receiver.close();
});

test('error messages never show URL credentials or query strings', async () => {
  const receiver = await startReceiver((_req, res) => { res.statusCode = 401; res.end(); });
  const url = receiver.url.replace('http://', 'http://user:hunter2@') + '/in?token=abc123';
  const exporter = createWebhookExporter({ name: 'siem', url }, { log: recordingLogger() });
  try { await exporter.send(governedRecords(1), signal()); assert.unreachable(); } catch (err) {
    const message = (err as Error).message;
    assert.match(message, '401');
    assert.not.match(message, 'hunter2');
    assert.not.match(message, 'abc123');
  }
  await exporter.shutdown();
  await receiver.close();
  assert.is(redactUrl('https://a:b@host:8443/p?q=1#f'), 'https://host:8443/p');
  assert.is(redactUrl('not a url'), '<invalid url>');
});

test.run();
