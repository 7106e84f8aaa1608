import { test } from 'uvu';
import * as assert from 'uvu/assert';
import type { JsonSchema } from '@vigil/plugin-sdk';
import { compileConfigSchema } from '../../../../runtime/config/ajv-instance.js';
import { ConfigSchemaError } from '../../../../runtime/config/errors.js';

test('a schema object is compiled once', () => {
  const schema: JsonSchema = { type: 'object', properties: { a: { type: 'string' } } };
  assert.is(compileConfigSchema(schema), compileConfigSchema(schema));
});

test('compiled schemas are strict even when the source is not', () => {
  const validate = compileConfigSchema({ type: 'object', properties: { a: { type: 'string' } } });
  assert.ok(validate({ a: 'x' }));
  assert.not.ok(validate({ a: 'x', b: 1 }));
});

test('Vigil formats are known to the validator', () => {
  const validate = compileConfigSchema({ type: 'object', properties: { d: { type: 'string', format: 'duration' }, s: { type: 'string', format: 'byte-size' } } });
  assert.ok(validate({ d: '5s', s: '1mb' }));
  assert.not.ok(validate({ d: '5 s' }));
  assert.not.ok(validate({ s: 'lots' }));
});

test('formatMinimum and formatMaximum bound a quantity format, as written or as a bare number', () => {
  const validate = compileConfigSchema({ type: ['string', 'integer'], format: 'duration', formatMinimum: '1s', formatMaximum: 90_000 });
  for (const inside of ['1s', '1000', 1000, '1m30s', 90_000]) assert.ok(validate(inside), String(inside));
  for (const outside of ['999ms', 999, '1m30s1ms', 90_001]) assert.not.ok(validate(outside), String(outside));
  const size = compileConfigSchema({ type: 'string', format: 'byte-size', formatMaximum: '1mb' });
  assert.ok(size('1024kb'));
  assert.not.ok(size('1025kb'));
});

test('a string that is not the format is reported by format alone', () => {
  const validate = compileConfigSchema({ type: 'string', format: 'duration', formatMinimum: '1s' });
  assert.not.ok(validate('soon'));
  assert.equal(validate.errors?.map((e) => e.keyword), ['format']);
});

test('formatMinimum beside a format that is not a quantity, or with a limit that does not parse, does not compile', () => {
  assert.throws(() => compileConfigSchema({ type: 'string', format: 'uri', formatMinimum: '1' }), (e: unknown) => e instanceof ConfigSchemaError && /quantity format/.test(e.message));
  assert.throws(() => compileConfigSchema({ type: 'string', formatMinimum: '1s' }), (e: unknown) => e instanceof ConfigSchemaError && /quantity format/.test(e.message));
  assert.throws(() => compileConfigSchema({ type: 'string', format: 'duration', formatMaximum: 'a while' }), (e: unknown) => e instanceof ConfigSchemaError && /a while/.test(e.message));
});

test('unknown keywords and formats are schema errors, caught at compile time', () => {
  assert.throws(() => compileConfigSchema({ type: 'string', format: 'colour' }), (e: unknown) => e instanceof ConfigSchemaError && /colour/.test(e.message));
  assert.throws(() => compileConfigSchema({ type: 'string', minLenght: 3 }), (e: unknown) => e instanceof ConfigSchemaError && /minLenght/.test(e.message));
  assert.throws(() => compileConfigSchema({ $ref: '#/$defs/nowhere' }), (e: unknown) => e instanceof ConfigSchemaError);
});

test.run();
