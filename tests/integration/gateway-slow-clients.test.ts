// Availability under hostile clients: slow uploaders never starve the upstream connections, a slow body is cut
// with 408 wherever it is, a request that cannot get a connection in time gets 503, and the memory that request
// buffers take is bounded. `vigil run` in front of a real upstream, with real sockets writing real bytes slowly.
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { connect, type Socket } from 'node:net';
import { Readable } from 'node:stream';
import { request } from 'undici';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { freePort, waitFor } from '../support/net.js';
import { tempDir } from '../support/tmp.js';
import { parseExposition, samplesOf } from '../support/prometheus-text.js';
import { startVigil, writeConfig, type VigilProcess } from '../support/vigil-process.js';
import { startRecordingUpstream, type Responder } from '../support/recording-upstream.js';

const TOKEN = 'slow-clients-token';
const work = tempDir('vigil-slow-');

interface Gateway { vigil: VigilProcess; port: number; cp: string }

async function startGateway(name: string, upstreamPort: number, service: string): Promise<Gateway> {
  const port = await freePort();
  const cpPort = await freePort();
  const cp = `http://127.0.0.1:${cpPort}`;
  const file = writeConfig(work.path, `service:
  upstream: http://127.0.0.1:${upstreamPort}
  listen: 127.0.0.1:${port}
${service}
rules:
  - name: all
    match: { path: /** }
control_plane: { listen: 127.0.0.1:${cpPort}, token: ${TOKEN} }
data_dir: ${work.path}/${name}
`, `${name}.yaml`);
  return { vigil: await startVigil(file, cp, { cwd: work.path }), port, cp };
}

async function failures(cp: string, code: string): Promise<number> {
  const text = await (await fetch(`${cp}/metrics`, { headers: { authorization: `Bearer ${TOKEN}` } })).text();
  return samplesOf(parseExposition(text), 'vigil_proxy_failures_total', { code })[0]?.value ?? 0;
}

/** A client that sends a request head and then the body one byte at a time, every `everyMs`. */
class SlowUploader {
  readonly socket: Socket;
  private timer: NodeJS.Timeout | undefined;
  received = '';
  closed = false;
  constructor(port: number, path: string, framing: 'length' | 'chunked', declared: number, everyMs: number) {
    this.socket = connect(port, '127.0.0.1');
    this.socket.on('error', () => {});
    this.socket.on('data', (d) => { this.received += d.toString('latin1'); });
    this.socket.on('close', () => { this.closed = true; clearInterval(this.timer); });
    const head = framing === 'length'
      ? `POST ${path} HTTP/1.1\r\nHost: gw.test\r\nContent-Type: application/json\r\nContent-Length: ${declared}\r\n\r\n`
      : `POST ${path} HTTP/1.1\r\nHost: gw.test\r\nContent-Type: application/json\r\nTransfer-Encoding: chunked\r\n\r\n`;
    this.socket.write(head);
    this.timer = setInterval(() => {
      if (this.closed) return;
      this.socket.write(framing === 'length' ? 'x' : '1\r\nx\r\n');
    }, everyMs);
  }
  stop(): void {
    clearInterval(this.timer);
    this.socket.destroy();
  }
}

/** Writes a request head and `bytes` of a body declaring `declared` bytes, then nothing; resolves with what came back. */
function stallingUpload(port: number, path: string, bytes: number, declared: number): { socket: Socket; reply: Promise<string> } {
  const socket = connect(port, '127.0.0.1');
  let got = '';
  socket.on('data', (d) => { got += d.toString('latin1'); });
  const reply = new Promise<string>((resolve) => {
    socket.on('close', () => resolve(got));
    socket.on('error', () => {});
  });
  socket.write(`POST ${path} HTTP/1.1\r\nHost: gw.test\r\nContent-Length: ${declared}\r\n\r\n`);
  socket.write(Buffer.alloc(bytes, 0x61));
  return { socket, reply };
}

async function timedGet(port: number, path: string): Promise<{ status: number; ms: number; body: string }> {
  const t0 = performance.now();
  const res = await request(`http://127.0.0.1:${port}${path}`, { reset: true });
  const body = await res.body.text();
  return { status: res.statusCode, ms: performance.now() - t0, body };
}

// ---- with the defaults, eight slow uploaders against max_connections: 8 --------------------------------------------

const defaults = suite('slow uploaders against the defaults');
let upstream: Awaited<ReturnType<typeof startRecordingUpstream>>;
let gw: Gateway;

defaults.before(async () => {
  upstream = await startRecordingUpstream();
  gw = await startGateway('defaults', upstream.port, '  max_connections: 8');
});

defaults.after(async () => {
  await gw?.vigil.stop('SIGKILL');
  upstream?.close();
});

defaults('with max_connections slow uploaders (one byte every 250 ms), a normal GET completes in well under a second', async () => {
  const slow = [
    ...[0, 1, 2].map((i) => new SlowUploader(gw.port, `/slow/length/${i}`, 'length', 200, 250)),
    ...[0, 1, 2].map((i) => new SlowUploader(gw.port, `/slow/chunked/${i}`, 'chunked', 0, 250)),
    ...[0, 1].map((i) => new SlowUploader(gw.port, `/slow/large/${i}`, 'length', 10_000_000, 250)),
  ];
  try {
    await new Promise((r) => setTimeout(r, 1200));
    const reply = await timedGet(gw.port, '/normal');
    assert.is(reply.status, 200);
    assert.is(reply.body, 'ok');
    assert.ok(reply.ms < 1000, `the GET took ${reply.ms.toFixed(0)} ms`);
    assert.not.ok(upstream.received.some((r) => r.url.startsWith('/slow/')), 'a slow upload took an upstream connection');
  } finally {
    for (const s of slow) s.stop();
  }
});

defaults.run();

// ---- short bounds, to see each of them answer -------------------------------------------------------------------

const bounds = suite('bounds on slow clients and on the wait for a connection');
let up2: Awaited<ReturnType<typeof startRecordingUpstream>>;
let gw2: Gateway;
const held: ServerResponse[] = [];
const responders: Record<string, Responder> = {
  '/hold': (_q, res) => { held.push(res); },
};
const CODE_TIMEOUT = 'VIGIL_ERR_PROXY_CLIENT_TIMEOUT';
const CODE_QUEUE = 'VIGIL_ERR_PROXY_QUEUE_TIMEOUT';
const CODE_BUFFERS = 'VIGIL_ERR_PROXY_BUFFERS_FULL';

bounds.before(async () => {
  up2 = await startRecordingUpstream(responders);
  gw2 = await startGateway('bounds', up2.port, `  max_connections: 2
  request_buffer: 16kb
  request_buffer_memory: 64kb
  request_buffer_timeout: 2s
  client_body_timeout: 500ms
  send_timeout: 500ms
  client_min_rate: 1kb
  queue_timeout: 500ms`);
});

bounds.after(async () => {
  for (const res of held) res.destroy();
  await gw2?.vigil.stop('SIGKILL');
  up2?.close();
});

const jsonError = (reply: string) => JSON.parse(reply.slice(reply.indexOf('\r\n\r\n') + 4)) as { error: { code: string; message: string } };

bounds('a client that stops sending its body gets 408 with a JSON error, and its connection is closed', async () => {
  const before = await failures(gw2.cp, CODE_TIMEOUT);
  const { reply } = stallingUpload(gw2.port, '/stalled', 100, 1000);
  const text = await reply;
  assert.match(text, /^HTTP\/1\.1 408 /);
  assert.match(text, /\r\nconnection: close\r\n/i);
  assert.is(jsonError(text).error.code, CODE_TIMEOUT);
  assert.not.ok(up2.received.some((r) => r.url === '/stalled'), 'a stalled upload reached the upstream');
  assert.is(await failures(gw2.cp, CODE_TIMEOUT), before + 1);
});

bounds('a client that never goes silent but sends too slowly gets 408 too', async () => {
  const dribbler = new SlowUploader(gw2.port, '/dribble', 'length', 5000, 50);
  try {
    await waitFor(() => dribbler.closed, { timeoutMs: 5000, what: 'the dribbling client to be cut off' });
    assert.match(dribbler.received, /^HTTP\/1\.1 408 /);
  } finally {
    dribbler.stop();
  }
});

bounds('a client that keeps pace but does not finish its buffered part within request_buffer_timeout gets 408', async () => {
  const socket = connect(gw2.port, '127.0.0.1');
  let got = '';
  socket.on('data', (d) => { got += d.toString('latin1'); });
  socket.on('error', () => {});
  socket.write('POST /steady HTTP/1.1\r\nHost: gw.test\r\nContent-Length: 16000\r\n\r\n');
  // 1,200 bytes every 250 ms: above the minimum rate, but 16,000 bytes would take 3.3 s.
  const timer = setInterval(() => socket.write(Buffer.alloc(1200, 0x62)), 250);
  try {
    await waitFor(() => got.includes('\r\n\r\n{'), { timeoutMs: 5000, what: 'an answer' });
    assert.match(got, /^HTTP\/1\.1 408 /);
    assert.not.ok(up2.received.some((r) => r.url === '/steady'));
  } finally {
    clearInterval(timer);
    socket.destroy();
  }
});

bounds('a body larger than the buffer is streamed, and a stall once it holds a connection is cut: 408, upstream aborted, connection freed', async () => {
  const before = up2.received.length;
  const { reply } = stallingUpload(gw2.port, '/stream-stall', 40 * 1024, 1_000_000);
  await waitFor(() => up2.received.slice(before).some((r) => r.url === '/stream-stall'), { what: 'the streamed upload upstream' });
  const text = await reply;
  assert.match(text, /^HTTP\/1\.1 408 /);
  await waitFor(() => up2.received.find((r) => r.url === '/stream-stall')?.aborted, { what: 'the upstream request aborted' });
  // Both connections are free again.
  const [a, b] = await Promise.all([timedGet(gw2.port, '/after-stall-1'), timedGet(gw2.port, '/after-stall-2')]);
  assert.is(a.status, 200);
  assert.is(b.status, 200);
});

bounds('a large body the upstream is slow to read is not cut: the wait is the upstream\'s, not the client\'s', async () => {
  responders['/slow-reader'] = (_q, res) => res.end('read it all');
  const body = Buffer.alloc(4 * 1024 * 1024, 0x63);
  // The recording upstream reads as fast as it can; a paused socket on its side stands in for a slow reader.
  const { createServer } = await import('node:http');
  const slowReader = createServer((req: IncomingMessage, res: ServerResponse) => {
    req.pause();
    setTimeout(() => {
      let n = 0;
      req.on('data', (c: Buffer) => { n += c.length; });
      req.on('end', () => res.end(String(n)));
      req.resume();
    }, 1500);
  });
  await new Promise<void>((r) => slowReader.listen(0, '127.0.0.1', r));
  const gw3 = await startGateway('slow-reader', (slowReader.address() as { port: number }).port, `  request_buffer: 16kb
  client_body_timeout: 500ms
  client_min_rate: 1kb`);
  try {
    const res = await request(`http://127.0.0.1:${gw3.port}/upload`, { method: 'POST', body });
    assert.is(res.statusCode, 200);
    assert.is(await res.body.text(), String(body.length));
  } finally {
    await gw3.vigil.stop('SIGKILL');
    slowReader.closeAllConnections();
    slowReader.close();
  }
});

bounds('a client that stops reading a large response is cut while it holds the upstream connection: upstream aborted, connection freed', async () => {
  const before = await failures(gw2.cp, CODE_TIMEOUT);
  const huge = Buffer.alloc(32 * 1024 * 1024, 0x65);
  responders['/huge'] = (_q, res) => { res.writeHead(200, { 'content-length': huge.length }); res.end(huge); };
  const socket = connect(gw2.port, '127.0.0.1');
  socket.on('error', () => {});
  socket.write('GET /huge HTTP/1.1\r\nHost: gw.test\r\n\r\n');
  socket.pause(); // reads nothing: the kernel's buffers fill, then the gateway's, then the upstream connection waits
  try {
    await waitFor(async () => (await failures(gw2.cp, CODE_TIMEOUT)) === before + 1, { timeoutMs: 10_000, what: 'the reader cut off' });
    // Both upstream connections are free again, though the reader still has not read.
    const [a, b] = await Promise.all([timedGet(gw2.port, '/after-reader-1'), timedGet(gw2.port, '/after-reader-2')]);
    assert.is(a.status, 200);
    assert.is(b.status, 200);
    // What the reader gets, once it reads, ends short of the body: the cut is visible to it.
    let got = 0;
    socket.on('data', (d: Buffer) => { got += d.length; });
    await new Promise<void>((resolve) => { socket.on('close', () => resolve()); socket.resume(); });
    assert.ok(got < huge.length, `the reader got ${got} bytes`);
  } finally {
    socket.destroy();
  }
});

bounds('a large response read at a normal pace is not cut', async () => {
  const res = await request(`http://127.0.0.1:${gw2.port}/huge`, { reset: true });
  let n = 0;
  for await (const chunk of res.body) n += (chunk as Buffer).length;
  assert.is(n, 32 * 1024 * 1024);
});

bounds('a request that waits longer than queue_timeout for an upstream connection gets 503 with a JSON error and Retry-After', async () => {
  const before = await failures(gw2.cp, CODE_QUEUE);
  const holding = [request(`http://127.0.0.1:${gw2.port}/hold`, { reset: true }), request(`http://127.0.0.1:${gw2.port}/hold`, { reset: true })];
  for (const h of holding) h.catch(() => {});
  await waitFor(() => held.length >= 2, { what: 'both connections held' });
  const res = await request(`http://127.0.0.1:${gw2.port}/queued`, { reset: true });
  assert.is(res.statusCode, 503);
  assert.is(res.headers['retry-after'], '1');
  assert.match(String(res.headers['content-type']), /^application\/json/);
  const body = (await res.body.json()) as { error: { code: string } };
  assert.is(body.error.code, CODE_QUEUE);
  assert.is(await failures(gw2.cp, CODE_QUEUE), before + 1);
  for (const h of held.splice(0)) h.end('released');
  await Promise.all(holding.map(async (h) => (await h).body.text()));
  const after = await timedGet(gw2.port, '/after-queue');
  assert.is(after.status, 200);
  assert.not.ok(up2.received.some((r) => r.url === '/queued'), 'the request that gave up was still sent upstream');
});

bounds('the request buffers\' memory is bounded across clients: beyond request_buffer_memory, 503', async () => {
  const before = await failures(gw2.cp, CODE_BUFFERS);
  // Each holds 15 KiB of a 16,000-byte body: four fit in 64 KiB, the fifth and sixth do not.
  const uploads = Array.from({ length: 6 }, (_, i) => stallingUpload(gw2.port, `/hoard/${i}`, 15 * 1024, 16_000));
  try {
    const answers = await Promise.all(uploads.map((u) => u.reply));
    const full = answers.filter((a) => a.startsWith('HTTP/1.1 503 '));
    assert.ok(full.length >= 2, `503s: ${full.length}`);
    for (const a of full) assert.is(jsonError(a).error.code, CODE_BUFFERS);
    assert.ok(answers.filter((a) => a.startsWith('HTTP/1.1 408 ')).length >= 1, 'the hoarders that fit were cut by the timeout');
    assert.ok((await failures(gw2.cp, CODE_BUFFERS)) >= before + 2);
  } finally {
    for (const u of uploads) u.socket.destroy();
  }
  const res = await request(`http://127.0.0.1:${gw2.port}/after-hoard`, { method: 'POST', body: Buffer.alloc(10_000, 0x64), reset: true });
  assert.is(res.statusCode, 200);
  await res.body.text();
  assert.is(up2.received.find((r) => r.url === '/after-hoard')?.body.length, 10_000);
});

bounds('buffered bodies reach the upstream byte for byte, with a Content-Length (chunked ones included)', async () => {
  const body = Buffer.from(JSON.stringify({ many: 'y'.repeat(9000) }));
  const a = await request(`http://127.0.0.1:${gw2.port}/buffered/length`, { method: 'POST', body, reset: true });
  await a.body.text();
  const chunks = [body.subarray(0, 100), body.subarray(100, 5000), body.subarray(5000)];
  const b = await request(`http://127.0.0.1:${gw2.port}/buffered/chunked`, {
    method: 'POST', reset: true, body: Readable.from((async function* () { for (const c of chunks) { yield c; await new Promise((r) => setTimeout(r, 20)); } })()),
  });
  await b.body.text();
  for (const path of ['/buffered/length', '/buffered/chunked']) {
    const got = up2.received.find((r) => r.url === path)!;
    assert.ok(got.body.equals(body), path);
    assert.ok(got.rawHeaders.some((h) => h.toLowerCase() === 'content-length'), `${path}: sent with a Content-Length`);
  }
});

bounds.run();
