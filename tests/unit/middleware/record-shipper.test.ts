// The shipper against a real HTTP server: batching, retries on 5xx and on a refused connection, 4xx let go, the
// queue bound (newest dropped), and never a throw.
import { createServer, type Server } from 'node:http';
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { RecordShipper, type ShipperOptions } from '../../../middleware/core/record-shipper.js';
import { freePort } from '../../support/net.js';

interface Agent { port: number; bodies: string[]; auth: string[]; statuses: number[]; server: Server }

async function agent(statuses: number[], port = 0): Promise<Agent> {
  const a: Agent = { port, bodies: [], auth: [], statuses, server: null as never };
  a.server = createServer((req, res) => {
    let body = '';
    req.on('data', (c) => { body += c; });
    req.on('end', () => {
      a.bodies.push(body);
      a.auth.push(String(req.headers.authorization));
      const status = a.statuses.shift() ?? 200;
      res.writeHead(status, { 'content-type': 'application/json' }).end(JSON.stringify(status < 300 ? { stored: 1 } : { error: { code: 'X', message: 'no' } }));
    });
  });
  await new Promise<void>((r) => a.server.listen(port, '127.0.0.1', r));
  a.port = (a.server.address() as { port: number }).port;
  return a;
}
const close = (a: Agent) => new Promise<void>((r) => { a.server.closeAllConnections(); a.server.close(() => r()); });

function shipper(port: number, over: Partial<ShipperOptions> = {}, errors: Error[] = []): RecordShipper {
  return new RecordShipper({
    url: `http://127.0.0.1:${port}/api/gateway/records`, token: 't0ken', maxQueue: 100, maxBatch: 3, maxBatchBytes: 1 << 20,
    flushIntervalMs: 10, timeoutMs: 2_000, minBackoffMs: 10, maxBackoffMs: 40, report: (e) => errors.push(e), ...over,
  });
}
const rec = (i: number) => JSON.stringify({ i });

test('batches of at most maxBatch, in order, with the bearer token', async () => {
  const a = await agent([]);
  try {
    const s = shipper(a.port);
    s.push([1, 2, 3, 4, 5].map(rec));
    await s.flush();
    assert.equal(a.bodies.map((b) => JSON.parse(b).records.map((r: { i: number }) => r.i)), [[1, 2, 3], [4, 5]]);
    assert.equal(a.auth, ['Bearer t0ken', 'Bearer t0ken']);
    assert.equal(s.stats(), { queued: 0, sent: 5, dropped: 0, rejected: 0, retries: 0 });
  } finally { await close(a); }
});

test('a 503 is retried with the same records; a 400 lets them go, reported', async () => {
  const a = await agent([503, 200, 400]);
  const errors: Error[] = [];
  try {
    const s = shipper(a.port, {}, errors);
    s.push([rec(1), rec(2)]);
    await s.flush();
    assert.is(a.bodies[0], a.bodies[1]);
    s.push([rec(3)]);
    await s.flush();
    assert.equal(s.stats(), { queued: 0, sent: 2, dropped: 0, rejected: 1, retries: 1 });
    assert.match(errors.map((e) => e.message).join('\n'), /answered 400/);
  } finally { await close(a); }
});

test('the agent down: records wait (bounded, newest dropped) and go once it is up', async () => {
  const port = await freePort();
  const errors: Error[] = [];
  const s = shipper(port, { maxQueue: 4 }, errors);
  s.push([1, 2, 3, 4, 5, 6].map(rec));
  await s.flush(150);
  assert.equal({ ...s.stats(), retries: 0 }, { queued: 4, sent: 0, dropped: 2, rejected: 0, retries: 0 });
  assert.ok(s.stats().retries >= 1);
  assert.match(errors[0].message, /retrying/);
  const a = await agent([], port);
  try {
    await s.flush();
    assert.equal(a.bodies.flatMap((b) => JSON.parse(b).records.map((r: { i: number }) => r.i)), [1, 2, 3, 4]);
    await s.close();
    s.push([rec(9)]);
    assert.is(s.stats().queued, 1);
  } finally { await close(a); }
});

test.run();
