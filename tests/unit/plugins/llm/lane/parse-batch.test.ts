// The lane's batch bodies: media types and encodings, the envelope and its depth checked over bytes before parsing,
// and elements past the key bound cut out unparsed.
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { gzipSync } from 'node:zlib';
import { HttpError, isJsonContentType, seededRandom } from '@vigil/plugin-sdk';
import { exceedsBounds } from '../../../../../plugins/llm/lane/item-bounds.js';
import { MAX_BODY_DEPTH, parseBatchBody, type BatchEnvelope } from '../../../../../plugins/llm/lane/parse-batch.js';
import { scanEnvelope } from '../../../../../plugins/llm/lane/scan-envelope.js';

const envelope: BatchEnvelope = { key: 'traces', notEnvelope: (p) => new HttpError(400, 'VIGIL_ERR_LLM_BODY', `not the envelope: ${p.kind}`) };
const body = (text: string | Buffer, contentType = 'application/json', contentEncoding?: string) => ({
  bytes: typeof text === 'string' ? Buffer.from(text) : text, contentType, ...(contentEncoding ? { contentEncoding } : {}),
});
const limits = { bodyBytes: 10_000_000, itemKeys: 100, itemBytes: 1_000_000 };
async function refusal(p: Promise<unknown>): Promise<HttpError> {
  try { await p; } catch (err) { if (err instanceof HttpError) return err; throw err; }
  throw new Error('expected a refusal');
}

test('JSON, gzip or not, parses; media types, encodings, bad gzip, UTF-8 and JSON are refused with their codes', async () => {
  const text = '{"traces":[{"model":"m"}]}';
  assert.equal((await parseBatchBody(body(text), envelope, limits)).value, { traces: [{ model: 'm' }] });
  assert.equal((await parseBatchBody(body(gzipSync(text), 'application/json', 'gzip'), envelope, limits)).value, { traces: [{ model: 'm' }] });
  assert.ok(isJsonContentType('application/json; charset=UTF-8'));
  assert.not.ok(isJsonContentType('application/json; charset=latin1'));
  assert.is((await refusal(parseBatchBody(body(text, 'text/plain'), envelope, limits))).status, 415);
  assert.is((await refusal(parseBatchBody(body(text, 'application/json', 'br'), envelope, limits))).status, 415);
  assert.is((await refusal(parseBatchBody(body(text, 'application/json', 'gzip'), envelope, limits))).code, 'VIGIL_ERR_LLM_BODY');
  assert.match((await refusal(parseBatchBody(body(Buffer.from('{"traces":["\xc3\x28"]}', 'latin1')), envelope, limits))).message, /UTF-8/);
  assert.match((await refusal(parseBatchBody(body('{"traces":[{"a":'), envelope, limits))).message, /not valid JSON/);
  assert.is((await refusal(parseBatchBody(body(text), envelope, { ...limits, bodyBytes: 10 }))).status, 413);
});

test('not the envelope is refused unparsed: a top level that is not an object, an unknown key, the key twice, no array', async () => {
  const kind = async (text: string) => (await refusal(parseBatchBody(body(text), envelope, limits))).message;
  assert.match(await kind(`[${'{"a":1},'.repeat(100_000)}{}]`), /not-object/);
  assert.match(await kind('{"traces":[], "x": {"a": 1}}'), /unknown-key/);
  assert.match(await kind('{"tr\\u0061ces":[], "traces":[]}'), /twice/, 'an escaped key is the same key');
  assert.match(await kind('{"traces": {"a": 1}}'), /not-array/);
  assert.match(await kind('{"traces": "x"}'), /not-array/);
  assert.match(await kind('{"traces": 5}'), /not-array/);
  assert.match(await kind('"traces"'), /not-object/);
});

test('depth is measured over bytes before parsing, and brackets inside strings do not count', async () => {
  const deep = Buffer.from(`{"traces":[${'['.repeat(1_000_000)}${']'.repeat(1_000_000)}]}`);
  const started = performance.now();
  assert.is((await refusal(parseBatchBody(body(deep), envelope, limits))).code, 'VIGIL_ERR_LLM_TOO_DEEP');
  assert.ok(performance.now() - started < 1000, 'refused without parsing');
  const nested = (d: number) => `{"traces":[${'['.repeat(d - 2)}${']'.repeat(d - 2)}]}`;
  await parseBatchBody(body(nested(MAX_BODY_DEPTH)), envelope, limits);
  assert.is((await refusal(parseBatchBody(body(nested(MAX_BODY_DEPTH + 1)), envelope, limits))).code, 'VIGIL_ERR_LLM_TOO_DEEP');
  await parseBatchBody(body(`{"traces":["${'[{'.repeat(100)}\\"]"]}`), envelope, limits);
});

test('elements past the key bound are cut before parsing and named with their count; the others parse as they were', async () => {
  const wide = JSON.stringify(Object.fromEntries(Array.from({ length: 400_000 }, (_, i) => [i.toString(36), 'v'])));
  const text = `{"traces":[{"model":"a"}, {"model":"b","metadata":${wide}}, "x", 5, {"m":[1,2,[3]]}]}`;
  const started = performance.now();
  const { value, cut } = await parseBatchBody(body(text), envelope, limits);
  assert.ok(performance.now() - started < 2000, 'the wide element is never built');
  assert.equal(value.traces, [{ model: 'a' }, null, 'x', 5, { m: [1, 2, [3]] }]);
  assert.equal([...cut.keys()], [1]);
  assert.ok(cut.get(1)! > 100);
  assert.is((await refusal(parseBatchBody(body('{"traces":[1,2,3]}'), envelope, { ...limits, maxElements: 2 }))).status, 413);
});

test('the scan\'s ranges and counts agree with JSON.parse and the exact bound, over random bodies', async () => {
  const random = seededRandom(30);
  const pick = <T>(xs: T[]) => xs[Math.floor(random() * xs.length)];
  const value = (depth: number): unknown => {
    const r = random();
    if (depth > 4 || r < 0.3) return pick([0, -1.5e3, true, false, null, 'a', 'q"u\\o[t{e}]', 'é,:', '', '\u0001tab\there 😀']);
    if (r < 0.65) return Array.from({ length: Math.floor(random() * 5) }, () => value(depth + 1));
    return Object.fromEntries(Array.from({ length: Math.floor(random() * 5) }, (_, i) => [pick(['k', 'a:b', '{', `x${i}`, 'é\n😀']) + i, value(depth + 1)]));
  };
  for (let round = 0; round < 300; round++) {
    const items = Array.from({ length: Math.floor(random() * 6) }, () => value(0));
    const text = random() < 0.5 ? JSON.stringify({ traces: items }) : JSON.stringify({ traces: items }, null, 2);
    const bytes = Buffer.from(text);
    const scan = await scanEnvelope(bytes, 'traces', { maxDepth: 64, maxKeys: 1_000_000 });
    assert.is(scan.problem, undefined, text);
    assert.is(scan.elements.length, items.length, text);
    scan.elements.forEach((e, i) => {
      assert.equal(JSON.parse(bytes.subarray(e.start, e.end).toString()), items[i], text);
      // The exact count of keys and elements: the bound passes at the count and fails one below it.
      if (e.keys > 0) assert.ok(exceedsBounds(items[i], { keys: e.keys - 1, bytes: 1e9 }) && !exceedsBounds(items[i], { keys: e.keys, bytes: 1e9 }), `${e.keys}: ${JSON.stringify(items[i])}`);
      else assert.not.ok(exceedsBounds(items[i], { keys: 0, bytes: 1e9 }));
      // The written size of its strings is never below their UTF-8 size: within a bound by it, within it decoded.
      assert.is(exceedsBounds(items[i], { keys: 1e9, bytes: e.bytes }), null, `${e.bytes} bytes: ${JSON.stringify(items[i])}`);
    });
  }
});

test.run();
