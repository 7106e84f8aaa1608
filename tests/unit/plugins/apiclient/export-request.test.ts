import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { execFile, spawnSync } from 'node:child_process';
import { promisify } from 'node:util';
import { createServer, type Server, type Socket } from 'node:net';
import { toCurl, toRawHttp } from '../../../../plugins/apiclient/export-request.js';
import { importCurl } from '../../../../plugins/apiclient/import-curl.js';
import { sendRequest } from '../../../../plugins/apiclient/send-request.js';
import { emptyRequest, type ApiRequest } from '../../../../plugins/apiclient/types.js';
import { emptyScope, fillRequest, headersWithAuth, type Scope } from '../../../../plugins/apiclient/variables.js';

const scope = (values: Record<string, string>, secret: string[] = []): Scope => ({ values: new Map(Object.entries(values)), secret: new Set(secret) });

/** What goes on the wire, for comparing two requests: method, URL, headers with auth applied, body. */
const wire = (r: ApiRequest) => ({ method: r.method, url: new URL(r.url).href, headers: headersWithAuth(r).map((h) => [h.name, h.value]), body: r.body });

const tricky = emptyRequest({
  method: 'POST', url: '{{base}}/items?q=a b&x=\'1\'',
  headers: [{ name: 'Content-Type', value: 'application/json' }, { name: 'X-Quote', value: 'it\'s "quoted" $HOME `id`' }, { name: 'X-Off', value: 'no', enabled: false }, { name: 'X-Empty', value: '' }],
  body: '{"text":"line one\\nit\'s $PATH","n":1}\nsecond line',
  auth: { type: 'basic', username: 'ada', password: 'p:w\'d' },
});

test('an exported curl line, imported again, is the same request', () => {
  const s = scope({ base: 'http://127.0.0.1:9' });
  for (const r of [tricky, emptyRequest({ url: 'http://h/x' }), emptyRequest({ method: 'DELETE', url: 'http://h/x/1', auth: { type: 'bearer', token: 't' } }), emptyRequest({ method: 'HEAD', url: 'http://h/' })]) {
    const [back] = importCurl(toCurl(r, s));
    assert.equal(wire(back), wire(fillRequest(r, s).request), toCurl(r, s));
  }
});

test('a secret variable becomes a shell variable to set, never its value', () => {
  const r = emptyRequest({ url: 'http://h/me', auth: { type: 'bearer', token: '{{token}}' } });
  const text = toCurl(r, scope({ token: 's3cr3t-value' }, ['token']));
  assert.not.match(text, /s3cr3t/);
  assert.match(text, /-H 'Authorization: Bearer '"\$TOKEN"/);
  assert.match(text, /^# Secret variables: set TOKEN first/);
  const raw = toRawHttp(r, scope({ token: 's3cr3t-value' }, ['token']));
  assert.not.match(raw, /s3cr3t/);
  assert.match(raw, /Authorization: Bearer \{\{token\}\}/);
});

test('raw HTTP: request line with the path and query, Host, headers, length, body', () => {
  const raw = toRawHttp(emptyRequest({ method: 'PUT', url: 'https://u:p@api.test:8443/a/b?c=1', headers: [{ name: 'X-A', value: '1' }], body: 'héllo' }), emptyScope());
  assert.is(raw, 'PUT /a/b?c=1 HTTP/1.1\r\nHost: api.test:8443\r\nX-A: 1\r\nContent-Length: 6\r\n\r\nhéllo');
});

/** A loopback server that keeps each request's bytes as they arrived and answers 200. */
function recorder(): Promise<{ server: Server; port: number; requests: Buffer[] }> {
  const requests: Buffer[] = [];
  const server = createServer((socket: Socket) => {
    let buf = Buffer.alloc(0);
    socket.on('data', (chunk) => {
      buf = Buffer.concat([buf, chunk]);
      const end = buf.indexOf('\r\n\r\n');
      if (end < 0) return;
      const length = Number(/\r\ncontent-length: *(\d+)/i.exec(buf.subarray(0, end).toString())?.[1] ?? 0);
      if (buf.length < end + 4 + length) return;
      requests.push(buf);
      socket.end('HTTP/1.1 200 OK\r\nContent-Length: 2\r\nConnection: close\r\n\r\nok');
    });
  });
  return new Promise((resolve) => server.listen(0, '127.0.0.1', () => resolve({ server, port: (server.address() as { port: number }).port, requests })));
}

/** Request line, headers (name lower-cased, in order), body: Connection left out (the sender closes, curl keeps alive). */
function parsed(bytes: Buffer) {
  const end = bytes.indexOf('\r\n\r\n');
  const [line, ...headers] = bytes.subarray(0, end).toString('latin1').split('\r\n');
  const pairs = headers.map((h) => [h.slice(0, h.indexOf(':')).toLowerCase(), h.slice(h.indexOf(':') + 1).trim()]).filter(([n]) => n !== 'connection');
  return { line, headers: pairs.sort((a, b) => a[0].localeCompare(b[0])), body: bytes.subarray(end + 4).toString('hex') };
}

test('the real curl binary running the export sends what the server-side send sends', async () => {
  const curl = spawnSync('curl', ['--version']);
  assert.is(curl.status, 0, 'curl is installed (Debian package curl, in .ci/run)');
  const rec = await recorder();
  try {
    const s = scope({ base: `http://127.0.0.1:${rec.port}` });
    // The sender's default User-Agent differs from curl's: the request names its own, as a browser's copy does.
    const r = { ...tricky, headers: [...tricky.headers, { name: 'User-Agent', value: 'shop-client/1.0' }, { name: 'Accept', value: 'application/json' }] };
    const filled = fillRequest(r, s).request;
    await sendRequest({ method: filled.method, url: filled.url, headers: headersWithAuth(filled).map((h) => [h.name, h.value]), body: filled.body }, { timeoutMs: 10_000, maxBytes: 1024 });
    // Asynchronously: the recorder answering curl runs on this thread.
    await promisify(execFile)('bash', ['-c', `${toCurl(r, s)} -sS -o /dev/null`], { timeout: 60_000 });
    assert.is(rec.requests.length, 2);
    const [fromSender, fromCurl] = rec.requests.map(parsed);
    assert.equal(fromCurl, fromSender);
    assert.match(fromSender.line, /^POST \/items\?q=a%20b&x=%271%27 HTTP\/1\.1$/);
  } finally {
    rec.server.close();
  }
});

test.run();
