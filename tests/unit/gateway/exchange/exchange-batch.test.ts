// gateway/exchange/exchange-batch.ts: exchanges packed for the trip to a capture worker come out as they went in.
import { serialize } from 'node:v8';
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import type { RawExchange } from '../../../../gateway/exchange/raw-exchange.js';
import { packExchanges, unpackExchanges } from '../../../../gateway/exchange/exchange-batch.js';

const enc = new TextEncoder();

function exchange(over: Partial<RawExchange> = {}): RawExchange {
  return {
    id: '0193a1b2-c3d4-7e5f-8a9b-0c1d2e3f4a5b', time: 1_763_800_000_123, method: 'POST', target: '/api/orders?x=1',
    path: '/api/orders', ruleIndexes: [0, 2], labels: { tenant: 'acme' },
    requestHeaders: ['Content-Type', 'application/json', 'X-Tenant', 'acme'], responseHeaders: ['Content-Length', '2'],
    status: 201, durationMs: 12.345, requestBody: enc.encode('{"a":1}'), requestTruncated: false,
    responseBody: enc.encode('ok'), responseTruncated: false, requestIncomplete: false, responseIncomplete: false,
    requestBodyDropped: false, responseBodyDropped: false, ...over,
  };
}

/** What a worker gets: the batch through a real structured clone, with its buffers moved. */
function trip(exchanges: RawExchange[]): RawExchange[] {
  const packed = packExchanges(exchanges);
  const received = structuredClone(packed, { transfer: [packed.numbers.buffer as ArrayBuffer, packed.bodies.buffer as ArrayBuffer] });
  assert.is(packed.bodies.buffer.byteLength, 0, 'the bodies were moved, not copied');
  return unpackExchanges(received);
}

// Compared as plain data: bodies as byte arrays (they arrive as views into the batch's one buffer).
const plain = (e: RawExchange) => ({ ...e, requestBody: e.requestBody && [...e.requestBody], responseBody: e.responseBody && [...e.responseBody] });

test('every field of every exchange survives the trip, in order', () => {
  const batch = [
    exchange(),
    exchange({ id: 'b', method: 'GET', requestBody: null, responseBody: new Uint8Array(0), requestHeaders: null, responseHeaders: null, labels: {} }),
    exchange({ id: 'c', status: 0, error: 'timeout', requestTruncated: true, responseTruncated: true, ruleIndexes: [] }),
    exchange({ id: 'e', error: 'VIGIL_ERR_PROXY_UPSTREAM_UNREACHABLE', requestTruncated: true, requestIncomplete: true }),
    exchange({ id: 'f', error: 'client_aborted', responseTruncated: true, responseIncomplete: true }),
    exchange({ id: 'g', requestBody: new Uint8Array(0), requestBodyDropped: true }),
    exchange({ id: 'h', responseBody: new Uint8Array(0), responseBodyDropped: true }),
    exchange({ id: 'd', target: '/ünïcödé?q=✓', labels: { tenant: 'zoë', team: '' }, requestHeaders: ['X-Empty', '', 'X-Dup', '1', 'X-Dup', '2'] }),
  ];
  const out = trip(batch);
  assert.equal(out.map(plain), batch.map(plain));
  assert.is(out[1].requestBody, null, 'no body and an empty body stay different');
  assert.is(out[1].responseBody?.byteLength, 0);
  assert.not.ok('error' in out[0], 'an absent error stays absent');
});

test('strings are delimited by length: separators, NULs and long values cannot shift a field', () => {
  const tricky = 'a\u0000b\u0001c|d\r\ne';
  const long = 'v'.repeat(100_000);
  const [e] = trip([exchange({ requestHeaders: [tricky, long, 'Authorization', 'Bearer s3cret'], labels: { [tricky]: tricky } })]);
  assert.equal(e.requestHeaders, [tricky, long, 'Authorization', 'Bearer s3cret']);
  assert.equal(e.labels, { [tricky]: tricky });
});

test('a label named __proto__ stays an own label', () => {
  const labels = JSON.parse('{"__proto__":"x","tenant":"acme"}') as Record<string, string>;
  const [e] = trip([exchange({ labels })]);
  assert.equal(Object.keys(e.labels), ['__proto__', 'tenant']);
  assert.is(Object.getPrototypeOf(e.labels), Object.prototype);
});

test('an empty batch packs to nothing', () => {
  assert.equal(trip([]), []);
});

test('the packed text stays one byte per character when a header name has served as a property key', () => {
  // V8's serialisation tags a one-byte string `"`; a two-byte one is tagged `c`, after a padding byte.
  const oneByte = (s: string) => serialize(s)[2] === 0x22;
  // Made at run time, like the parser's header strings, then internalised in place by its use as a key.
  const name = Buffer.from('X-Tenant-Id', 'latin1').toString('latin1');
  const seen: Record<string, number> = {};
  seen[name] = 1;
  const packed = packExchanges([exchange({ requestHeaders: [name, 'acme'] })]);
  assert.ok(oneByte(packed.text));
  const [received] = trip([exchange({ requestHeaders: [name, 'acme'] })]);
  assert.equal(received.requestHeaders, ['X-Tenant-Id', 'acme']);
  assert.ok(oneByte(received.requestHeaders![0]));
});

test.run();
