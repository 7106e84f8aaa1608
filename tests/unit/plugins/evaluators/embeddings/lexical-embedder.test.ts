import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { LexicalEmbedder, LEXICAL_DIMS } from '../../../../../plugins/evaluators/embeddings/lexical-embedder.js';
import { cosine, vectorOrigin } from '../../../../../plugins/evaluators/embeddings/cosine.js';

const lexical = new LexicalEmbedder();
const sim = (a: string, b: string): number => cosine(lexical.embedOne(a).vector, lexical.embedOne(b).vector);

test('labelled lexical, unit length, deterministic, one token per word', async () => {
  const [r] = await lexical.embed(['The refund was processed, thank you!']);
  assert.is(r.method, 'lexical');
  assert.is(r.model, lexical.model);
  assert.is(r.vector.length, LEXICAL_DIMS);
  assert.is(r.tokens, 6);
  let norm = 0;
  for (const x of r.vector) norm += x * x;
  assert.ok(Math.abs(norm - 1) < 1e-5);
  assert.equal([...lexical.embedOne('The refund was processed, thank you!').vector], [...r.vector]);
  assert.equal(vectorOrigin(r.vector), { method: 'lexical', model: lexical.model });
});

test('shared spelling scores above none; the same words in any case and punctuation score 1', () => {
  assert.ok(Math.abs(sim('Paris is the capital of France', 'paris is the CAPITAL of france!!') - 1) < 1e-5);
  const near = sim('The invoice was refunded', 'The invoices were refunded yesterday');
  const far = sim('The invoice was refunded', 'Bananas grow in tropical climates');
  assert.ok(near > 0.5, `near ${near}`);
  assert.ok(far < 0.15, `far ${far}`);
  assert.ok(near - far > 0.4);
});

test('repetition counts sublinearly; an empty text is the zero vector', () => {
  const once = lexical.embedOne('refund');
  const many = lexical.embedOne('refund refund refund refund refund refund refund refund');
  assert.ok(Math.abs(cosine(once.vector, many.vector) - 1) < 1e-5, 'one repeated word points the same way');
  const mixed = sim('refund invoice', 'refund refund refund refund invoice');
  assert.ok(mixed > 0.8 && mixed < 0.999, `mixed ${mixed}`);
  const empty = lexical.embedOne('');
  assert.is(empty.tokens, 0);
  assert.ok(empty.vector.every((x) => x === 0));
  assert.is(cosine(empty.vector, once.vector), 0);
});

test('a fallback embedder carries its reason; an aborted signal is honoured', async () => {
  assert.is(new LexicalEmbedder('package missing').reason, 'package missing');
  await lexical.embed(['x'], AbortSignal.abort()).then(() => assert.unreachable('should reject'), () => {});
});

test('a long text (tens of thousands of features) counts each exactly, in any order, and leaves no trace for the next', () => {
  const short = [...lexical.embedOne('refund the invoice').vector];
  const vocabulary = Array.from({ length: 3000 }, (_, i) => `word${i.toString(36)}x${(i * 7919 % 3001).toString(36)}`);
  const text = [...vocabulary, ...vocabulary.slice(0, 500)];
  const shuffled = [...text].reverse();
  const a = lexical.embedOne(text.join(' '));
  const b = lexical.embedOne(shuffled.join(' '));
  assert.is(a.tokens, 3500);
  assert.ok(Math.abs(cosine(a.vector, b.vector) - 1) < 1e-5);
  assert.equal([...lexical.embedOne('refund the invoice').vector], short);
});

test.run();
