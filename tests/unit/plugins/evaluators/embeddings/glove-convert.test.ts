import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { commonDirection, convertGlove } from '../../../../../plugins/evaluators/embeddings/glove-convert.js';
import { readGlove } from '../../../../../plugins/evaluators/embeddings/glove-file.js';
import { tempDir } from '../../../../support/tmp.js';
import { writeFixturePackage } from './support/word-vectors-fixture.js';

const dir = tempDir();
test.after(() => dir.cleanup());

test('keeps the `limit` most frequent words in order, their vectors within half a quantisation step', async () => {
  const fx = writeFixturePackage(dir.path, { count: 300, dims: 8, omit: ['w7'] });
  const target = join(dir.path, 'limited.bin');
  const report = await convertGlove(fx.json, '0.0.1', target, { limit: 120 });
  assert.equal([report.words, report.dims, report.sourceSize, report.missing], [120, 8, 300, 1]);
  const g = await readGlove(target);
  assert.equal(g.words, fx.words.slice(0, 120));
  assert.is(g.index.get('café'), 3);
  assert.is(g.index.get('say "hi"'), 4);
  assert.is(g.index.get('w200'), undefined);
  for (let r = 0; r < 120; r++) {
    if (r === 7) { assert.is(g.scales[r], 0, 'a word without a vector embeds as nothing'); continue; }
    const max = Math.max(...fx.vectors[r].map(Math.abs));
    for (let d = 0; d < 8; d++) {
      const back = g.values[r * 8 + d] * g.scales[r];
      assert.ok(Math.abs(back - fx.vectors[r][d]) <= max / 254 + 1e-6, `word ${r} dim ${d}: ${back} vs ${fx.vectors[r][d]}`);
    }
  }
  let norm = 0;
  for (const x of g.common) norm += x * x;
  assert.ok(Math.abs(norm - 1) < 1e-4, 'the common direction is a unit vector');
});

test('layouts it cannot stream are refused with the reason', async () => {
  const cases: [unknown, RegExp][] = [
    [{ dimensions: 2, vectors: { a: [1, 2, 1, 0] }, words: ['a'] }, /"words" must come before "vectors"/],
    [{ words: ['a'], vectors: { a: [1, 2, 1, 0] } }, /"dimensions" must come before "vectors"/],
    [{ dimensions: 3, words: ['a'], vectors: { a: [1, 2] } }, /has 2 values, not 3/],
    [{ dimensions: 2, words: ['a'] }, /no "vectors" object/],
  ];
  for (const [body, message] of cases) {
    const path = join(dir.path, 'bad.json');
    writeFileSync(path, JSON.stringify(body));
    await convertGlove(path, '0', join(dir.path, 'bad.bin')).then(
      () => assert.unreachable(`should refuse ${JSON.stringify(body)}`),
      (err: Error) => assert.match(err.message, message),
    );
  }
  const broken = join(dir.path, 'broken.json');
  writeFileSync(broken, '{"dimensions":2,"words":["a"],"vectors":{"a":[1,');
  await convertGlove(broken, '0', join(dir.path, 'bad.bin')).then(() => assert.unreachable('should refuse'), (err: Error) => assert.match(err.message, /ends/));
});

test('the common direction is the offset every frequent word shares', () => {
  // Words = a shared offset along dimension 0 plus noise in the others: sentences average to the offset.
  const count = 2000;
  const dims = 4;
  const vectors = new Float32Array(count * dims);
  for (let r = 0; r < count; r++) {
    vectors[r * dims] = 1;
    for (let d = 1; d < dims; d++) vectors[r * dims + d] = Math.sin(r * 12.9898 + d * 78.233) * 0.3;
  }
  const u = commonDirection(vectors, count, dims, 10_000);
  assert.ok(Math.abs(Math.abs(u[0]) - 1) < 0.05, `direction ${[...u]}`);
});

test.run();
