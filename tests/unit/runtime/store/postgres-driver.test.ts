import pg from 'pg';
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { redactUrl } from '../../../../runtime/store/postgres-driver.js';
import { numericTypes } from '../../../../runtime/store/postgres-types.js';
import { backendKinds } from './backend-kinds.js';

// Awaited before any suite runs, so uvu reports every suite in one total.
const all = await backendKinds('store_pg_driver');
const kinds = all.filter((k) => k.name === 'postgres');
for (const unused of all.filter((k) => k.name !== 'postgres')) await unused.cleanup();

const pure = suite('postgres driver pieces');

pure('redactUrl hides the password and keeps the rest', () => {
  assert.is(redactUrl('postgres://vigil:pw@db:5432/x?sslmode=require'), 'postgres://vigil:***@db:5432/x?sslmode=require');
  assert.is(redactUrl('postgres://vigil@db/x'), 'postgres://vigil@db/x');
  assert.is(redactUrl('not a url://a:b@c'), 'not a url://a:***@c');
});

pure('int8 and numeric parse to numbers, arrays too; other types keep pg\'s parsers', () => {
  const parse = (oid: number) => (numericTypes.getTypeParser as (o: number, f?: string) => (v: string) => unknown)(oid, 'text');
  assert.is(parse(20)('1099511627781'), 1_099_511_627_781);
  assert.is(parse(1700)('12.5'), 12.5);
  assert.equal(parse(1016)('{1,2}'), [1, 2]);
  assert.equal(parse(1231)('{1.5,2}'), [1.5, 2]);
  assert.is(parse(25)('text'), 'text');
  assert.is(parse(16)('t'), true);
});

pure.run();

for (const kind of kinds) {
  const live = suite('postgres driver against a server');
  live.after(() => kind.cleanup());

  live('the numeric parsers are per pool: the global pg parser still returns int8 as text', async () => {
    const store = await kind.open(await kind.fresh());
    const [row] = await store.query<{ n: unknown; s: unknown; b: unknown }>('SELECT COUNT(*) AS n, SUM(x) AS s, true AS b FROM (VALUES (1::bigint), (2::bigint)) v(x)');
    assert.equal(row, { n: 2, s: 3, b: true });
    assert.is((pg.types.getTypeParser as (o: number, f: string) => (v: string) => unknown)(20, 'text')('5'), '5');
  });

  live('an E-string and a dollar-quoted body with ? reach the server intact', async () => {
    const store = await kind.open(await kind.fresh());
    const rows = await store.query("SELECT E'a\\'?' AS e, $$b?$$ AS d, ? AS p", ['x']);
    assert.equal(rows, [{ e: "a'?", d: 'b?', p: 'x' }]);
  });

  live.run();
}
