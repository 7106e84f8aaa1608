// What reaches the client is what the upstream sent, down to the status line; what is stored never claims more
// than went over the wire. `vigil run` in front of a hand-written HTTP/1.1 upstream (every byte scripted), with
// raw TCP clients that read the exact bytes the gateway wrote.
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { connect } from 'node:net';
import { freePort, waitFor } from '../support/net.js';
import { parseExposition, samplesOf } from '../support/prometheus-text.js';
import { tempDir } from '../support/tmp.js';
import { startVigil, writeConfig, type VigilProcess } from '../support/vigil-process.js';
import { hasWholeResponse, rawExchange, startRawUpstream, statusLine, type RawScript } from '../support/raw-http.js';
import { waitForRecord, type GatewayRecord } from '../support/gateway-client.js';

const TOKEN = 'wire-fidelity-token';
const work = tempDir('vigil-wire-');
let vigil: VigilProcess;
let upstream: Awaited<ReturnType<typeof startRawUpstream>>;
let proxyPort = 0;
let cp = '';

const COMPLETE_JSON = '{"card":{"number":"4111111111111111"},"ok":true}';
const chunk = (s: string) => `${Buffer.byteLength(s).toString(16)}\r\n${s}\r\n`;
const reasons: Record<string, string> = {
  '/reason/empty': 'HTTP/1.1 200 ',
  '/reason/custom': 'HTTP/1.1 200 Fine Thanks',
  '/reason/empty-404': 'HTTP/1.1 404 ',
  '/reason/empty-unregistered': 'HTTP/1.1 599 ',
  '/reason/unregistered': 'HTTP/1.1 299 Odd But Legal',
  // UTF-8 bytes, written here one latin1 character per byte.
  '/reason/utf8': 'HTTP/1.1 200 Tr\u00c3\u00a8s bien',
};

const scripts: Record<string, RawScript> = {};
for (const [path, line] of Object.entries(reasons)) {
  scripts[path] = (s) => { s.write(Buffer.from(`${line}\r\nContent-Length: 2\r\n\r\nok`, 'latin1')); };
}
// A whole JSON document in the first chunk, then a reset (RST) before the terminating chunk.
const resetAfterJsonChunk: RawScript = (s) => {
  s.write(`HTTP/1.1 200 OK\r\nContent-Type: application/json\r\nTransfer-Encoding: chunked\r\n\r\n${chunk(COMPLETE_JSON)}`);
  setTimeout(() => s.resetAndDestroy(), 50);
};
// The same document, but Content-Length promises more, and the upstream closes (FIN) after the document.
const shortOfContentLength: RawScript = (s) => {
  s.end(`HTTP/1.1 200 OK\r\nContent-Type: application/json\r\nContent-Length: ${COMPLETE_JSON.length + 40}\r\n\r\n${COMPLETE_JSON}`);
};
// Chunked, cut by a clean close (FIN) after a whole chunk.
const chunkedCutByClose: RawScript = (s) => {
  s.end(`HTTP/1.1 200 OK\r\nContent-Type: application/json\r\nTransfer-Encoding: chunked\r\n\r\n${chunk(COMPLETE_JSON)}`);
};
for (const prefix of ['/json', '/text']) {
  scripts[`${prefix}/reset`] = resetAfterJsonChunk;
  scripts[`${prefix}/short`] = shortOfContentLength;
  scripts[`${prefix}/chunked-cut`] = chunkedCutByClose;
}
scripts['/json/whole'] = (s) => {
  s.write(`HTTP/1.1 200 OK\r\nContent-Type: application/json\r\nContent-Length: ${COMPLETE_JSON.length}\r\n\r\n${COMPLETE_JSON}`);
};

const test = suite('gateway wire fidelity');

test.before(async () => {
  upstream = await startRawUpstream(scripts);
  proxyPort = await freePort();
  const cpPort = await freePort();
  cp = `http://127.0.0.1:${cpPort}`;
  const file = writeConfig(work.path, `service:
  upstream: http://127.0.0.1:${upstream.port}
  listen: 127.0.0.1:${proxyPort}
  client_body_timeout: 300ms
rules:
  - name: all
    match: { path: /** }
  - name: json
    match: { path: /json/** }
    redact:
      json_fields: [$.card.number]
control_plane: { listen: 127.0.0.1:${cpPort}, token: ${TOKEN} }
data_dir: ${work.path}/data
`);
  vigil = await startVigil(file, cp, { cwd: work.path });
});

test.after(async () => {
  await vigil?.stop('SIGKILL');
  upstream?.close();
  work.cleanup();
});

const get = (path: string) => rawExchange(proxyPort, `GET ${path} HTTP/1.1\r\nHost: gw.test\r\n\r\n`, hasWholeResponse);
const recordFor = (path: string): Promise<GatewayRecord> => waitForRecord(cp, TOKEN, path);

test('the reason phrase reaches the client as the upstream sent it, empty included', async () => {
  for (const [path, line] of Object.entries(reasons)) {
    const reply = await get(path);
    assert.is(statusLine(reply), line, path);
    assert.ok(reply.toString('latin1').endsWith('\r\n\r\nok'), `${path}: the body`);
  }
});

test('a reason phrase in obs-text that is not UTF-8 keeps its status, its other characters and the body', async () => {
  // undici hands the reason over decoded as UTF-8: a lone latin1 byte arrives as U+FFFD, whose bytes are relayed.
  scripts['/reason/obs-text'] = (s) => { s.write(Buffer.from('HTTP/1.1 200 caf\u00e9 ok\r\nContent-Length: 2\r\n\r\nok', 'latin1')); };
  const reply = await get('/reason/obs-text');
  assert.is(statusLine(reply), 'HTTP/1.1 200 caf\u00ef\u00bf\u00bd ok');
  assert.ok(reply.toString('latin1').endsWith('\r\n\r\nok'));
});

test('a status line without the space before an (empty) reason is relayed in its valid form', async () => {
  scripts['/reason/no-space'] = (s) => { s.write('HTTP/1.1 200\r\nContent-Length: 2\r\n\r\nok'); };
  const reply = await get('/reason/no-space');
  assert.is(statusLine(reply), 'HTTP/1.1 200 ');
});

test('a JSON response cut by a reset after a complete chunk is stored as partial, never as the whole document', async () => {
  for (const how of ['reset', 'short', 'chunked-cut']) {
    const path = `/json/${how}`;
    const reply = await rawExchange(proxyPort, `GET ${path} HTTP/1.1\r\nHost: gw.test\r\n\r\n`);
    const text = reply.toString('latin1');
    assert.ok(text.startsWith('HTTP/1.1 200 OK\r\n'), `${how}: the status went through`);
    assert.not.ok(text.endsWith('0\r\n\r\n'), `${how}: the client was told the body is incomplete (no last chunk)`);
    const r = await recordFor(path);
    assert.is(r.response_body, null, `${how}: a cut body is not stored where json_fields apply`);
    assert.is(r.partial, true, `${how}: partial`);
    assert.is(r.truncated, true, `${how}: not whole`);
    assert.match(r.dropped_reason ?? '', /response_body: .*incomplete/, how);
    assert.type(r.error, 'string', `${how}: error names the cut`);
    assert.not.ok(JSON.stringify(r).includes('4111111111111111'), `${how}: an unredacted value was stored`);
  }
});

test('without json_fields, a cut JSON body is kept only as partial text, not parsed as a document', async () => {
  for (const how of ['reset', 'short', 'chunked-cut']) {
    const path = `/text/${how}`;
    await rawExchange(proxyPort, `GET ${path} HTTP/1.1\r\nHost: gw.test\r\n\r\n`);
    const r = await recordFor(path);
    assert.is(typeof r.response_body, 'string', `${how}: stored as text`);
    assert.is(r.partial, true, how);
    assert.type(r.error, 'string', how);
  }
});

test('a whole JSON response is stored whole: not partial', async () => {
  await get('/json/whole');
  const r = await recordFor('/json/whole');
  assert.equal(r.response_body, { card: { number: '[REDACTED]' }, ok: true });
  assert.is(r.partial, false);
  assert.is(r.truncated, false);
  assert.is(r.error, null);
});

test('a request body the client cut short after a complete JSON document is not stored as the document', async () => {
  const body = '{"card":{"number":"4111111111111111"}}';
  scripts['/json/upload-cut'] = () => {}; // waits for the rest of the body, which never comes
  const socket = connect(proxyPort, '127.0.0.1');
  await new Promise<void>((r) => socket.once('connect', () => r()));
  socket.on('error', () => {});
  socket.write(`POST /json/upload-cut HTTP/1.1\r\nHost: gw.test\r\nContent-Type: application/json\r\nContent-Length: ${body.length + 100}\r\n\r\n${body}`);
  // The reset must come after the gateway has read the request (else there is no exchange to store) and before its
  // client_body_timeout (300 ms) answers 408: a fixed pause guessed when the gateway would have read it. Its request
  // buffer taking the body's first bytes says it has.
  await waitFor(async () => {
    const res = await fetch(`${cp}/metrics`, { headers: { authorization: `Bearer ${TOKEN}` } });
    return (samplesOf(parseExposition(await res.text()), 'vigil_proxy_request_buffer_bytes')[0]?.value ?? 0) > 0;
  }, { timeoutMs: 5_000, what: 'the gateway to buffer the upload\'s first bytes' });
  socket.resetAndDestroy();
  const r = await recordFor('/json/upload-cut');
  assert.is(r.request_body, null);
  assert.is(r.partial, true);
  assert.is(r.error, 'client_aborted');
  assert.not.ok(JSON.stringify(r).includes('4111111111111111'));
});

test('a request body cut off for its slowness is stored as far as it came, partial, and not as a document', async () => {
  const socket = connect(proxyPort, '127.0.0.1');
  await new Promise<void>((r) => socket.once('connect', () => r()));
  socket.on('error', () => {});
  const reply = new Promise<string>((resolve) => { let got = ''; socket.on('data', (d) => { got += d; }); socket.on('close', () => resolve(got)); });
  socket.write('POST /text/slow-upload HTTP/1.1\r\nHost: gw.test\r\nContent-Type: application/json\r\nContent-Length: 100\r\n\r\n{"a":1}');
  assert.match(await reply, /^HTTP\/1\.1 408 /);
  const r = await recordFor('/text/slow-upload');
  assert.is(r.request_body, '{"a":1}');
  assert.is(r.partial, true);
  assert.is(r.error, 'VIGIL_ERR_PROXY_CLIENT_TIMEOUT');
});

test('the gateway still serves after every cut', async () => {
  const reply = await get('/reason/custom');
  assert.is(statusLine(reply), 'HTTP/1.1 200 Fine Thanks');
  await waitFor(() => true);
});

test.run();
