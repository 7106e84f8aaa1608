import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { PlaceholderCache, scanPlaceholders } from '../../../../runtime/store/placeholders.js';

const pg = (sql: string) => scanPlaceholders(sql, 'postgres');
const lite = (sql: string) => scanPlaceholders(sql, 'sqlite');

test('PostgreSQL: ? become $1…$n in order', () => {
  assert.equal(pg('SELECT * FROM t WHERE a = ? AND b IN (?, ?)'), { count: 3, text: 'SELECT * FROM t WHERE a = $1 AND b IN ($2, $3)' });
  assert.equal(pg('SELECT 1'), { count: 0, text: 'SELECT 1' });
  assert.equal(pg('?'), { count: 1, text: '$1' });
});

test('PostgreSQL: string literals, quoted identifiers and comments keep their ?', () => {
  assert.equal(pg("SELECT '?', ? , 'it''s ?'"), { count: 1, text: "SELECT '?', $1 , 'it''s ?'" });
  assert.equal(pg('SELECT "odd?col", ? FROM t'), { count: 1, text: 'SELECT "odd?col", $1 FROM t' });
  assert.equal(pg("SELECT E'a\\'?', ?"), { count: 1, text: "SELECT E'a\\'?', $1" });
  assert.equal(pg('SELECT ? -- what?\n, ?'), { count: 2, text: 'SELECT $1 -- what?\n, $2' });
  assert.equal(pg('SELECT /* a? /* nested? */ still? */ ?'), { count: 1, text: 'SELECT /* a? /* nested? */ still? */ $1' });
});

test('PostgreSQL: dollar-quoted bodies keep their ?, casts and $n-like text are left alone', () => {
  assert.equal(pg('SELECT $$?$$, $fn$ ? $fn$, ?'), { count: 1, text: 'SELECT $$?$$, $fn$ ? $fn$, $1' });
  assert.equal(pg('SELECT ?::bigint'), { count: 1, text: 'SELECT $1::bigint' });
  assert.equal(pg('SELECT price$ FROM t WHERE x = ?'), { count: 1, text: 'SELECT price$ FROM t WHERE x = $1' });
});

test('PostgreSQL: a backslash outside E-strings is literal, so the string ends at the quote', () => {
  assert.equal(pg("SELECT 'a\\', ?"), { count: 1, text: "SELECT 'a\\', $1" });
});

test('unterminated quotes and comments swallow the rest instead of throwing', () => {
  assert.equal(pg("SELECT 'open ?"), { count: 0, text: "SELECT 'open ?" });
  assert.equal(pg('SELECT ? /* open ?'), { count: 1, text: 'SELECT $1 /* open ?' });
});

test('SQLite: text is unchanged, ? are counted outside quotes, [..] and `..` identifiers', () => {
  const sql = "SELECT ?, '?', [we?ird], `an?other`, \"q?\" -- ?\n FROM t WHERE a = ?";
  assert.equal(lite(sql), { count: 2, text: sql });
  // SQLite block comments do not nest: the first */ ends it.
  assert.is(lite('SELECT /* a /* b */ ? */').count, 1);
});

test('the cache returns the same scan and skips huge one-off statements', () => {
  const cache = new PlaceholderCache('postgres', 2);
  const a = cache.get('SELECT ?');
  assert.is(cache.get('SELECT ?'), a);
  cache.get('SELECT ?, ?');
  cache.get('SELECT ?, ?, ?');
  assert.is.not(cache.get('SELECT ?'), a, 'oldest entry evicted at capacity');
  const huge = `SELECT ${'?, '.repeat(3000)}?`;
  assert.is(cache.get(huge).count, 3001);
  assert.is.not(cache.get(huge), cache.get(huge));
});

test.run();
