// The generator's promise: for any seed, a value that the schema accepts (checked by an Ajv with strict formats),
// realistic by format and by name, and the same value for the same seed.
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { Ajv2020 } from 'ajv/dist/2020.js';
import { seededRandom } from '@vigil/plugin-sdk';
import { generateValue } from '../../../../../plugins/apitools/mock/generate-value.js';
import type { JsonSchemaObject } from '../../../../../plugins/apitools/openapi/document.js';

const ajv = new Ajv2020({ strict: false, allErrors: true });
ajv.addFormat('email', /^[a-z0-9._%+-]+@[a-z0-9.-]+\.[a-z]{2,}$/i);
ajv.addFormat('uuid', /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);
ajv.addFormat('date-time', { validate: (s: string) => /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}Z$/.test(s) && !Number.isNaN(Date.parse(s)) });
ajv.addFormat('date', { validate: (s: string) => /^\d{4}-\d{2}-\d{2}$/.test(s) && !Number.isNaN(Date.parse(s)) });
ajv.addFormat('uri', { validate: (s: string) => { try { return new URL(s).protocol === 'https:'; } catch { return false; } } });
ajv.addFormat('ipv4', /^(25[0-5]|2[0-4]\d|1\d\d|[1-9]?\d)(\.(25[0-5]|2[0-4]\d|1\d\d|[1-9]?\d)){3}$/);

const SCHEMAS: Record<string, JsonSchemaObject> = {
  formats: {
    type: 'object', required: ['email', 'id', 'at', 'day', 'site', 'ip'],
    properties: {
      email: { type: 'string', format: 'email' }, id: { type: 'string', format: 'uuid' }, at: { type: 'string', format: 'date-time' },
      day: { type: 'string', format: 'date' }, site: { type: 'string', format: 'uri' }, ip: { type: 'string', format: 'ipv4' },
    },
  },
  bounds: {
    type: 'object', required: ['qty', 'ratio', 'step', 'code', 'short', 'long', 'odd'],
    properties: {
      qty: { type: 'integer', minimum: 3, maximum: 4 }, ratio: { type: 'number', exclusiveMinimum: 0, exclusiveMaximum: 1 },
      step: { type: 'integer', multipleOf: 5, minimum: 11, maximum: 29 }, code: { type: 'string', pattern: '^[A-Z]{3}-[0-9]{4}$' },
      short: { type: 'string', maxLength: 3 }, long: { type: 'string', minLength: 40 }, odd: { type: 'string', pattern: '^(draft|live)-v\\d+$' },
    },
  },
  nullableAndEnums: {
    type: 'object', required: ['nick', 'role', 'level', 'flag'],
    properties: { nick: { type: ['string', 'null'] }, role: { enum: ['admin', 'member'] }, level: { const: 3 }, flag: { type: 'boolean' } },
  },
  arrays: {
    type: 'object', required: ['tags', 'pair', 'few'],
    properties: {
      tags: { type: 'array', items: { type: 'string', enum: ['a', 'b', 'c'] }, uniqueItems: true, minItems: 2 },
      pair: { type: 'array', prefixItems: [{ type: 'integer' }, { type: 'string' }], minItems: 2 },
      few: { type: 'array', items: { type: 'object', required: ['n'], properties: { n: { type: 'number' } } }, maxItems: 1 },
    },
  },
  composition: {
    allOf: [
      { type: 'object', required: ['id'], properties: { id: { type: 'integer', minimum: 1 } } },
      { type: 'object', required: ['kind'], properties: { kind: { type: 'string' } } },
    ],
    oneOf: [
      { type: 'object', required: ['card'], properties: { card: { type: 'string', pattern: '^\\d{4}$' } } },
      { type: 'object', required: ['iban'], properties: { iban: { type: 'string', pattern: '^[A-Z]{2}\\d{2}[A-Z0-9]{10,20}$' } } },
    ],
  },
  closed: { type: 'object', additionalProperties: false, minProperties: 1, properties: { a: { type: 'string' } } },
  dictionary: { type: 'object', additionalProperties: { type: 'integer' }, minProperties: 2 },
};

test('every schema accepts what is generated for it, for a hundred seeds', () => {
  for (const [name, schema] of Object.entries(SCHEMAS)) {
    const validate = ajv.compile(schema);
    for (let seed = 0; seed < 100; seed++) {
      const value = generateValue(schema, seededRandom(seed));
      assert.ok(validate(value), `${name}, seed ${seed}: ${JSON.stringify(value)}: ${JSON.stringify(validate.errors)}`);
    }
  }
});

test('the same seed gives the same value; another seed another one', () => {
  const a = generateValue(SCHEMAS.formats, seededRandom(9));
  assert.equal(generateValue(SCHEMAS.formats, seededRandom(9)), a);
  assert.not.equal(generateValue(SCHEMAS.formats, seededRandom(10)), a);
});

test('property names make realistic values', () => {
  const person = generateValue({
    type: 'object',
    properties: {
      first_name: { type: 'string' }, email: { type: 'string' }, city: { type: 'string' }, price: { type: 'number' }, quantity: { type: 'integer' },
      created_at: { type: 'string' }, country_code: { type: 'string' }, phone: { type: 'string' }, avatar_url: { type: 'string' }, currency: { type: 'string' },
    },
  }, seededRandom(3)) as Record<string, any>;
  assert.match(person.first_name, /^[A-Z][a-z]+$/);
  assert.match(person.email, /^[a-z]+\.[a-z]+@example\.(com|org|net)$/);
  assert.match(person.city, /^[A-Z]/);
  assert.ok(person.price >= 1 && person.price <= 500 && Math.round(person.price * 100) === person.price * 100, String(person.price));
  assert.ok(Number.isInteger(person.quantity) && person.quantity >= 1 && person.quantity <= 10);
  assert.ok(!Number.isNaN(Date.parse(person.created_at)));
  assert.match(person.country_code, /^[A-Z]{2}$/);
  assert.match(person.phone, /^\+1-555-01\d\d$/);
  assert.match(person.avatar_url, /^https:\/\//);
  assert.match(person.currency, /^[A-Z]{3}$/);
});

test('a recursive schema (inlined as {} past its first level) ends', () => {
  const tree: JsonSchemaObject = { type: 'object', required: ['name', 'children'], properties: { name: { type: 'string' }, children: { type: 'array', items: { type: 'object', required: ['name', 'children'], properties: { name: { type: 'string' }, children: { type: 'array', items: {} } } } } } };
  const value = generateValue(tree, seededRandom(1)) as any;
  assert.type(value.name, 'string');
  assert.ok(Array.isArray(value.children));
});

test.run();
