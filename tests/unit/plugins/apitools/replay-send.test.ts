// The replay's HTTP client against a real local server: redirects are answers, a path prefix applies, compressed
// answers are decoded, and a timeout, a refused connection or an unsendable record are outcomes, not throws.
import { createServer, type Server } from 'node:http';
import { gzipSync } from 'node:zlib';
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { createSender } from '../../../../plugins/apitools/replay/replay-send.js';
import { freePort } from '../../../support/net.js';

let server: Server;
let base = '';
const seen: string[] = [];

test.before(async () => {
  server = createServer((req, res) => {
    seen.push(`${req.method} ${req.url} ${req.headers['content-length'] ?? '-'}`);
    req.resume();
    const path = req.url!.split('?')[0];
    req.on('end', () => {
      if (path.endsWith('/moved')) { res.writeHead(302, { location: '/elsewhere' }); res.end(); return; }
      if (path.endsWith('/gz')) { res.writeHead(200, { 'content-type': 'application/json', 'content-encoding': 'gzip' }); res.end(gzipSync('{"a":1}')); return; }
      if (path.endsWith('/hang')) return; // never answers
      res.writeHead(200, { 'content-type': 'application/json' });
      res.end('{"ok":true}');
    });
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  base = `http://127.0.0.1:${(server.address() as { port: number }).port}`;
});
test.after(() => { server.closeAllConnections(); server.close(); });

const get = (target: string) => ({ method: 'GET', target, headers: {}, body: null });

test('a redirect is an answer, never followed; the target path prefixes the request', async () => {
  const sender = createSender(new URL(`${base}/v2/`), 2000, 2);
  seen.length = 0;
  const moved = await sender.send(get('/moved?x=1'));
  assert.equal(moved.ok && moved.status, 302);
  assert.equal(seen, ['GET /v2/moved?x=1 -']);
  const posted = await sender.send({ method: 'POST', target: '/notes', headers: { 'Content-Type': 'application/json' }, body: Buffer.from('{"a":1}') });
  assert.ok(posted.ok);
  assert.is(seen[1], 'POST /v2/notes 7');
  sender.close();
});

test('a compressed answer is decoded for the comparison', async () => {
  const sender = createSender(new URL(base), 2000, 1);
  const gz = await sender.send(get('/gz'));
  assert.ok(gz.ok && !gz.unreadable);
  if (gz.ok) assert.is(gz.body.toString(), '{"a":1}');
  sender.close();
});

test('a timeout, a refused connection and an unsendable record are outcomes', async () => {
  const sender = createSender(new URL(base), 200, 1);
  const started = Date.now();
  const hung = await sender.send(get('/hang'));
  assert.equal(hung.ok ? 'ok' : hung.error, 'timeout');
  assert.ok(Date.now() - started < 2000);
  const bad = await sender.send(get('/with space'));
  assert.equal(bad.ok ? 'ok' : bad.error, 'invalid_request');
  const badHeader = await sender.send({ ...get('/'), headers: { 'X-Bad': 'a\nb' } });
  assert.equal(badHeader.ok ? 'ok' : badHeader.error, 'invalid_request');
  sender.close();
  const dead = createSender(new URL(`http://127.0.0.1:${await freePort()}`), 2000, 1);
  const refused = await dead.send(get('/'));
  assert.equal(refused.ok ? 'ok' : refused.error, 'connection_error');
  dead.close();
});

test('a name connects to the addresses the guard checked, never to what it resolves to later', async () => {
  const port = (server.address() as { port: number }).port;
  // A name no resolver knows reaches the checked address…
  const pinned = createSender(new URL(`http://staging.invalid:${port}/`), 2000, 1, ['127.0.0.1']);
  seen.length = 0;
  const reached = await pinned.send(get('/pinned'));
  assert.equal(reached.ok && reached.status, 200);
  assert.equal(seen, ['GET /pinned -']);
  pinned.close();
  // …and a name the resolver knows (localhost: 127.0.0.1, where the server is) goes only where the guard said.
  const elsewhere = createSender(new URL(`http://localhost:${port}/`), 2000, 1, ['127.0.0.2']);
  const refused = await elsewhere.send(get('/elsewhere'));
  assert.equal(refused.ok ? 'ok' : refused.error, 'connection_error');
  assert.is(seen.length, 1);
  elsewhere.close();
  const nowhere = createSender(new URL(`http://localhost:${port}/`), 2000, 1, []);
  const unresolved = await nowhere.send(get('/nowhere'));
  assert.equal(unresolved.ok ? 'ok' : [unresolved.error, unresolved.detail], ['connection_error', 'ENOTFOUND']);
  nowhere.close();
});

test.run();
