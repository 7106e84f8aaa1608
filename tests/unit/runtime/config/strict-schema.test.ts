import { test } from 'uvu';
import * as assert from 'uvu/assert';
import type { JsonSchema } from '@vigil/plugin-sdk';
import { strictSchema } from '../../../../runtime/config/strict-schema.js';

test('object schemas get additionalProperties: false, recursively through properties', () => {
  const out = strictSchema<JsonSchema>({ type: 'object', properties: { a: { type: 'object', properties: { b: { type: 'string' } } } } });
  assert.is(out.additionalProperties, false);
  assert.is((out.properties!.a as JsonSchema).additionalProperties, false);
  assert.is((out.properties!.a.properties!.b as JsonSchema).additionalProperties, undefined, 'a string schema is left alone');
});

test('a schema with properties but no type counts as an object schema', () => {
  assert.is(strictSchema<JsonSchema>({ properties: { a: {} } }).additionalProperties, false);
  assert.is(strictSchema<JsonSchema>({ type: ['object', 'null'] }).additionalProperties, false);
});

test('nested anyOf inside items inside oneOf', () => {
  const out = strictSchema({
    type: 'array',
    items: { oneOf: [{ type: 'string' }, { type: 'object', properties: { x: { anyOf: [{ type: 'object', properties: { y: {} } }, { type: 'integer' }] } } }] },
  }) as any;
  assert.is(out.items.oneOf[1].additionalProperties, false);
  assert.is(out.items.oneOf[1].properties.x.anyOf[0].additionalProperties, false);
  assert.is(out.items.oneOf[0].additionalProperties, undefined);
  assert.is(out.items.oneOf[1].properties.x.anyOf[1].additionalProperties, undefined);
});

test('allOf, $defs, definitions, patternProperties, additionalProperties schemas, prefixItems, if/then/else, not', () => {
  const obj = (): JsonSchema => ({ type: 'object', properties: { k: {} } });
  const out = strictSchema({
    allOf: [obj()], $defs: { d: obj() }, definitions: { e: obj() }, patternProperties: { '^x': obj() },
    additionalProperties: obj(), prefixItems: [obj()], if: obj(), then: obj(), else: obj(), not: obj(),
  }) as any;
  for (const sub of [out.allOf[0], out.$defs.d, out.definitions.e, out.patternProperties['^x'], out.additionalProperties,
    out.prefixItems[0], out.if, out.then, out.else, out.not]) {
    assert.is(sub.additionalProperties, false);
  }
});

test('an explicit additionalProperties is kept, and walked when it is a schema', () => {
  const out = strictSchema({
    type: 'object',
    properties: {
      open: { type: 'object', additionalProperties: true },
      map: { type: 'object', additionalProperties: { type: 'object', properties: { v: {} } } },
    },
  }) as any;
  assert.is(out.properties.open.additionalProperties, true);
  assert.is(out.properties.map.additionalProperties.additionalProperties, false);
});

test('data keywords are not walked: an object-shaped default stays as written', () => {
  const out = strictSchema({ type: 'object', properties: { a: { type: 'object', default: { type: 'object', properties: {} } } } }) as any;
  assert.equal(out.properties.a.default, { type: 'object', properties: {} });
});

test('unevaluatedProperties leaves the schema and the top of its composed parts open', () => {
  const out = strictSchema({
    type: 'object', unevaluatedProperties: false,
    allOf: [{ properties: { a: { type: 'object', properties: { deep: {} } } } }, { properties: { b: {} } }],
  }) as any;
  assert.is(out.additionalProperties, undefined);
  assert.is(out.allOf[0].additionalProperties, undefined);
  assert.is(out.allOf[1].additionalProperties, undefined);
  assert.is(out.allOf[0].properties.a.additionalProperties, false, 'deeper objects are still strict');
});

test('the input is not modified', () => {
  const input: JsonSchema = { type: 'object', properties: { a: { type: 'object' } } };
  const before = JSON.stringify(input);
  const out = strictSchema(input);
  assert.is(JSON.stringify(input), before);
  assert.is.not(out, input);
});

test('boolean schemas pass through', () => {
  assert.is(strictSchema(true), true);
  const withFalse = { type: 'object', properties: { a: false } } as unknown as JsonSchema;
  assert.equal(strictSchema(withFalse).properties!.a, false);
});

test.run();
