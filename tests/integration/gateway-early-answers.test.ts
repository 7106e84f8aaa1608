// Answers the gateway gives while the client is still uploading (503 when no upstream connection frees in time or the
// request buffers are full, an upstream's own early 413) must reach the client as answers, not as a reset: the
// gateway reads and discards the rest of the body, bounded, before it closes (plugin-sdk lingering-close.ts).
// Real clients (fetch, node:http) through `vigil run` to a real upstream.
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { createServer, request, type IncomingMessage, type ServerResponse } from 'node:http';
import { connect, type Socket } from 'node:net';
import { freePort, waitFor } from '../support/net.js';
import { tempDir } from '../support/tmp.js';
import { startVigil, writeConfig, type VigilProcess } from '../support/vigil-process.js';

const test = suite('gateway: answers given before the body is read');
const work = tempDir('vigil-gw-early-');
let vigil: VigilProcess;
let gateway = '';
let controlPlane = '';
const held: ServerResponse[] = [];
let upstream: ReturnType<typeof createServer>;

interface Answer { status: number; text: string; clientError?: string }

function httpPost(path: string, body: Buffer): Promise<Answer> {
  return new Promise((resolve, reject) => {
    let answer: Answer | undefined;
    let clientError: string | undefined;
    const req = request(`${gateway}${path}`, { method: 'POST', headers: { 'content-type': 'application/octet-stream', 'content-length': String(body.length) } }, (res) => {
      let text = '';
      res.setEncoding('utf8');
      res.on('data', (d: string) => { text += d; });
      res.on('end', () => { answer = { status: res.statusCode!, text }; });
    });
    req.on('error', (err: NodeJS.ErrnoException) => { clientError = err.code ?? err.message; });
    req.on('close', () => setImmediate(() => (answer ? resolve({ ...answer, clientError }) : reject(new Error(`no answer; the client saw ${clientError}`)))));
    req.end(body);
  });
}

async function fetchPost(path: string, body: Buffer): Promise<Answer> {
  const res = await fetch(`${gateway}${path}`, { method: 'POST', headers: { 'content-type': 'application/octet-stream' }, body });
  return { status: res.status, text: await res.text() };
}

/** A request head and `bytes` of a body that declares more, then silence: it holds a request buffer. */
function hoard(path: string, bytes: number, declared: number): Socket {
  const u = new URL(gateway);
  const socket = connect(Number(u.port), u.hostname);
  socket.on('error', () => {});
  socket.write(`POST ${path} HTTP/1.1\r\nHost: gw.test\r\nContent-Length: ${declared}\r\n\r\n`);
  socket.write(Buffer.alloc(bytes, 0x61));
  return socket;
}

test.before(async () => {
  upstream = createServer((req: IncomingMessage, res: ServerResponse) => {
    if (req.url === '/hold') { held.push(res); return; }
    // An upstream that refuses large uploads on their announced length, without reading them.
    if (req.url === '/early-413') { res.writeHead(413, { 'content-type': 'application/json' }).end('{"error":"upstream: too large"}'); return; }
    req.resume();
    req.on('end', () => res.end('ok'));
  });
  await new Promise<void>((r) => upstream.listen(0, '127.0.0.1', r));
  const [port, cpPort] = [await freePort(), await freePort()];
  gateway = `http://127.0.0.1:${port}`;
  controlPlane = `http://127.0.0.1:${cpPort}`;
  const file = writeConfig(work.path, `service:
  upstream: http://127.0.0.1:${(upstream.address() as { port: number }).port}
  listen: 127.0.0.1:${port}
  max_connections: 1
  request_buffer: 16kb
  request_buffer_memory: 64kb
  queue_timeout: 300ms
  client_body_timeout: 3s
rules:
  - name: all
    match: { path: /** }
control_plane: { listen: 127.0.0.1:${cpPort}, token: gateway-early-answers-token }
data_dir: ${work.path}/data
`);
  vigil = await startVigil(file, controlPlane, { cwd: work.path });
});

test.after(async () => {
  for (const res of held) res.destroy();
  await vigil?.stop('SIGKILL');
  upstream?.closeAllConnections();
  upstream?.close();
});

const fourMb = Buffer.alloc(4 * 1024 * 1024, 0x62);

test('an upstream\'s early 413 to a 4 MB upload reaches fetch and node:http', async () => {
  for (let i = 0; i < 3; i++) {
    const a = await fetchPost('/early-413', fourMb);
    assert.is(a.status, 413, `fetch, attempt ${i}`);
    assert.is(a.text, '{"error":"upstream: too large"}');
    const b = await httpPost('/early-413', fourMb);
    assert.is(b.status, 413, `node:http, attempt ${i}`);
    assert.is(b.clientError, undefined, `node:http, attempt ${i}: the client saw ${b.clientError}`);
  }
});

test('no upstream connection within queue_timeout: the 503 reaches a client still uploading 4 MB', async () => {
  const holding = fetch(`${gateway}/hold`).catch(() => undefined);
  await waitFor(() => held.length >= 1, { what: 'the one upstream connection held' });
  try {
    for (let i = 0; i < 3; i++) {
      const a = await fetchPost('/queued', fourMb);
      assert.is(a.status, 503, `fetch, attempt ${i}`);
      assert.is(JSON.parse(a.text).error.code, 'VIGIL_ERR_PROXY_QUEUE_TIMEOUT');
      const b = await httpPost('/queued', fourMb);
      assert.is(b.status, 503, `node:http, attempt ${i}`);
      assert.is(b.clientError, undefined, `node:http, attempt ${i}: the client saw ${b.clientError}`);
    }
  } finally {
    for (const res of held.splice(0)) res.end('released');
    await holding;
  }
});

test('the request buffers are full: the 503 reaches a client still uploading', async () => {
  // Four hoarders hold 15 KiB each of the 64 KiB the buffers share.
  const hoarders = Array.from({ length: 4 }, (_, i) => hoard(`/hoard/${i}`, 15 * 1024, 16_000));
  try {
    // The gateway takes the hoarders' buffers as it reads their sockets, which a loaded machine does later than at
    // once: wait until its gauge shows them held (what a fixed 300 ms pause assumed).
    await waitFor(async () => {
      const text = await (await fetch(`${controlPlane}/metrics`, { headers: { authorization: 'Bearer gateway-early-answers-token' } })).text();
      const held = Number(/^vigil_proxy_request_buffer_bytes (\d+)/m.exec(text)?.[1] ?? 0);
      return held >= 4 * 15 * 1024;
    }, { timeoutMs: 10_000, intervalMs: 100, what: 'the four hoarders\' buffers held' });
    for (let i = 0; i < 3; i++) {
      const body = Buffer.alloc(16_000 + i, 0x63);
      const a = await fetchPost('/full', body);
      assert.is(a.status, 503, `fetch, attempt ${i}`);
      assert.is(JSON.parse(a.text).error.code, 'VIGIL_ERR_PROXY_BUFFERS_FULL');
      const b = await httpPost('/full', body);
      assert.is(b.status, 503, `node:http, attempt ${i}`);
      assert.is(b.clientError, undefined, `node:http, attempt ${i}: the client saw ${b.clientError}`);
    }
  } finally {
    for (const s of hoarders) s.destroy();
  }
});

test('the gateway still proxies uploads afterwards; every linger ended with the body or the client, none on a bound', async () => {
  const a = await fetchPost('/fine', fourMb);
  assert.is(a.status, 200);
  assert.is(a.text, 'ok');
  const text = await (await fetch(`${controlPlane}/metrics`, { headers: { authorization: 'Bearer gateway-early-answers-token' } })).text();
  assert.match(text, /vigil_proxy_lingering_closes_total\{outcome="drained"\} [1-9]/);
  assert.not.match(text, /vigil_proxy_lingering_closes_total\{outcome="(time_limit|byte_limit)"\}/);
});

test.run();
