import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { createSchemaCompiler, keyPath, querySchemaOf } from '../../../../runtime/http/schema-validation.js';

const errorOf = (fn: () => void): { code?: string; path?: string; message: string } | undefined => {
  try { fn(); } catch (e) { return e as { code?: string; path?: string; message: string }; }
  return undefined;
};

test('keyPath renders JSON pointers as the config error key paths', () => {
  assert.is(keyPath('body', ''), 'body');
  assert.is(keyPath('body', '/rules/2/redact'), 'body.rules[2].redact');
  assert.is(keyPath('body', '/a~1b/c~0d'), 'body["a/b"]["c~d"]');
  assert.is(keyPath('query', '', 'limit'), 'query.limit');
  assert.is(keyPath('body', '/x', 'my key'), 'body.x["my key"]');
});

test('querySchemaOf makes the query an object that rejects unknown parameters unless told otherwise', () => {
  assert.equal(querySchemaOf({ properties: { a: { type: 'string' } } }), { properties: { a: { type: 'string' } }, type: 'object', additionalProperties: false });
  assert.is(querySchemaOf({ additionalProperties: true }).additionalProperties, true);
});

test('body validator: enum values listed, formats checked, absent body refused', () => {
  const c = createSchemaCompiler();
  const check = c.body({
    type: 'object',
    properties: { level: { enum: ['info', 'warn'] }, at: { type: 'string', format: 'date-time' }, id: { type: 'string', format: 'uuid' } },
  });
  check({ level: 'info', at: '2024-05-01T10:00:00Z', id: '0b8c7a8e-1c1d-4a4e-9b7a-2f3e4d5c6b7a' });
  let e = errorOf(() => check({ level: 'debug' }));
  assert.is(e?.code, 'VIGIL_ERR_HTTP_INVALID_BODY');
  assert.is(e?.path, 'body.level');
  assert.match(e!.message, /"info", "warn"/);
  e = errorOf(() => check({ at: 'yesterday' }));
  assert.is(e?.path, 'body.at');
  e = errorOf(() => check(undefined));
  assert.is(e?.path, 'body');
});

test('a schema that is not a JSON Schema is refused when its validator is made, before any request (compiling waits for the first)', () => {
  const c = createSchemaCompiler();
  assert.throws(() => c.body({ type: 'objet' }), /type/);
  assert.throws(() => c.query({ properties: { limit: { minimum: 'one' } } }), /minimum/);
  const check = c.body({ type: 'object', required: ['a'] });
  assert.is(errorOf(() => check({}))?.path, 'body.a', 'the first call compiles and validates');
  assert.is(errorOf(() => check({ a: 1 })), undefined);
});

test('query validator coerces in place and applies defaults', () => {
  const c = createSchemaCompiler();
  const check = c.query({ properties: { n: { type: 'integer', default: 7 }, on: { type: 'boolean' }, ids: { type: 'array', items: { type: 'integer' } } } });
  const q: Record<string, unknown> = { on: 'false', ids: '3' };
  check(q);
  assert.equal(q, { on: false, ids: [3], n: 7 });
  assert.is(errorOf(() => check({ extra: '1' }))?.path, 'query.extra');
});

test('two compilers accept schemas with the same $id', () => {
  const schema = { $id: 'https://vigil.example/schemas/x', type: 'object' };
  createSchemaCompiler().body(schema);
  createSchemaCompiler().body(schema);
});

test.run();
