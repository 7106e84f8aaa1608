// Schemas as the mock reads them: local $refs inlined (recursion cut), OpenAPI 3.0's dialect made 2020-12, readOnly
// and writeOnly applied per side, and a bad reference named by its key.
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { SchemaResolver, SpecError } from '../../../../../plugins/apitools/mock/resolve-schema.js';
import type { OpenApiDocument } from '../../../../../plugins/apitools/openapi/document.js';

const doc = (openapi: string, schemas: Record<string, unknown>): OpenApiDocument => ({ openapi, info: { title: 't', version: '1' }, paths: {}, components: { schemas } as never });

test('3.0: nullable widens the type and the enum; boolean exclusive bounds become numbers', () => {
  const r = new SchemaResolver(doc('3.0.3', {}), 'spec.yaml');
  assert.equal(r.schema({ type: 'string', nullable: true, enum: ['a'] }, 'x', 'response'), { type: ['string', 'null'], enum: ['a', null] });
  assert.equal(r.schema({ type: 'number', minimum: 0, exclusiveMinimum: true, maximum: 5, exclusiveMaximum: false }, 'x', 'response'), { type: 'number', exclusiveMinimum: 0, maximum: 5 });
  // 3.1 keeps what it says
  const r31 = new SchemaResolver(doc('3.1.0', {}), 'spec.yaml');
  assert.equal(r31.schema({ type: 'number', exclusiveMinimum: 0 }, 'x', 'response'), { type: 'number', exclusiveMinimum: 0 });
});

test('refs are inlined, a recursive one becomes {}, siblings of $ref apply', () => {
  const r = new SchemaResolver(doc('3.1.0', {
    Node: { type: 'object', properties: { next: { $ref: '#/components/schemas/Node' }, value: { $ref: '#/components/schemas/Value' } } },
    Value: { type: 'integer' },
  }), 'spec.yaml');
  const node = r.schema({ $ref: '#/components/schemas/Node', description: 'head' }, 'x', 'response');
  assert.equal(node, { type: 'object', properties: { next: {}, value: { type: 'integer' } }, description: 'head' });
});

test('readOnly is not required in a request; writeOnly is neither required nor present in a response', () => {
  const r = new SchemaResolver(doc('3.1.0', {}), 'spec.yaml');
  const user = { type: 'object', required: ['id', 'password', 'name'], properties: { id: { type: 'integer', readOnly: true }, password: { type: 'string', writeOnly: true }, name: { type: 'string' } } };
  assert.equal(r.schema(user, 'x', 'request').required, ['password', 'name']);
  const response = r.schema(user, 'x', 'response');
  assert.equal(response.required, ['id', 'name']);
  assert.equal(Object.keys(response.properties!), ['id', 'name']);
});

test('a missing or external $ref is a SpecError naming the file, the key and the reference', () => {
  const r = new SchemaResolver(doc('3.1.0', {}), 'spec.yaml');
  assert.throws(() => r.schema({ $ref: '#/components/schemas/Nope' }, 'paths["/a"].get', 'response'), (e: Error) =>
    e instanceof SpecError && /^spec\.yaml: paths\["\/a"\]\.get: \$ref "#\/components\/schemas\/Nope" does not resolve/.test(e.message));
  assert.throws(() => r.schema({ $ref: 'other.yaml#/X' }, 'k', 'response'), /points outside the document/);
});

test.run();
