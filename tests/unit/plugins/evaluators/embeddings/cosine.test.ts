import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { cosine, similarity, tagVector, vectorOrigin } from '../../../../../plugins/evaluators/embeddings/cosine.js';
import { EmbeddingError } from '../../../../../plugins/evaluators/embeddings/embedding-error.js';
import type { Embedding } from '../../../../../plugins/evaluators/embeddings/types.js';

const v = (...xs: number[]): Float32Array => Float32Array.from(xs);
const reason = (f: () => unknown): string | undefined => {
  try { f(); } catch (err) { assert.instance(err, EmbeddingError); return (err as EmbeddingError).reason; }
  return undefined;
};

test('cosine: the angle, not the length; zero vectors score 0; never past ±1', () => {
  assert.ok(Math.abs(cosine(v(1, 0), v(3, 0)) - 1) < 1e-9);
  assert.ok(Math.abs(cosine(v(1, 0), v(0, 2))) < 1e-9);
  assert.ok(Math.abs(cosine(v(1, 1), v(-1, -1)) + 1) < 1e-9);
  assert.ok(Math.abs(cosine(v(1, 2, 3), v(2, 3, 4)) - 20 / Math.sqrt(14 * 29)) < 1e-6);
  assert.is(cosine(v(0, 0), v(1, 1)), 0);
  const x = v(0.1, 0.2, 0.3);
  assert.ok(cosine(x, Float32Array.from(x)) <= 1);
});

test('cosine refuses vectors of different dimensions, or tagged by different methods or models', () => {
  assert.is(reason(() => cosine(v(1, 2), v(1, 2, 3))), 'mixed_methods');
  const a = tagVector(v(1, 2), 'glove-sif', 'g');
  const b = tagVector(v(1, 2), 'lexical', 'l');
  const c = tagVector(v(1, 2), 'openai', 'text-embedding-3-small');
  const d = tagVector(v(1, 2), 'openai', 'text-embedding-3-large');
  assert.is(reason(() => cosine(a, b)), 'mixed_methods');
  assert.is(reason(() => cosine(c, d)), 'mixed_methods');
  assert.is(reason(() => cosine(a, tagVector(v(2, 1), 'glove-sif', 'g'))), undefined);
  // A vector rebuilt from storage carries no tag: only its dimensions are checked.
  assert.is(reason(() => cosine(a, v(2, 1))), undefined);
  assert.equal(vectorOrigin(c), { method: 'openai', model: 'text-embedding-3-small' });
  assert.is(vectorOrigin(v(1)), undefined);
});

test('similarity compares embeddings of one method and model only', () => {
  const e = (method: Embedding['method'], model: string, ...xs: number[]): Embedding => ({ vector: v(...xs), method, model, tokens: 1 });
  assert.ok(Math.abs(similarity(e('lexical', 'm', 1, 0), e('lexical', 'm', 1, 0)) - 1) < 1e-9);
  assert.is(reason(() => similarity(e('lexical', 'm', 1, 0), e('glove-sif', 'm', 1, 0))), 'mixed_methods');
  assert.is(reason(() => similarity(e('openai', 'a', 1, 0), e('openai', 'b', 1, 0))), 'mixed_methods');
});

test.run();
