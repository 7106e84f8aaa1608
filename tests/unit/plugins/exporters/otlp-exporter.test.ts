import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { isPermanent } from '@vigil/plugin-sdk';
import { createOtlpExporter, logsUrl } from '../../../../plugins/exporters/otlp-exporter.js';
import { ExporterErrors } from '../../../../plugins/exporters/errors.js';
import { freePort } from '../../../support/net.js';
import { recordingLogger } from '../../runtime/delivery/support/recording-logger.js';
import { startReceiver } from './support/http-receiver.js';
import { governedRecords, recordJson } from './support/governed-records.js';
import { decodeLogsRequest } from './support/otlp-protobuf.js';

const signal = () => new AbortController().signal;

interface JsonAnyValue { stringValue?: string; intValue?: string | number; doubleValue?: number; boolValue?: boolean; arrayValue?: { values: JsonAnyValue[] } }
const jsonValue = (v: JsonAnyValue): unknown =>
  v.stringValue ?? (v.intValue !== undefined ? Number(v.intValue) : undefined) ?? v.doubleValue ?? v.boolValue ??
  v.arrayValue?.values.map(jsonValue);
const jsonAttributes = (list: { key: string; value: JsonAnyValue }[]) => Object.fromEntries(list.map((kv) => [kv.key, jsonValue(kv.value)]));

test('logsUrl appends /v1/logs to a collector base URL, once', () => {
  assert.is(logsUrl('http://collector:4318'), 'http://collector:4318/v1/logs');
  assert.is(logsUrl('http://collector:4318/'), 'http://collector:4318/v1/logs');
  assert.is(logsUrl('https://otlp.example.com/otlp'), 'https://otlp.example.com/otlp/v1/logs');
  assert.is(logsUrl('http://collector:4318/v1/logs'), 'http://collector:4318/v1/logs');
});

test('http/json: one request per batch, each record\'s JSON text as a log record\'s body with its key fields as attributes', async () => {
  const receiver = await startReceiver();
  const exporter = createOtlpExporter({
    name: 'otel', endpoint: receiver.url, protocol: 'http/json', headers: { 'x-api-key': 'k-123' },
    serviceName: 'checkout-gateway', resourceAttributes: { 'deployment.environment': 'test', 'service.name': 'ignored' },
    version: '9.9.9',
  }, { log: recordingLogger() });
  const batch = [...governedRecords(2), recordJson(2, { status: 503, method: 'GET', path: '/api/orders', error: 'VIGIL_ERR_PROXY_UPSTREAM_TIMEOUT' })];
  await exporter.send(batch, signal());
  await exporter.shutdown();
  await receiver.close();
  assert.is(receiver.requests.length, 1);
  const [req] = receiver.requests;
  assert.is(req.url, '/v1/logs');
  assert.match(String(req.headers['content-type']), 'application/json');
  assert.is(req.headers['x-api-key'], 'k-123');
  const body = JSON.parse(req.body.toString('utf8'));
  const [resourceLogs] = body.resourceLogs;
  assert.equal(jsonAttributes(resourceLogs.resource.attributes), { 'deployment.environment': 'test', 'service.name': 'checkout-gateway' });
  const [scopeLogs] = resourceLogs.scopeLogs;
  assert.is(scopeLogs.scope.name, 'vigil.exporters');
  assert.is(scopeLogs.scope.version, '9.9.9');
  assert.is(scopeLogs.logRecords.length, 3);
  const [first, , third] = scopeLogs.logRecords;
  assert.equal(scopeLogs.logRecords.map((r: { body: JsonAnyValue }) => r.body.stringValue), batch.map((r) => r.json));
  assert.is(String(first.timeUnixNano), String(BigInt(1_700_000_000_000) * 1_000_000n));
  assert.is(first.severityText, 'INFO');
  assert.is(third.severityText, 'ERROR');
  assert.equal(jsonAttributes(first.attributes), {
    'vigil.record.id': 'rec-0',
    'http.method': 'POST',
    'url.path': '/api/payments',
    'http.route': '/api/payments/**',
    'http.status_code': 200,
    'vigil.labels.tenant': 'acme',
  });
  const thirdAttributes = jsonAttributes(third.attributes);
  assert.is(thirdAttributes['http.method'], 'GET');
  assert.is(thirdAttributes['error.type'], 'VIGIL_ERR_PROXY_UPSTREAM_TIMEOUT');
});

test('http/protobuf: the request decodes as an ExportLogsServiceRequest with the same content, bodies byte for byte', async () => {
  const receiver = await startReceiver((_req, res) => { res.setHeader('content-type', 'application/x-protobuf'); res.end(); });
  const exporter = createOtlpExporter({
    name: 'otel', endpoint: `${receiver.url}/v1/logs`, protocol: 'http/protobuf', headers: { authorization: 'Api-Token t' },
  }, { log: recordingLogger() });
  const batch = [...governedRecords(3), { ...recordJson(3), json: '{"id":"rec-3", "amount": 1.50, "note": "caf\\u00e9 ✓"}' }];
  await exporter.send(batch, signal());
  await exporter.shutdown();
  await receiver.close();
  const [req] = receiver.requests;
  assert.is(req.url, '/v1/logs');
  assert.is(req.headers['content-type'], 'application/x-protobuf');
  assert.is(req.headers.authorization, 'Api-Token t');
  const decoded = decodeLogsRequest(req.body);
  assert.is(decoded.resourceLogs.length, 1);
  assert.is(decoded.resourceLogs[0].resourceAttributes['service.name'], 'vigil');
  const records = decoded.resourceLogs[0].scopeLogs[0].logRecords;
  assert.is(records.length, 4);
  assert.equal(records.map((r) => r.attributes['vigil.record.id']), ['rec-0', 'rec-1', 'rec-2', 'rec-3']);
  assert.equal(records.map((r) => r.body), batch.map((r) => r.json));
  assert.is(records[1].timeUnixNano, 1_700_000_000_001n * 1_000_000n);
  assert.is(records[1].severityNumber, 9);
  assert.is(records[1].attributes['http.status_code'], 200);
  assert.is(records[1].attributes['vigil.labels.tenant'], 'acme');
  assert.equal(JSON.parse(records[1].body as string).request_body.note, 'café ✓');
});

test('a 4xx other than 408/429 is permanent; 500 and an unreachable collector are retryable', async () => {
  const statuses = [400, 401, 500];
  const receiver = await startReceiver((_req, res, i) => { res.statusCode = statuses[i]; res.end('nope'); });
  const exporter = createOtlpExporter({ name: 'otel', endpoint: receiver.url, protocol: 'http/json', timeoutMs: 2_000 }, { log: recordingLogger() });
  const outcomes: [boolean, string | undefined][] = [];
  for (let i = 0; i < statuses.length; i++) {
    try { await exporter.send(governedRecords(1), signal()); assert.unreachable(); } catch (err) {
      outcomes.push([isPermanent(err), (err as { code?: string }).code]);
    }
  }
  await exporter.shutdown();
  await receiver.close();
  assert.equal(outcomes, [
    [true, ExporterErrors.REJECTED], [true, ExporterErrors.REJECTED], [false, ExporterErrors.UNAVAILABLE],
  ]);

  const port = await freePort();
  const down = createOtlpExporter({ name: 'otel', endpoint: `http://127.0.0.1:${port}`, timeoutMs: 500 }, { log: recordingLogger() });
  try { await down.send(governedRecords(1), signal()); assert.unreachable(); } catch (err) {
    assert.not.ok(isPermanent(err));
  }
  await down.shutdown();
});

test('503 past the exporter\'s own retries is retryable; an aborted attempt rejects with its reason', async () => {
  const receiver = await startReceiver((_req, res) => { res.statusCode = 503; res.end(); });
  // A short timeout leaves the official transport no room for its own retries (they start at 1 s).
  const exporter = createOtlpExporter({ name: 'otel', endpoint: receiver.url, timeoutMs: 300 }, { log: recordingLogger() });
  try { await exporter.send(governedRecords(1), signal()); assert.unreachable(); } catch (err) {
    assert.not.ok(isPermanent(err));
  }
  const c = new AbortController();
  c.abort(new Error('stopped'));
  try { await exporter.send(governedRecords(1), c.signal); assert.unreachable(); } catch (err) {
    assert.is((err as Error).message, 'stopped');
  }
  await exporter.shutdown();
  try { await exporter.send(governedRecords(1), signal()); assert.unreachable(); } catch (err) {
    assert.ok(isPermanent(err), 'a send after shutdown is refused for good');
  }
  await receiver.close();
});

test.run();
