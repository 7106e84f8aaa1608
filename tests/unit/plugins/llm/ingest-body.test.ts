import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { gzipSync } from 'node:zlib';
import { HttpError } from '@vigil/plugin-sdk';
import { isJsonContentType } from '@vigil/plugin-sdk';
import { decodeContent, nestsDeeperThan, parseIngestBody } from '../../../../plugins/llm/ingest-body.js';

const json = { 'content-type': 'application/json' };
async function refusal(p: Promise<unknown>): Promise<HttpError> {
  try { await p; } catch (err) { if (err instanceof HttpError) return err; throw err; }
  throw new Error('expected a refusal');
}

test('JSON, gzip or not, parses; the limit applies as sent and once inflated', async () => {
  const body = Buffer.from('{"traces":[{"model":"m"}]}');
  assert.equal(await parseIngestBody(body, json, 1000), { traces: [{ model: 'm' }] });
  assert.equal(await parseIngestBody(gzipSync(body), { ...json, 'content-encoding': 'gzip' }, 1000), { traces: [{ model: 'm' }] });
  assert.is((await refusal(parseIngestBody(body, json, 10))).status, 413);
  assert.is((await refusal(parseIngestBody(gzipSync(body), { ...json, 'content-encoding': 'gzip' }, body.length - 1))).status, 413);
});

test('a gzip bomb stops at the limit: 1 GB of zeros costs at most the limit in memory', async () => {
  const bomb = gzipSync(Buffer.alloc(256 * 1024 * 1024));
  const before = process.memoryUsage().arrayBuffers;
  const err = await refusal(decodeContent(bomb, 'gzip', 1024 * 1024));
  assert.is(err.status, 413);
  assert.ok(process.memoryUsage().arrayBuffers - before < 64 * 1024 * 1024);
});

test('media types, encodings, bad gzip, bad UTF-8 and bad JSON are refused with their codes', async () => {
  assert.ok(isJsonContentType('application/json; charset=UTF-8'));
  assert.ok(isJsonContentType('application/vnd.vigil+json'));
  assert.not.ok(isJsonContentType('application/json; charset=latin1'));
  assert.not.ok(isJsonContentType('text/plain'));
  const ok = Buffer.from('{}');
  assert.is((await refusal(parseIngestBody(ok, {}, 100))).status, 415);
  assert.is((await refusal(parseIngestBody(ok, { ...json, 'content-encoding': 'deflate' }, 100))).status, 415);
  assert.is((await refusal(parseIngestBody(ok, { ...json, 'content-encoding': 'gzip' }, 100))).code, 'VIGIL_ERR_LLM_BODY');
  assert.match((await refusal(parseIngestBody(Buffer.from([0x22, 0xc3, 0x28, 0x22]), json, 100))).message, /UTF-8/);
  assert.match((await refusal(parseIngestBody(Buffer.from('{"a":'), json, 100))).message, /not valid JSON/);
});

test('depth is measured over bytes before parsing, and brackets inside strings do not count', async () => {
  assert.not.ok(nestsDeeperThan(Buffer.from('[[[]]]'), 3));
  assert.ok(nestsDeeperThan(Buffer.from('[[[[]]]]'), 3));
  assert.not.ok(nestsDeeperThan(Buffer.from('{"a":"[[[[[[\\"[[[["}'), 1));
  const deep = Buffer.from('['.repeat(1_000_000) + ']'.repeat(1_000_000));
  const started = performance.now();
  assert.is((await refusal(parseIngestBody(deep, json, 10_000_000))).code, 'VIGIL_ERR_LLM_TOO_DEEP');
  assert.ok(performance.now() - started < 1000, 'refused without parsing');
});

test.run();
