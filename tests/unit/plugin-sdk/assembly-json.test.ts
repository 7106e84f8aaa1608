// plugin-sdk/assembly/json-document.ts, json-writer.ts and base64url.ts (AssemblyScript), driven through a test guest (tests/fixtures/wasm/json-probe.ts).
// Not under tests/unit/plugin-sdk/assembly/: folders named `assembly` are not transpiled.
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { createWasmSandbox, type WasmSandbox } from '../../../sandbox/wasm/index.js';
import { fixture } from '../../support/paths.js';

let probe: WasmSandbox;
test.before(async () => {
  probe = await createWasmSandbox({ module: fixture('wasm', 'json-probe.wasm'), callTimeoutMs: 5000 });
});
test.after(async () => {
  await probe.close();
});

const utf8 = new TextDecoder('utf-8', { fatal: true });
const call = async (fn: string, input: string | Uint8Array) => utf8.decode(await probe.call(fn, input));

test('well-formed documents survive reader and writer unchanged in meaning', async () => {
  const documents = [
    'null', 'true', 'false', '0', '-0.5e-3', '12345678901234567890', '""', '[]', '{}',
    '{"a":1,"b":[true,false,null],"c":{"d":"e"}}',
    ' \n\t{ "spaced" : [ 1 , 2 ] }\r\n',
    '"quote \\" backslash \\\\ slash \\/ controls \\b\\f\\n\\r\\t"',
    '"\\u00e9\\u6771\\ud83d\\ude80 and raw é東🚀"',
    '"\\u0000\\u001f"',
    '{"ключ":"значение","キー":"値","":"empty key"}',
    JSON.stringify({ long: 'x'.repeat(5000), eightAligned: 'abcdefgh'.repeat(40) + '"'.repeat(3) }),
    JSON.stringify([1.5, -2, 3e10, 'mix', { n: [[[]]] }]),
  ];
  for (const text of documents) {
    const out = await call('reencode', text);
    assert.equal(JSON.parse(out), JSON.parse(text), text.slice(0, 60));
  }
});

test('digit runs beyond 2^53 keep every digit', async () => {
  assert.is(await call('reencode', '[4111111111111111111]'), '[4111111111111111111]');
});

test('lone surrogates are escaped on output, so the output is always valid UTF-8', async () => {
  const out = await call('reencode', '["\\ud800", "a\\udc00b", "\\ud83d\\ude80"]');
  assert.is(out, '["\\ud800","a\\udc00b","🚀"]');
});

test('malformed documents are refused with a position', async () => {
  const bad: [string, RegExp][] = [
    ['', /unexpected end/],
    ['{', /expected a key|unterminated/],
    ['{"a" 1}', /expected :/],
    ['{"a":1,}', /expected a key/],
    ['[1 2]', /expected , or a closing bracket/],
    ['[1,]', /unexpected character/],
    ['"unterminated', /unterminated string/],
    ['"bad \\x escape"', /invalid escape/],
    ['"bad \\u12g4"', /invalid \\u escape/],
    ['"raw \n newline"', /control character/],
    ['tru', /invalid literal/],
    ['01x', /trailing characters/],
    ['-', /invalid number/],
    ['1.', /invalid number/],
    ['1e', /invalid number/],
    ['{} {}', /trailing characters/],
    ['['.repeat(70) + ']'.repeat(70), /nesting too deep/],
  ];
  for (const [text, pattern] of bad) {
    const out = await call('reencode', text);
    assert.match(out, /^error: json: .* at byte \d+$/, text);
    assert.match(out, pattern, text);
  }
});

test('the strict parser traps on malformed input; the instance is replaced and serves again', async () => {
  const err = await probe.call('parse_strict', '{"a":').then(() => null, (e: { reason: string; message: string }) => e);
  assert.is(err?.reason, 'trap');
  assert.match(err!.message, /json: /);
  assert.is(await call('parse_strict', '{"a":1}'), 'ok');
});

test('get compares keys byte-wise, including non-ASCII and escaped keys', async () => {
  const look = (object: unknown, key: string) => call('lookup', JSON.stringify({ object, key }));
  assert.is(await look({ a: 1, ab: 'x' }, 'ab'), 'found 3 x');
  assert.is(await look({ a: 1 }, 'b'), 'absent');
  assert.is(await look({ a: 1 }, 'aa'), 'absent');
  assert.is(await look({ 'é': 'accent' }, 'é'), 'found 3 accent');
  assert.is(await look({ 'e': 'plain' }, 'é'), 'absent');
  assert.is(await call('lookup', '{"object":{"\\u0061b":"escaped"},"key":"ab"}'), 'found 3 escaped');
  assert.is(await look({ n: 12 }, 'n'), 'found 2 12');
  assert.is(await look([1, 2], '0'), 'absent');
});

test('base64url decoding, with and without padding, and refusal of other text', async () => {
  const b64 = (s: string) => Buffer.from(s).toString('base64url');
  assert.is(await call('base64url', b64('{"sub":"ünï"}')), 'text:{"sub":"ünï"}');
  assert.is(await call('base64url', Buffer.from('ab').toString('base64')), 'text:ab');
  assert.is(await call('base64url', b64('a')), 'text:a');
  // Bytes that are not UTF-8 decode to something (AssemblyScript's choice), never a trap: tokens are client data.
  assert.match(await call('base64url', Buffer.from([0xfb, 0xff]).toString('base64')), /^text:/);
  assert.is(await call('base64url', ''), 'text:');
  assert.is(await call('base64url', 'abc!'), 'null');
  assert.is(await call('base64url', 'abcde'), 'null', 'a length of 4n+1 cannot be base64');
});

test.run();
