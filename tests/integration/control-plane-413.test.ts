// An answer the control plane gives while the client is still uploading (413 for a body over the route's limit, 401
// for a wrong key) must reach the client as that answer. Closing with the rest of the body unread makes the kernel
// reset the connection, and clients then report ECONNRESET or EPIPE instead of the 413. Real clients (fetch, which is
// undici, and node:http) against a real `vigil run`; and hostile ones, which must not hold a connection for long.
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { request } from 'node:http';
import { connect, type Socket } from 'node:net';
import { freePort } from '../support/net.js';
import { tempDir } from '../support/tmp.js';
import { startVigil, writeConfig, type VigilProcess } from '../support/vigil-process.js';

const KEY = 'early-answer-key-0123456789abcdef';
const test = suite('control plane: answers given before the body is read');
const work = tempDir('vigil-413-');
let vigil: VigilProcess;
let base = '';

/** 6 MB of trace batch: over the route's 5 MiB limit (llm.max_body_bytes), as a real batch would be. */
const sixMb = Buffer.from(JSON.stringify({ traces: [{ model: 'gpt-4o-mini', output: 'x'.repeat(6_000_000) }] }));
const keyed = (key = KEY) => ({ 'content-type': 'application/json', 'x-service-project-key': key });

interface Answer { status: number; body: { error?: { code: string; message: string } }; clientError?: string }

/** node:http, as a Node application posts: the whole body written, the answer read; any error on the request kept. */
function httpPost(path: string, headers: Record<string, string>, body: Buffer, chunked: boolean): Promise<Answer> {
  return new Promise((resolve, reject) => {
    let answer: Answer | undefined;
    let clientError: string | undefined;
    const req = request(`${base}${path}`, { method: 'POST', headers: chunked ? headers : { ...headers, 'content-length': String(body.length) } }, (res) => {
      let text = '';
      res.setEncoding('utf8');
      res.on('data', (d: string) => { text += d; });
      res.on('end', () => { answer = { status: res.statusCode!, body: JSON.parse(text) }; });
    });
    req.on('error', (err: NodeJS.ErrnoException) => { clientError = err.code ?? err.message; });
    // The request is over when its socket closes: by then any reset has been reported.
    req.on('close', () => {
      setImmediate(() => {
        if (answer) resolve({ ...answer, clientError });
        else reject(new Error(`no answer; the client saw ${clientError ?? 'nothing'}`));
      });
    });
    if (chunked) {
      for (let at = 0; at < body.length; at += 65_536) req.write(body.subarray(at, at + 65_536));
      req.end();
    } else {
      req.end(body);
    }
  });
}

/** fetch (undici): the body as one buffer (Content-Length) or as a stream (chunked). */
async function fetchPost(path: string, headers: Record<string, string>, body: Buffer, chunked: boolean): Promise<Answer> {
  const init: RequestInit & { duplex?: 'half' } = chunked
    ? { method: 'POST', headers, body: new Blob([body]).stream(), duplex: 'half' }
    : { method: 'POST', headers, body };
  const res = await fetch(`${base}${path}`, init);
  return { status: res.status, body: await res.json() as Answer['body'] };
}

/** Resolves once `socket` drains or closes, without leaving listeners behind. */
function writable(socket: Socket): Promise<void> {
  return new Promise((resolve) => {
    const go = (): void => { socket.off('drain', go); socket.off('close', go); resolve(); };
    socket.on('drain', go);
    socket.on('close', go);
  });
}

interface RawOutcome { status: number; text: string; sent: number; ms: number; closedBy: 'server' | 'test' }

/**
 * A hostile upload over a bare socket: announces `length` bytes and writes `chunk` bytes every `everyMs` (0: as fast
 * as the socket takes them) until the server closes or `giveUpMs` passes.
 */
function hostileUpload(length: number, chunk: number, everyMs: number, giveUpMs: number): Promise<RawOutcome> {
  const u = new URL(base);
  return new Promise((resolve) => {
    const t0 = Date.now();
    // Half-open allowed: the server's FIN after its answer does not end this side, which goes on sending.
    const socket = connect({ port: Number(u.port), host: u.hostname, allowHalfOpen: true });
    let received = '';
    let sent = 0;
    let over = false;
    let closedBy: RawOutcome['closedBy'] = 'server';
    const payload = Buffer.alloc(chunk, 0x61);
    const giveUp = setTimeout(() => { closedBy = 'test'; socket.destroy(); }, giveUpMs);
    socket.on('data', (d) => { received += d.toString('latin1'); });
    socket.on('error', () => {});
    socket.on('close', () => {
      over = true;
      clearTimeout(giveUp);
      resolve({ status: Number(/^HTTP\/1\.1 (\d{3})/.exec(received)?.[1] ?? 0), text: received, sent, ms: Date.now() - t0, closedBy });
    });
    socket.on('connect', async () => {
      const head = [`POST /v1/traces HTTP/1.1`, `host: ${u.host}`, `content-length: ${length}`,
        ...Object.entries(keyed()).map(([k, v]) => `${k}: ${v}`)].join('\r\n');
      socket.write(`${head}\r\n\r\n`);
      while (!over && sent < length) {
        sent += chunk;
        if (!socket.write(payload)) await writable(socket);
        if (everyMs > 0) await new Promise((r) => setTimeout(r, everyMs));
      }
    });
  });
}

test.before(async () => {
  const port = await freePort();
  base = `http://127.0.0.1:${port}`;
  const file = writeConfig(work.path, `data_dir: ${work.path}/data
control_plane: { listen: 127.0.0.1:${port}, token: early-answer-test-token }
llm:
  projects:
    - name: uploads
      key: ${KEY}
`);
  vigil = await startVigil(file, base, { cwd: work.path });
});

test.after(async () => {
  await vigil?.stop('SIGKILL');
  work.cleanup();
});

for (const client of ['fetch', 'node:http'] as const) {
  for (const chunked of [false, true]) {
    test(`${client}, ${chunked ? 'chunked' : 'Content-Length'}: a 6 MB batch gets the 413 JSON error, every time`, async () => {
      const post = client === 'fetch' ? fetchPost : httpPost;
      for (let i = 0; i < 5; i++) {
        const r = await post('/v1/traces', keyed(), sixMb, chunked);
        assert.is(r.status, 413, `attempt ${i}`);
        assert.is(r.body.error?.code, 'VIGIL_ERR_HTTP_BODY_TOO_LARGE');
        assert.match(r.body.error!.message, /5242880 bytes/);
        // node:http reports a reset after the answer too: none may come.
        assert.is(r.clientError, undefined, `attempt ${i}: the client saw ${r.clientError}`);
      }
    });
  }
}

test('a wrong key with a 6 MB body: the 401 arrives, through fetch and node:http', async () => {
  const a = await fetchPost('/v1/traces', keyed('not-a-key-0123456789abcdef'), sixMb, false);
  assert.is(a.status, 401);
  assert.is(a.body.error?.code, 'VIGIL_ERR_LLM_UNKNOWN_KEY');
  const b = await httpPost('/v1/traces', keyed('not-a-key-0123456789abcdef'), sixMb, true);
  assert.is(b.status, 401);
  assert.is(b.clientError, undefined);
});

test('a batch within the limit is still taken after the refusals (the server is healthy)', async () => {
  const r = await fetchPost('/v1/traces', keyed(), Buffer.from(JSON.stringify({ traces: [{ model: 'gpt-4o-mini' }] })), false);
  assert.is(r.status, 202);
});

test('a client that announces 1 GiB and sends it as fast as it can is cut after a bounded number of bytes', async () => {
  const r = await hostileUpload(1024 ** 3, 256 * 1024, 0, 30_000);
  assert.is(r.status, 413, r.text.slice(0, 200));
  assert.is(r.closedBy, 'server');
  // What the server discards is bounded (64 MiB with the kernel's buffers on both sides), never the announced GiB.
  assert.ok(r.sent < 96 * 1024 * 1024, `the server read ${r.sent} bytes before closing`);
});

test('a client that trickles the rest of its body is cut after a bounded time', async () => {
  const r = await hostileUpload(6_000_000, 100, 100, 30_000);
  assert.is(r.status, 413, r.text.slice(0, 200));
  assert.is(r.closedBy, 'server');
  assert.ok(r.ms < 9_000, `the connection was held ${r.ms} ms`);
});

test('the lingering closes are counted on /metrics, by how they ended', async () => {
  const text = await (await fetch(`${base}/metrics`)).text();
  for (const outcome of ['drained', 'byte_limit', 'time_limit']) {
    assert.match(text, new RegExp(`vigil_control_plane_lingering_closes_total\\{[^}]*outcome="${outcome}"[^}]*\\} [1-9]`), outcome);
  }
});

test.run();
