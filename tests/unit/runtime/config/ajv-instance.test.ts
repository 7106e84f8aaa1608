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

test('unknown keywords and formats are schema errors, caught at compile time', () => {
  assert.throws(() => compileConfigSchema({ type: 'string', format: 'colour' }), (e: unknown) => e instanceof ConfigSchemaError && /colour/.test(e.message));
  assert.throws(() => compileConfigSchema({ type: 'string', minLenght: 3 }), (e: unknown) => e instanceof ConfigSchemaError && /minLenght/.test(e.message));
  assert.throws(() => compileConfigSchema({ $ref: '#/$defs/nowhere' }), (e: unknown) => e instanceof ConfigSchemaError);
});

test.run();
