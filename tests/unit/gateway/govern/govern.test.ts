import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { gzipSync } from 'node:zlib';
import { compilePolicy } from '../../../../policies/compile.js';
import type { RuleConfig } from '../../../../policies/schema.js';
import { governExchange } from '../../../../gateway/govern/govern.js';
import type { RawExchange } from '../../../../gateway/govern/types.js';

const R = '[REDACTED]';
const CARD = '4111111111111111';

function decision(rules: RuleConfig[], method = 'POST', target = '/api/pay') {
  return compilePolicy({ rules }).decide(method, target);
}

function exchange(over: Partial<RawExchange> = {}): RawExchange {
  return {
    id: 'x1', time: 1_700_000_000_000, method: 'POST', target: '/api/pay', path: '/api/pay', ruleIndexes: [],
    labels: {}, requestHeaders: ['Content-Type', 'application/json'], responseHeaders: ['Content-Type', 'application/json'],
    status: 200, durationMs: 12.5, requestBody: null, requestTruncated: false, responseBody: null, responseTruncated: false,
    ...over,
  };
}

const json = (v: unknown) => Buffer.from(JSON.stringify(v));
const always = { random: () => 0 };
const cardRules: RuleConfig[] = [{ name: 'pay', match: { path: '/api/**' }, redact: { json_fields: ['$.card.number', '$.**.cvc'] } }];

test('record fields come from the exchange and the decision', () => {
  const d = decision([{ name: 'all', match: { path: '/**' } }, { name: 'pay', match: { path: '/api/*' } }]);
  const r = governExchange(exchange({ status: 201 }), d, always);
  assert.is(r.id, 'x1');
  assert.is(r.time, 1_700_000_000_000);
  assert.is(r.method, 'POST');
  assert.is(r.path, '/api/pay');
  assert.equal(r.route, ['/**', '/api/*']);
  assert.equal(r.matched_rules, ['all', 'pay']);
  assert.is(r.status, 201);
  assert.is(r.duration_ms, 12.5);
  assert.is(r.dropped_reason, null);
  assert.is(r.truncated, false);
  assert.is(r.error, null);
});

test('the error the gateway answered with is kept (a 504 it made is told from one the upstream sent); a non-string reads as none', () => {
  const d = decision([{ name: 'all', match: { path: '/**' } }]);
  assert.is(governExchange(exchange({ status: 504, error: 'VIGIL_ERR_PROXY_UPSTREAM_TIMEOUT' }), d, always).error, 'VIGIL_ERR_PROXY_UPSTREAM_TIMEOUT');
  assert.is(governExchange(exchange({ status: 0, error: 'client_aborted' }), d, always).error, 'client_aborted');
  assert.is(governExchange(exchange({ status: 504 }), d, always).error, null);
  assert.is(governExchange(exchange({ error: { code: 'x' } as unknown as string }), d, always).error, null);
});

test('JSON fields are redacted in request and response bodies; the rest is kept', () => {
  const r = governExchange(exchange({
    requestBody: json({ card: { number: CARD, cvc: '123', holder: 'Ada' }, amount: 5 }),
    responseBody: json({ card: { number: CARD, last4: '1111' }, wallet: { x: { cvc: '9' } } }),
  }), decision(cardRules), always);
  assert.equal(r.request_body, { card: { number: R, cvc: R, holder: 'Ada' }, amount: 5 });
  assert.equal(r.response_body, { card: { number: R, last4: '1111' }, wallet: { x: { cvc: R } } });
});

test('headers: canonical names, every repetition and spelling of a redacted header masked, response headers too', () => {
  const d = decision([{ name: 'h', match: { path: '/**' }, redact: { headers: ['Authorization', 'x-api-key', 'Set-Cookie'] } }]);
  const r = governExchange(exchange({
    requestHeaders: ['authorization', 'Bearer a', 'AUTHORIZATION', 'Bearer b', 'X-API-KEY', 'k1', 'content-type', 'application/json', 'x-request-id', 'r1', 'Accept', 'a', 'accept', 'b'],
    responseHeaders: ['set-cookie', 's=1', 'Set-Cookie', 's=2', 'etag', '"v1"'],
  }), d, always);
  assert.equal(r.headers, {
    Authorization: [R, R], 'X-Api-Key': R, 'Content-Type': 'application/json', 'X-Request-Id': 'r1', Accept: ['a', 'b'],
  });
  assert.equal(r.response_headers, { 'Set-Cookie': [R, R], Etag: '"v1"' });
});

test('query parameters: every repetition and spelling masked, others kept and decoded', () => {
  const d = decision([{ name: 'q', match: { path: '/**' }, redact: { query_params: ['token'] } }]);
  const r = governExchange(exchange({ target: '/api/pay?token=1&page=2&Token=2&token=3&%74oken=4&q=a+b%21&flag' }), d, always);
  assert.equal(r.query, { token: [R, R, R], page: '2', Token: R, q: 'a b!', flag: '' });
  assert.not.ok(JSON.stringify(r).includes('token=1'));
});

test('a restricted route stores no body and no header, even when the exchange carries them', () => {
  const d = decision([{ name: 'admin', match: { path: '/**' }, restrict: ['request_body', 'response_body', 'headers'] }]);
  const r = governExchange(exchange({ requestBody: json({ password: 'p' }), responseBody: json({ ok: 1 }) }), d, always);
  assert.is(r.request_body, null);
  assert.is(r.response_body, null);
  assert.is(r.headers, null);
  assert.is(r.response_headers, null);
  assert.is(r.dropped_reason, null);
  const partial = decision([{ name: 'req', match: { path: '/**' }, restrict: ['request_body'] }]);
  const p = governExchange(exchange({ requestBody: json({ a: 1 }), responseBody: json({ b: 2 }) }), partial, always);
  assert.is(p.request_body, null);
  assert.equal(p.response_body, { b: 2 });
  assert.ok(p.headers !== null);
});

test('fails closed: a body that cannot be parsed where json_fields applies is not stored, and the record says why', () => {
  const d = decision(cardRules);
  const cases: { over: Partial<RawExchange>; reason: RegExp }[] = [
    { over: { requestBody: Buffer.from(`{"card":{"number":"${CARD}"`) }, reason: /^request_body: malformed JSON where json_fields redaction applies$/ },
    { over: { requestBody: json({ card: { number: CARD } }).subarray(0, 20), requestTruncated: true }, reason: /^request_body: truncated at capture limit where json_fields redaction applies$/ },
    { over: { requestBody: Buffer.concat([Buffer.from(`{"card":{"number":"${CARD}","x":"`), Buffer.from([0xff, 0xfe]), Buffer.from('"}}')]) }, reason: /invalid UTF-8 text where json_fields/ },
    { over: { requestHeaders: ['Content-Type', 'application/json', 'Content-Encoding', 'gzip'], requestBody: Buffer.from(`not gzip ${CARD}`) }, reason: /undecodable gzip content .* where json_fields/ },
    { over: { requestHeaders: ['Content-Type', 'text/plain'], requestBody: Buffer.from(`card=${CARD}`) }, reason: /non-JSON content \(text\/plain\) where json_fields/ },
    { over: { requestHeaders: ['Content-Type', 'application/json', 'Content-Encoding', 'zstd'], requestBody: Buffer.from(CARD) }, reason: /unsupported content-encoding zstd/ },
  ];
  for (const { over, reason } of cases) {
    const r = governExchange(exchange(over), d, always);
    assert.is(r.request_body, null, String(reason));
    assert.match(r.dropped_reason ?? '', reason);
    assert.not.ok(JSON.stringify(r).includes(CARD), `leaked the card: ${JSON.stringify(r)}`);
  }
});

test('a truncated response body is dropped and flagged the same way', () => {
  const r = governExchange(exchange({ responseBody: Buffer.from('{"card":{"number":"41'), responseTruncated: true }), decision(cardRules), always);
  assert.is(r.response_body, null);
  assert.is(r.truncated, true);
  assert.is(r.dropped_reason, 'response_body: truncated at capture limit where json_fields redaction applies');
});

test('a body cut short on the wire is never read as the document it happens to spell, even unflagged as truncated', () => {
  // A whole document in the bytes, yet the message was cut: a publisher may set only `…Incomplete`.
  const whole = json({ card: { number: CARD }, ok: true });
  const r = governExchange(exchange({ responseBody: whole, responseIncomplete: true, error: 'VIGIL_ERR_PROXY_UPSTREAM_UNREACHABLE' }), decision(cardRules), always);
  assert.is(r.response_body, null);
  assert.is(r.partial, true);
  assert.is(r.truncated, true);
  assert.is(r.dropped_reason, 'response_body: incomplete: cut short on the wire where json_fields redaction applies');
  assert.not.ok(JSON.stringify(r).includes(CARD));
  const plain = governExchange(exchange({ requestBody: whole, requestTruncated: true, requestIncomplete: true }), decision([]), always);
  assert.is(plain.request_body, whole.toString(), 'kept as text, not parsed');
  assert.is(plain.partial, true);
  const gz = governExchange(exchange({ responseHeaders: ['Content-Encoding', 'gzip'], responseBody: gzipSync(whole), responseIncomplete: true }), decision([]), always);
  assert.is(gz.response_body, null);
  assert.match(gz.dropped_reason ?? '', /^response_body: incomplete: cut short on the wire, and a gzip-encoded body/);
});

test('a body the traffic lane did not copy (the lane\'s byte budget was full) is null with the reason, whatever bytes came along', () => {
  const r = governExchange(exchange({
    requestBody: json({ card: { number: CARD } }), requestBodyDropped: true,
    responseBody: new Uint8Array(0), responseBodyDropped: true,
  }), decision([]), always);
  assert.is(r.request_body, null);
  assert.is(r.response_body, null);
  assert.is(r.dropped_reason, 'request_body: not copied: the capture lane held capture.queue_bytes of bodies already; response_body: not copied: the capture lane held capture.queue_bytes of bodies already');
  assert.not.ok(JSON.stringify(r).includes(CARD));
  const sampledOut = governExchange(exchange({ responseBody: new Uint8Array(0), responseBodyDropped: true }), decision([{ name: 's', match: { path: '/**' }, sample: 0 }]), always);
  assert.is(sampledOut.dropped_reason, null, 'nothing was meant to be kept');
});

test('a whole exchange is not partial; a restricted body cut on the wire does not make the record partial', () => {
  assert.is(governExchange(exchange({ responseBody: json({ a: 1 }) }), decision(cardRules), always).partial, false);
  const restricted = decision([{ name: 'r', match: { path: '/**' }, restrict: ['response_body'] }]);
  assert.is(governExchange(exchange({ responseBody: json({ a: 1 }), responseIncomplete: true }), restricted, always).partial, false);
});

test('compressed bodies are decoded (gzip, deflate, br), then redacted', async () => {
  const { deflateSync, deflateRawSync, brotliCompressSync } = await import('node:zlib');
  const d = decision(cardRules);
  const raw = json({ card: { number: CARD }, a: 1 });
  for (const [encoding, bytes] of [['gzip', gzipSync(raw)], ['deflate', deflateSync(raw)], ['deflate', deflateRawSync(raw)], ['br', brotliCompressSync(raw)], ['gzip, identity', gzipSync(raw)]] as const) {
    const r = governExchange(exchange({ requestHeaders: ['Content-Type', 'application/json', 'Content-Encoding', encoding], requestBody: bytes }), d, always);
    assert.equal(r.request_body, { card: { number: R }, a: 1 }, encoding);
  }
  // Two encodings applied in sequence are undone in reverse order.
  const twice = governExchange(exchange({ requestHeaders: ['Content-Encoding', 'gzip', 'Content-Encoding', 'br'], requestBody: brotliCompressSync(gzipSync(raw)) }), d, always);
  assert.equal(twice.request_body, { card: { number: R }, a: 1 });
});

test('decompression is bounded', () => {
  const bomb = gzipSync(Buffer.alloc(4 * 1024 * 1024, 0x20));
  const r = governExchange(exchange({ requestHeaders: ['Content-Encoding', 'gzip', 'Content-Type', 'text/plain'], requestBody: bomb }),
    decision([]), { random: () => 0, maxDecodedBytes: 1024 * 1024 });
  assert.is(r.request_body, null);
  assert.match(r.dropped_reason ?? '', /decoded body exceeds 1048576 bytes/);
});

test('with headers restricted, a gzip body is still recognised and redacted', () => {
  const d = decision([{ name: 'p', match: { path: '/**' }, restrict: ['headers'], redact: { json_fields: ['$.card.number'] } }]);
  const r = governExchange(exchange({ requestHeaders: null, responseHeaders: null, requestBody: gzipSync(json({ card: { number: CARD } })) }), d, always);
  assert.equal(r.request_body, { card: { number: R } });
  assert.is(r.headers, null);
});

test('without json_fields: text is kept as a string, malformed JSON as text, binary and bad UTF-8 are not stored', () => {
  const d = decision([]);
  const text = governExchange(exchange({ requestHeaders: ['Content-Type', 'text/plain; charset=utf-8'], requestBody: Buffer.from('héllo') }), d, always);
  assert.is(text.request_body, 'héllo');
  const malformed = governExchange(exchange({ requestBody: Buffer.from('{"a":') }), d, always);
  assert.is(malformed.request_body, '{"a":');
  assert.is(malformed.dropped_reason, null);
  const binary = governExchange(exchange({ requestHeaders: ['Content-Type', 'image/png'], requestBody: Buffer.from([0x89, 0x50, 0x4e, 0x47]) }), d, always);
  assert.is(binary.request_body, null);
  assert.is(binary.dropped_reason, 'request_body: binary content (image/png) is not stored');
  const bad = governExchange(exchange({ requestHeaders: ['Content-Type', 'text/plain'], requestBody: Buffer.from([0x61, 0xff]) }), d, always);
  assert.is(bad.request_body, null);
  assert.match(bad.dropped_reason ?? '', /invalid UTF-8/);
  const latin1 = governExchange(exchange({ requestHeaders: ['Content-Type', 'text/plain; charset=iso-8859-1'], requestBody: Buffer.from([0x63, 0x61, 0x66, 0xe9]) }), d, always);
  assert.is(latin1.request_body, 'café');
});

test('without json_fields: a truncated text body is kept, cut at a character boundary, and flagged', () => {
  const bytes = Buffer.from('{"text":"añb"}').subarray(0, 11); // cuts inside the two-byte ñ (bytes 10 and 11)
  const r = governExchange(exchange({ requestBody: bytes, requestTruncated: true }), decision([]), always);
  assert.is(r.request_body, '{"text":"a');
  assert.is(r.truncated, true);
  assert.is(r.dropped_reason, null);
});

test('a body with no content-type is parsed when it looks like JSON, else kept as text', () => {
  const d = decision([]);
  assert.equal(governExchange(exchange({ requestHeaders: [], requestBody: json({ a: [1] }) }), d, always).request_body, { a: [1] });
  assert.is(governExchange(exchange({ requestHeaders: [], requestBody: Buffer.from('plain') }), d, always).request_body, 'plain');
  assert.is(governExchange(exchange({ requestBody: new Uint8Array(0) }), d, always).request_body, null);
});

test('a JSON body sent with a non-JSON content-type is still parsed and redacted where json_fields applies', () => {
  const r = governExchange(exchange({ requestHeaders: ['Content-Type', 'application/x-www-form-urlencoded'], requestBody: json({ card: { number: CARD } }) }), decision(cardRules), always);
  assert.equal(r.request_body, { card: { number: R } });
});

test('sample 0 with keep_errors keeps 5xx bodies only (and bodies of exchanges the upstream never answered)', () => {
  const d = decision([{ name: 's', match: { path: '/**' }, sample: 0, keep_errors: true }]);
  let rolls = 0;
  const opts = { random: () => { rolls++; return 0; } };
  const run = (status: number) => governExchange(exchange({ status, requestBody: json({ a: 1 }), responseBody: json({ b: 2 }) }), d, opts);
  for (const status of [200, 201, 404, 499]) {
    const r = run(status);
    assert.is(r.request_body, null, String(status));
    assert.is(r.response_body, null, String(status));
    assert.is(r.sampled, false);
    assert.ok(r.headers !== null, 'sampling never drops headers');
  }
  for (const status of [500, 503, 599, 0]) {
    const r = run(status);
    assert.equal(r.request_body, { a: 1 }, String(status));
    assert.equal(r.response_body, { b: 2 }, String(status));
    assert.is(r.sampled, true);
  }
  assert.is(rolls, 0, 'sample 0 needs no roll');
  const noKeep = decision([{ name: 's', match: { path: '/**' }, sample: 0 }]);
  assert.is(governExchange(exchange({ status: 500, requestBody: json({ a: 1 }) }), noKeep, always).request_body, null);
});

test('a fractional sample keeps bodies when the roll is below it', () => {
  const d = decision([{ name: 's', match: { path: '/**' }, sample: 0.25 }]);
  const body = json({ a: 1 });
  assert.equal(governExchange(exchange({ requestBody: body }), d, { random: () => 0.2 }).request_body, { a: 1 });
  assert.is(governExchange(exchange({ requestBody: body }), d, { random: () => 0.25 }).request_body, null);
  assert.is(governExchange(exchange({ requestBody: body }), d, { random: () => 0.9 }).sampled, false);
});

test('dropped bodies of a sampled-out exchange leave no reason (nothing was meant to be kept)', () => {
  const d = decision([{ name: 's', match: { path: '/**' }, sample: 0, redact: { json_fields: ['$.a'] } }]);
  const r = governExchange(exchange({ requestBody: Buffer.from('{bad') }), d, always);
  assert.is(r.dropped_reason, null);
});

test('tokens: read from the response body, falling back to the request body; a number or null', () => {
  const d = decision([{ name: 'llm', match: { path: '/**' }, meter: { tokens: '$.usage.total_tokens' } }]);
  const both = governExchange(exchange({ requestBody: json({ usage: { total_tokens: 5 } }), responseBody: json({ usage: { total_tokens: 42 } }) }), d, always);
  assert.is(both.tokens, 42);
  const fallback = governExchange(exchange({ requestBody: json({ usage: { total_tokens: 5 } }), responseBody: json({ id: 1 }) }), d, always);
  assert.is(fallback.tokens, 5);
  const text = governExchange(exchange({ responseBody: json({ usage: { total_tokens: 'many' } }) }), d, always);
  assert.is(text.tokens, null);
  const none = governExchange(exchange({ responseHeaders: ['Content-Type', 'text/event-stream'], responseBody: Buffer.from('data: {}') }), d, always);
  assert.is(none.tokens, null);
  assert.is(governExchange(exchange({ responseBody: json({ usage: { total_tokens: 1 } }) }), decision([]), always).tokens, null);
});

test('tokens are metered even when the bodies are sampled out', () => {
  const d = decision([{ name: 'llm', match: { path: '/**' }, sample: 0, meter: { tokens: '$.usage.total_tokens' } }]);
  const r = governExchange(exchange({ responseBody: json({ usage: { total_tokens: 42 } }) }), d, always);
  assert.is(r.response_body, null);
  assert.is(r.tokens, 42);
});

test('a metered field that is also redacted is not copied into tokens', () => {
  const d = decision([{ name: 'llm', match: { path: '/**' }, meter: { tokens: '$.usage.total_tokens' }, redact: { json_fields: ['$.usage'] } }]);
  assert.is(governExchange(exchange({ responseBody: json({ usage: { total_tokens: 42 } }) }), d, always).tokens, null);
});

test('labels are copied; a label read from a redacted header holds the marker', () => {
  const d = decision([{ name: 'l', match: { path: '/**' }, labels: { tenant: 'header:X-Tenant-Id', client: 'header:Authorization' }, redact: { headers: ['authorization'] } }]);
  const r = governExchange(exchange({ labels: { tenant: 'acme', client: 'Bearer s3cret' } }), d, always);
  assert.equal(r.labels, { tenant: 'acme', client: R });
  assert.not.ok(JSON.stringify(r).includes('s3cret'));
});

test('a body nested too deep to walk or clone is dropped where json_fields applies, else kept as text', () => {
  const deep = '['.repeat(300) + `{"card":{"number":"${CARD}"}}` + ']'.repeat(300);
  const d = decision([{ name: 'p', match: { path: '/**' }, redact: { json_fields: ['$.**.number'] } }]);
  const r = governExchange(exchange({ requestBody: Buffer.from(deep) }), d, always);
  assert.is(r.request_body, null);
  assert.is(r.dropped_reason, 'request_body: JSON nested deeper than 256 levels where json_fields redaction applies');
  const open = governExchange(exchange({ requestBody: Buffer.from(deep) }), decision([]), always);
  assert.is(open.request_body, deep);
  structuredClone(open);
  // Brackets inside strings do not count.
  const flat = JSON.stringify({ s: '['.repeat(1000), card: { number: CARD } });
  assert.equal(governExchange(exchange({ requestBody: Buffer.from(flat) }), d, always).request_body, { s: '['.repeat(1000), card: { number: R } });
});

test('an unexpected failure keeps metadata only, never content', () => {
  const d = decision([{ name: 'p', match: { path: '/**' } }]);
  const broken = exchange({ target: undefined as unknown as string, requestHeaders: ['Authorization', 'secret'], requestBody: json({ card: CARD }) });
  const r = governExchange(broken, d, always);
  assert.is(r.id, 'x1');
  assert.equal(r.matched_rules, ['p']);
  assert.is(r.headers, null);
  assert.is(r.request_body, null);
  assert.match(r.dropped_reason ?? '', /^governance failed \(.+\); only metadata was kept$/);
  assert.not.ok(JSON.stringify(r).includes('secret'));
});

test.run();
