// The one interception path against a real node:http server: decision first (a restricted route is left untouched),
// bounded copies of what the app reads and writes, and the exchange the gateway's proxy would publish.
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { request } from 'undici';
import { ByteBudget } from '@vigil/plugin-sdk';
import type { RawExchange } from '../../../gateway/exchange/raw-exchange.js';
import { compilePolicy } from '../../../policies/compile.js';
import { intercept, type InterceptionLane } from '../../../middleware/core/interception.js';
import { waitFor as waitUntil } from '../../support/net.js';

const policy = compilePolicy({
  rules: [
    { name: 'all', match: { path: '/**' }, labels: { tenant: 'header:X-Tenant' } },
    { name: 'admin', match: { path: '/admin/**' }, restrict: ['request_body', 'response_body', 'headers'] },
  ],
} as never);

interface Seen { req: IncomingMessage; res: ServerResponse; emit: unknown; write: unknown; end: unknown }

async function serve(handler: (req: IncomingMessage, res: ServerResponse) => void, maxBodyBytes = 16, budgetBytes = 1 << 20) {
  const published: RawExchange[] = [];
  const budget = new ByteBudget(budgetBytes);
  const lane: InterceptionLane = { policy, maxBodyBytes, budget, publish: (e) => published.push(e), report: (err) => { throw err; } };
  const seen: Seen[] = [];
  const server = createServer((req, res) => {
    const before = { emit: req.emit, write: res.write, end: res.end };
    intercept(lane, req, res);
    seen.push({ req, res, emit: req.emit === before.emit, write: res.write === before.write, end: res.end === before.end });
    handler(req, res);
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  const port = (server.address() as { port: number }).port;
  return { port, published, seen, budget, close: () => new Promise<void>((r) => { server.closeAllConnections(); server.close(() => r()); }) };
}

// The exchange is published when the response finishes on the server side, apart from the client's read of it: poll
// on the scaled deadline (a fixed 2 s can be too short on a loaded machine), then assert.
const waitFor = async (cond: () => boolean) => {
  await waitUntil(cond, { timeoutMs: 2_000, intervalMs: 10, what: 'the interception' }).catch(() => undefined);
  assert.ok(cond(), 'timed out');
};

test('a restricted route: nothing is attached and nothing is published', async () => {
  const s = await serve((req, res) => { req.resume(); req.on('end', () => res.end('secret')); });
  try {
    const res = await request(`http://127.0.0.1:${s.port}/admin/x`, { method: 'POST', body: 'payload' });
    assert.is(await res.body.text(), 'secret');
    await new Promise((r) => setTimeout(r, 50));
    assert.equal(s.seen.map((x) => [x.emit, x.write, x.end]), [[true, true, true]]);
    assert.is(s.published.length, 0);
  } finally { await s.close(); }
});

test('a captured route: bounded copies of both bodies, labels, headers as sent, and the budget held by the exchange', async () => {
  const s = await serve((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      res.setHeader('Content-Type', 'text/plain');
      res.write('0123456789');
      res.end('abcdefghij');
    });
  });
  try {
    const res = await request(`http://127.0.0.1:${s.port}/api/x?q=1`, { method: 'POST', body: 'request-body-longer-than-16', headers: { 'x-tenant': 'acme' } });
    assert.is(await res.body.text(), '0123456789abcdefghij');
    await waitFor(() => s.published.length === 1);
    const e = s.published[0];
    assert.is(e.target, '/api/x?q=1');
    assert.is(e.path, '/api/x');
    assert.is(e.status, 200);
    assert.equal(e.labels, { tenant: 'acme' });
    assert.is(Buffer.from(e.requestBody!).toString(), 'request-body-lon');
    assert.is(e.requestTruncated, true);
    assert.is(Buffer.from(e.responseBody!).toString(), '0123456789abcdef');
    assert.is(e.responseTruncated, true);
    assert.is(e.requestIncomplete, false);
    assert.is(e.responseIncomplete, false);
    // The header block as Node wrote it, less hop-by-hop fields (Connection, Keep-Alive, Transfer-Encoding).
    const names = [];
    for (let i = 0; i < e.responseHeaders!.length; i += 2) names.push(e.responseHeaders![i]);
    assert.equal(names, ['Content-Type', 'Date']);
    assert.is(e.heldBytes, 32);
    assert.is(s.budget.held, 32);
  } finally { await s.close(); }
});

test('a body the app never reads is still copied (Node reads it off after the response)', async () => {
  const s = await serve((_req, res) => res.end('ok'));
  try {
    const res = await request(`http://127.0.0.1:${s.port}/unread`, { method: 'POST', body: 'never-read' });
    assert.is(await res.body.text(), 'ok');
    await waitFor(() => s.published.length === 1);
    assert.is(Buffer.from(s.published[0].requestBody!).toString(), 'never-read');
    assert.is(s.published[0].requestIncomplete, false);
  } finally { await s.close(); }
});

test('copies past the byte budget are not made: the exchange says the bodies were dropped', async () => {
  const s = await serve((req, res) => { req.resume(); req.on('end', () => res.end('a response body')); }, 1024, 8);
  try {
    const res = await request(`http://127.0.0.1:${s.port}/api/big`, { method: 'POST', body: 'a request body' });
    assert.is(await res.body.text(), 'a response body');
    await waitFor(() => s.published.length === 1);
    const e = s.published[0];
    assert.equal([e.requestBodyDropped, e.responseBodyDropped, e.requestBody!.byteLength, e.responseBody!.byteLength], [true, true, 0, 0]);
    assert.is(s.budget.held, 0);
  } finally { await s.close(); }
});

test('a client that leaves before the answer: client_aborted, status 0', async () => {
  const s = await serve(() => { /* never answers */ });
  try {
    const controller = new AbortController();
    const pending = request(`http://127.0.0.1:${s.port}/slow`, { signal: controller.signal }).catch(() => null);
    await waitFor(() => s.seen.length === 1);
    controller.abort();
    await pending;
    await waitFor(() => s.published.length === 1);
    assert.is(s.published[0].error, 'client_aborted');
    assert.is(s.published[0].status, 0);
  } finally { await s.close(); }
});

test.run();
