import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { VigilError } from '@vigil/plugin-sdk';
import { queryError, sqlExcerpt, StoreError, StoreErrors, StoreQueryError } from '../../../../runtime/store/errors.js';

test('sqlExcerpt flattens whitespace and cuts long statements', () => {
  assert.is(sqlExcerpt('SELECT\n  a,\n  b   FROM t'), 'SELECT a, b FROM t');
  const long = sqlExcerpt(`INSERT INTO t VALUES ${'(?, ?), '.repeat(200)}`);
  assert.is(long.length, 161);
  assert.ok(long.endsWith('…'));
});

test('queryError keeps the driver code, marks unique violations on both backends, and keeps the cause', () => {
  const pgDup = Object.assign(new Error('duplicate key value violates unique constraint "t_pkey"'), { code: '23505' });
  const e1 = queryError(pgDup, 'INSERT INTO t VALUES ($1)') as StoreQueryError;
  assert.instance(e1, VigilError);
  assert.equal([e1.code, e1.driverCode, e1.uniqueViolation, e1.cause], [StoreErrors.QUERY, '23505', true, pgDup]);
  assert.match(e1.message, /\(in: INSERT INTO t VALUES \(\$1\)\)$/);
  const liteDup = Object.assign(new Error('SQLITE_CONSTRAINT: UNIQUE constraint failed: t.id'), { code: 'SQLITE_CONSTRAINT' });
  assert.ok((queryError(liteDup, 'x') as StoreQueryError).uniqueViolation);
  const liteFk = Object.assign(new Error('SQLITE_CONSTRAINT: FOREIGN KEY constraint failed'), { code: 'SQLITE_CONSTRAINT' });
  assert.not.ok((queryError(liteFk, 'x') as StoreQueryError).uniqueViolation);
  assert.match(queryError('odd', 'x').message, /^odd/);
});

test('a StoreError passes through unchanged', () => {
  const own = new StoreError(StoreErrors.PARAMS, 'mine');
  assert.is(queryError(own, 'x'), own);
});

test.run();
