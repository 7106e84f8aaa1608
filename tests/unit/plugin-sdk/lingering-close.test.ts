// lingeringClose on a bare node:http server: the early answer reaches the client, the rest of the body is read and
// dropped, and each bound (time, bytes) cuts a client that would hold the connection.
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { createServer, request, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import { connect, type AddressInfo, type Socket } from 'node:net';
import { lingeringClose, type LingerLimits, type LingerOutcome } from '@vigil/plugin-sdk';

interface Early { server: Server; port: number; outcomes: LingerOutcome[]; settled(count?: number): Promise<LingerOutcome> }

/** A server that answers 413 at once, without reading the body, and lingers with `limits`. */
async function earlyServer(limits: LingerLimits, readFirst = false): Promise<Early> {
  const outcomes: LingerOutcome[] = [];
  // Waiters for the count-th outcome: a test that sent several requests waits for all of their outcomes.
  const waiting: { count: number; resolve: (o: LingerOutcome) => void }[] = [];
  const wake = (): void => {
    for (const w of [...waiting]) if (outcomes.length >= w.count) { waiting.splice(waiting.indexOf(w), 1); w.resolve(outcomes[0]); }
  };
  const server = createServer((req: IncomingMessage, res: ServerResponse) => {
    const answer = (): void => {
      lingeringClose(req, res, limits, (o) => { outcomes.push(o); wake(); });
      lingeringClose(req, res, limits, (o) => { outcomes.push(o); });   // a second call changes nothing
      res.writeHead(413, { 'content-type': 'application/json' }).end('{"error":{"code":"TOO_LARGE"}}');
    };
    if (readFirst) {
      req.resume();
      req.on('end', answer);
    } else {
      answer();
    }
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  return {
    server,
    port: (server.address() as AddressInfo).port,
    outcomes,
    settled: (count = 1) => new Promise((resolve) => { waiting.push({ count, resolve }); wake(); }),
  };
}

/** node:http posting `body` whole: the answer, its Connection header, and any error the client saw. */
function post(port: number, body: Buffer): Promise<{ status: number; text: string; connection?: string; error?: string }> {
  return new Promise((resolve) => {
    let out: { status: number; text: string; connection?: string } | undefined;
    let error: string | undefined;
    const req = request({ port, host: '127.0.0.1', method: 'POST', path: '/', headers: { 'content-length': body.length } }, (res) => {
      let text = '';
      res.on('data', (d) => { text += d; });
      res.on('end', () => { out = { status: res.statusCode!, text, connection: res.headers.connection }; });
    });
    req.on('error', (e: NodeJS.ErrnoException) => { error = e.code; });
    req.on('close', () => setImmediate(() => resolve({ ...(out ?? { status: 0, text: '' }), error })));
    req.end(body);
  });
}

/** A raw client that keeps sending `chunk` bytes every `everyMs` whatever the server answers (it ignores the FIN). */
function stubborn(port: number, announce: number, chunk: number, everyMs: number): Promise<{ answer: string; sent: number; ms: number }> {
  return new Promise((resolve) => {
    const t0 = Date.now();
    const socket: Socket = connect({ port, host: '127.0.0.1', allowHalfOpen: true });
    let answer = '';
    let sent = 0;
    let closed = false;
    socket.on('data', (d) => { answer += d; });
    socket.on('error', () => {});
    socket.on('close', () => { closed = true; resolve({ answer, sent, ms: Date.now() - t0 }); });
    socket.on('connect', async () => {
      socket.write(`POST / HTTP/1.1\r\nhost: x\r\ncontent-length: ${announce}\r\n\r\n`);
      const piece = Buffer.alloc(chunk, 0x61);
      while (!closed) {
        sent += chunk;
        if (!socket.write(piece)) {
          await new Promise<void>((r) => { const go = () => { socket.off('drain', go); socket.off('close', go); r(); }; socket.on('drain', go); socket.on('close', go); });
        }
        if (everyMs) await new Promise((r) => setTimeout(r, everyMs));
      }
    });
  });
}

test('an answer before the body: the client gets it whole with Connection: close, the rest is drained', async () => {
  const s = await earlyServer({ maxMs: 5000, maxBytes: 64 * 1024 * 1024 });
  try {
    for (let i = 0; i < 3; i++) {
      const r = await post(s.port, Buffer.alloc(8 * 1024 * 1024, 0x61));
      assert.is(r.status, 413);
      assert.is(r.text, '{"error":{"code":"TOO_LARGE"}}');
      assert.is(r.connection, 'close');
      assert.is(r.error, undefined, `the client saw ${r.error}`);
    }
    await s.settled(3);
    assert.equal(s.outcomes, ['drained', 'drained', 'drained']);
  } finally {
    s.server.close();
  }
});

test('a body read to its end: nothing to linger, the connection is kept alive', async () => {
  const s = await earlyServer({ maxMs: 5000, maxBytes: 1024 }, true);
  try {
    const r = await post(s.port, Buffer.alloc(100_000, 0x61));
    assert.is(r.status, 413);
    assert.is(r.connection, 'keep-alive');
    assert.equal(s.outcomes, []);
  } finally {
    s.server.closeAllConnections();
    s.server.close();
  }
});

test('a client that sends on and on is cut after maxBytes', async () => {
  const s = await earlyServer({ maxMs: 10_000, maxBytes: 1024 * 1024 });
  try {
    const r = await stubborn(s.port, 1024 ** 3, 64 * 1024, 0);
    assert.match(r.answer, /^HTTP\/1\.1 413/);
    assert.is(await s.settled(), 'byte_limit');
    // 1 MiB read, plus what the kernel buffers on both sides; never the announced GiB.
    assert.ok(r.sent < 48 * 1024 * 1024, `sent ${r.sent}`);
  } finally {
    s.server.close();
  }
});

test('a client that trickles is cut after maxMs', async () => {
  const s = await earlyServer({ maxMs: 300, maxBytes: 1024 * 1024 });
  try {
    const r = await stubborn(s.port, 1_000_000, 10, 20);
    assert.match(r.answer, /^HTTP\/1\.1 413/);
    assert.is(await s.settled(), 'time_limit');
    assert.ok(r.ms >= 250 && r.ms < 3000, `held ${r.ms} ms`);
  } finally {
    s.server.close();
  }
});

test('fetch gets the answer; the linger ends when it closes or its body ends, not on a bound', async () => {
  const s = await earlyServer({ maxMs: 10_000, maxBytes: 64 * 1024 * 1024 });
  try {
    const res = await fetch(`http://127.0.0.1:${s.port}/`, { method: 'POST', body: Buffer.alloc(4 * 1024 * 1024, 0x61) });
    assert.is(res.status, 413);
    await res.text();
    const outcome = await s.settled();
    assert.ok(outcome === 'client_closed' || outcome === 'drained', outcome);
  } finally {
    s.server.close();
  }
});

test.run();
