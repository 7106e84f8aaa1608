import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { scanStatement } from '../../../../plugins/dbbrowser/statement-scan.js';

test('the first keyword, after comments', () => {
  assert.is(scanStatement('  -- a note\n/* block */ select 1').keyword, 'SELECT');
  assert.is(scanStatement('WITH x AS (SELECT 1) SELECT * FROM x').keyword, 'WITH');
  assert.is(scanStatement('(SELECT 1)').keyword, '');
  assert.is(scanStatement('').keyword, '');
});

test('trailing semicolons, blanks and comments end one statement', () => {
  assert.equal(scanStatement('SELECT 1;  ;\n-- done\n'), { text: 'SELECT 1', keyword: 'SELECT', multiple: false });
  assert.equal(scanStatement('SELECT 1 -- no semicolon'), { text: 'SELECT 1 -- no semicolon', keyword: 'SELECT', multiple: false });
});

test('a second statement is found, past quotes and comments that hold semicolons', () => {
  assert.ok(scanStatement('SELECT 1; DELETE FROM t').multiple);
  assert.ok(scanStatement('COMMIT;BEGIN').multiple);
  for (const one of [
    "SELECT 'a;b'", 'SELECT "odd;name" FROM t', 'SELECT `x;y`', 'SELECT [a;b] FROM t', "SELECT 'it''s; fine'",
    "SELECT E'back\\'slash; quote'", 'SELECT $$ a; b $$', 'SELECT $fn$ x; $fn$', 'SELECT 1 /* ; */', 'SELECT 1 -- ;\n',
  ]) {
    const s = scanStatement(one);
    assert.not.ok(s.multiple, one);
  }
  assert.ok(scanStatement("SELECT 'a;b'; DROP TABLE t").multiple);
  assert.ok(scanStatement('SELECT $$ ; $$; DROP TABLE t').multiple);
});

test('a $ that is not a dollar quote (a parameter, part of a name) does not start one', () => {
  assert.ok(scanStatement('SELECT $1; SELECT 2').multiple);
  assert.ok(scanStatement('SELECT a$b$ FROM t; SELECT 2').multiple);
});

test('an unterminated quote runs to the end: one statement, for the database to refuse', () => {
  assert.not.ok(scanStatement("SELECT 'open; DROP TABLE t").multiple);
});

test.run();
