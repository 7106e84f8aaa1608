import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { gzipSync } from 'node:zlib';
import { HttpError } from '@vigil/plugin-sdk';
import { decodeContent } from '../../../../plugins/llm/ingest-body.js';

async function refusal(p: Promise<unknown>): Promise<HttpError> {
  try { await p; } catch (err) { if (err instanceof HttpError) return err; throw err; }
  throw new Error('expected a refusal');
}

test('a gzip bomb stops at the limit: 1 GB of zeros costs at most the limit in memory', async () => {
  const bomb = gzipSync(Buffer.alloc(256 * 1024 * 1024));
  const before = process.memoryUsage().arrayBuffers;
  const err = await refusal(decodeContent(bomb, 'gzip', 1024 * 1024));
  assert.is(err.status, 413);
  assert.ok(process.memoryUsage().arrayBuffers - before < 64 * 1024 * 1024);
});

test('the limit applies as sent and once inflated; other encodings are 415, bad gzip 400', async () => {
  const body = Buffer.from('{"traces":[{"model":"m"}]}');
  assert.equal(await decodeContent(gzipSync(body), 'gzip', 1000), body);
  assert.is((await refusal(decodeContent(body, undefined, 10))).status, 413);
  assert.is((await refusal(decodeContent(gzipSync(body), 'gzip', body.length - 1))).status, 413);
  assert.is((await refusal(decodeContent(body, 'deflate', 1000))).status, 415);
  assert.is((await refusal(decodeContent(body, 'gzip', 1000))).code, 'VIGIL_ERR_LLM_BODY');
});

test.run();
