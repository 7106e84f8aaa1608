import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { declaration, typeOf } from '../../../../app/api-types/schema-to-ts.js';

test('scalars, lists of types, enums, consts and unions', () => {
  assert.is(typeOf({ type: 'string' }), 'string');
  assert.is(typeOf({ type: ['integer', 'null'] }), 'number | null');
  assert.is(typeOf({ enum: ['ok', 'error', null] }), '"ok" | "error" | null');
  assert.is(typeOf({ const: 3 }), '3');
  assert.is(typeOf({ anyOf: [{ type: 'string' }, { type: 'number' }] }), 'string | number');
  assert.is(typeOf({ anyOf: [{ type: 'string' }, {}] }), 'unknown', 'a union with anything is anything');
  assert.is(typeOf({}), 'unknown');
  assert.is(typeOf(undefined), 'unknown');
});

test('objects: required and optional keys, closed or open, quoted keys, refs and arrays', () => {
  const schema = {
    type: 'object', additionalProperties: false, required: ['id'],
    properties: {
      id: { type: 'string', description: 'The id. */ no escape' },
      'content-type': { type: 'string' },
      items: { type: 'array', items: { $ref: '#/components/schemas/Item' } },
      pairs: { type: 'array', items: { type: 'array', items: { type: 'number' } } },
      open: { type: 'object', properties: { a: { type: 'boolean' } } },
      map: { type: 'object', additionalProperties: { type: 'number' } },
    },
  };
  assert.is(declaration('Thing', schema as never), `export type Thing = {
  /** The id. * / no escape */
  id: string;
  "content-type"?: string;
  items?: Item[];
  pairs?: number[][];
  open?: {
    a?: boolean;
    [key: string]: unknown;
  };
  map?: Record<string, number>;
};
`);
  assert.is(typeOf({ type: 'object', additionalProperties: false }), 'Record<string, never>');
  assert.is(typeOf({ type: 'array', items: { type: ['string', 'null'] } }), 'Array<string | null>');
});

test.run();
