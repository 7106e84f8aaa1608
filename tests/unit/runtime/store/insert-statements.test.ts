import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { StoreErrors } from '../../../../runtime/store/errors.js';
import { buildInsertChunks, checkIdentifier } from '../../../../runtime/store/insert-statements.js';

const codeOf = (fn: () => unknown): string | undefined => {
  try { fn(); } catch (err) { return (err as { code?: string }).code; }
  return undefined;
};

test('chunks stay under the parameter limit and share one SQL text per size', () => {
  const rows = Array.from({ length: 7 }, (_, i) => [i, `v${i}`, null]);
  const chunks = buildInsertChunks('sqlite', 10, 't', ['a', 'b', 'c'], rows, undefined);
  assert.equal(chunks.map((c) => c.params.length / 3), [3, 3, 1]);
  assert.ok(chunks.every((c) => c.params.length <= 10));
  assert.is(chunks[0].sql, chunks[1].sql);
  assert.is(chunks[0].sql, 'INSERT INTO t (a, b, c) VALUES (?, ?, ?), (?, ?, ?), (?, ?, ?)');
  assert.equal(chunks[2].params, [6, 'v6', null]);
});

test('PostgreSQL chunks number their placeholders from $1 and carry the conflict clause', () => {
  const chunks = buildInsertChunks('postgres', 4, 't', ['a', 'b'], [[1, 2], [3, 4], [5, 6]], 'ON CONFLICT (a) DO NOTHING');
  assert.equal(chunks.map((c) => c.sql), [
    'INSERT INTO t (a, b) VALUES ($1, $2), ($3, $4) ON CONFLICT (a) DO NOTHING',
    'INSERT INTO t (a, b) VALUES ($1, $2) ON CONFLICT (a) DO NOTHING',
  ]);
});

test('a statement holds at most 500 rows even when the limit allows more', () => {
  const rows = Array.from({ length: 1200 }, (_, i) => [i]);
  assert.equal(buildInsertChunks('sqlite', 32_766, 't', ['a'], rows, undefined).map((c) => c.params.length), [500, 500, 200]);
});

test('a column set wider than the limit still makes one row per statement', () => {
  const chunks = buildInsertChunks('sqlite', 2, 't', ['a', 'b', 'c'], [[1, 2, 3], [4, 5, 6]], undefined);
  assert.is(chunks.length, 2);
});

test('values are normalised: bigint to number or text, Uint8Array to Buffer', () => {
  const [chunk] = buildInsertChunks('sqlite', 100, 't', ['a', 'b', 'c'], [[5n, 2n ** 64n, new Uint8Array([1, 2])]], undefined);
  assert.is(chunk.params[0], 5);
  assert.is(chunk.params[1], '18446744073709551616');
  assert.ok(Buffer.isBuffer(chunk.params[2]));
});

test('a short row or an undefined value names the row and column', () => {
  try {
    buildInsertChunks('sqlite', 100, 't', ['a', 'b'], [[1, 2], [3]], undefined);
    assert.unreachable();
  } catch (err) {
    assert.is((err as { code: string }).code, StoreErrors.ROW_SHAPE);
    assert.match((err as Error).message, /row 1 has 1 values, expected 2 \(a, b\)/);
  }
  try {
    buildInsertChunks('sqlite', 100, 't', ['a', 'b'], [[1, undefined as never]], undefined);
    assert.unreachable();
  } catch (err) {
    assert.is((err as { code: string }).code, StoreErrors.PARAMS);
    assert.match((err as Error).message, /row 0, column b is undefined/);
  }
  assert.is(codeOf(() => buildInsertChunks('sqlite', 100, 't', [], [[]], undefined)), StoreErrors.ROW_SHAPE);
});

test('identifiers: plain or schema-qualified names only', () => {
  checkIdentifier('records', 'table');
  checkIdentifier('gateway_records', 'table');
  checkIdentifier('public.records', 'table');
  for (const bad of ['', '1abc', 'a b', 'a;b', 'a"b', 'a.b.c', 'a-b', 'x)--']) {
    assert.is(codeOf(() => checkIdentifier(bad, 'table')), StoreErrors.IDENTIFIER, bad);
  }
});

test.run();
