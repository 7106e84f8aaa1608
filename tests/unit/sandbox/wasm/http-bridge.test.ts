import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { createWasmSandbox, type WasmSandbox } from '../../../../sandbox/wasm/index.js';
import { WasmCallError } from '../../../../sandbox/wasm/errors.js';
import { fixture } from '../../../support/paths.js';

let server: Server;
let base: string;
let sandbox: WasmSandbox;
const seen: { method: string; url: string; from?: string; body: string }[] = [];

test.before(async () => {
  server = createServer((req, res) => {
    let body = '';
    req.setEncoding('utf8');
    req.on('data', (d) => { body += d; });
    req.on('end', () => {
      seen.push({ method: req.method!, url: req.url!, from: req.headers['x-from'] as string | undefined, body });
      if (req.url === '/redirect') {
        res.writeHead(302, { location: 'http://localhost:1/elsewhere' }).end('moved');
      } else if (req.url === '/big') {
        res.end('x'.repeat(5000));
      } else if (req.url === '/hang') {
        // never answers
      } else {
        res.writeHead(201).end(`hello ${req.method} ✓`);
      }
    });
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  sandbox = await createWasmSandbox({
    module: fixture('wasm', 'http.wasm'),
    allowedHosts: ['127.0.0.1'],
    maxHttpResponseBytes: 1024,
    callTimeoutMs: 2000,
  });
});

test.after(async () => {
  await sandbox.close();
  server.closeAllConnections();
  await new Promise((r) => server.close(r));
});

const text = (b: Uint8Array) => new TextDecoder().decode(b);
const failure = async (s: WasmSandbox, fn: string, input: string) => {
  const e = await s.call(fn, input).then(() => null, (err: unknown) => err);
  assert.instance(e, WasmCallError);
  return e as WasmCallError;
};

test('a guest reaches an allowed host and gets status and body', async () => {
  assert.is(text(await sandbox.call('fetch_url', `${base}/hello`)), '201 hello GET ✓');
  assert.equal(seen.at(-1), { method: 'GET', url: '/hello', from: 'guest', body: '' });
  assert.is(text(await sandbox.call('post_url', `${base}/post`)), '201 hello POST ✓');
  assert.is(seen.at(-1)!.body, 'ping ✓');
});

test('a host off the allow-list traps the call and sends nothing', async () => {
  const before = seen.length;
  const err = await failure(sandbox, 'fetch_url', `http://localhost:${new URL(base).port}/hello`);
  assert.is(err.reason, 'trap');
  assert.match(err.message, /"localhost" is not allowed/);
  assert.is(seen.length, before);
  assert.match((await failure(sandbox, 'fetch_url', 'file:///etc/passwd')).message, /only http and https/);
});

test('redirects are returned, not followed (they could leave the allow-list)', async () => {
  assert.is(text(await sandbox.call('fetch_url', `${base}/redirect`)), '302 moved');
});

test('a response above the limit fails the call', async () => {
  assert.match((await failure(sandbox, 'fetch_url', `${base}/big`)).message, /larger than 1024 bytes/);
  assert.is(text(await sandbox.call('fetch_url', `${base}/again`)), '201 hello GET ✓');
});

test('a request that never gets an answer is bounded by the call limit', async () => {
  const err = await failure(sandbox, 'fetch_url', `${base}/hang`);
  assert.ok(err.reason === 'timeout' || err.reason === 'trap', err.message);
  assert.is(text(await sandbox.call('fetch_url', `${base}/after`)), '201 hello GET ✓');
});

test('without allowedHosts a guest has no HTTP at all', async () => {
  const closed = await createWasmSandbox({ module: fixture('wasm', 'http.wasm') });
  try {
    const before = seen.length;
    const err = await failure(closed, 'fetch_url', `${base}/hello`);
    assert.match(err.message, /allows no HTTP/);
    assert.is(seen.length, before);
  } finally {
    await closed.close();
  }
});

test.run();
