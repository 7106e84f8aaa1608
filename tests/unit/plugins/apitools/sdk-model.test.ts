// The language-neutral model behind `vigil sdk`: how schemas (OpenAPI 3.0 and 3.1 spellings) become types, how
// inline objects are named, how operations without an operationId are named, and how names stay unique.
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { buildModel, type TypeRef } from '../../../../plugins/apitools/sdk/model.js';
import { NameScope, words } from '../../../../plugins/apitools/sdk/names.js';
import { generateSdk, SdkOptionError } from '../../../../plugins/apitools/sdk/generate.js';
import { tsType } from '../../../../plugins/apitools/sdk/emit-typescript.js';
import type { JsonSchemaObject, OpenApiDocument, ParameterObject } from '../../../../plugins/apitools/openapi/document.js';

const doc = (paths: OpenApiDocument['paths'], schemas: Record<string, JsonSchemaObject> = {}, openapi = '3.1.0'): OpenApiDocument =>
  ({ openapi, info: { title: 'T', version: '1' }, paths, components: { schemas } });
const response = (schema: JsonSchemaObject) => ({ 200: { description: 'ok', content: { 'application/json': { schema } } } });
const resultOf = (schema: JsonSchemaObject, openapi = '3.1.0', schemas: Record<string, JsonSchemaObject> = {}): TypeRef => {
  const m = buildModel(doc({ '/x': { get: { operationId: 'x', responses: response(schema) } } }, schemas, openapi), []);
  const r = m.operations[0].result;
  if (r.kind !== 'json') throw new Error('expected json');
  return r.type;
};

test('words split camelCase, snake_case, kebab-case, acronyms and digits', () => {
  assert.equal(words('getUserById'), ['get', 'user', 'by', 'id']);
  assert.equal(words('content-type'), ['content', 'type']);
  assert.equal(words('HTTPServer2'), ['http', 'server2']);
  assert.equal(words('2fa'), ['2fa']);
  assert.equal(words('__'), []);
});

test('a name scope never hands out a name twice, nor a reserved one', () => {
  const scope = new NameScope(['class'], (n) => (n === 'class' ? 'class_' : n));
  assert.equal([scope.claim('a'), scope.claim('a'), scope.claim('a'), scope.claim('class'), scope.claim('class')], ['a', 'a2', 'a3', 'class_', 'class_2']);
});

test('nullable in each spelling: 3.1 type arrays, 3.0 nullable, oneOf with null, enum with null', () => {
  assert.is(tsType(resultOf({ type: ['string', 'null'] })), 'string | null');
  assert.is(tsType(resultOf({ type: 'integer', nullable: true }, '3.0.3')), 'number | null');
  assert.is(tsType(resultOf({ oneOf: [{ type: 'string' }, { type: 'null' }] })), 'string | null');
  assert.is(tsType(resultOf({ enum: ['a', 'b', null] })), '"a" | "b" | null');
  assert.is(tsType(resultOf({ type: ['string', 'integer'] })), 'string | number');
  assert.is(tsType(resultOf({})), 'unknown');
  assert.is(tsType(resultOf({ type: 'object', additionalProperties: { type: 'integer' } })), 'Record<string, number>');
  assert.is(tsType(resultOf({ type: 'array', items: { $ref: '#/components/schemas/Id' } }, '3.1.0', { Id: { type: 'string', format: 'uuid' } })), 'Array<string>');
});

test('inline objects become named types after where they appear; allOf members merge', () => {
  const m = buildModel(doc({
    '/users/{id}': {
      put: {
        operationId: 'put-user',
        requestBody: { content: { 'application/json': { schema: { type: 'object', properties: { address: { type: 'object', properties: { city: { type: 'string' } } } } } } } },
        responses: response({ allOf: [{ $ref: '#/components/schemas/Base' }, { type: 'object', required: ['extra'], properties: { extra: { type: 'boolean' } } }] }),
      },
    },
  }, { Base: { type: 'object', required: ['id'], properties: { id: { type: 'string' } } } }), []);
  assert.equal(m.types.map((t) => t.name), ['Base', 'PutUserRequest', 'PutUserRequestAddress', 'PutUserResponse']);
  const merged = m.types.find((t) => t.name === 'PutUserResponse')!;
  assert.equal(merged.fields.map((f) => [f.jsonName, f.required]), [['id', true], ['extra', true]]);
  assert.equal(m.operations[0].pathParams, [{ name: 'id', type: { kind: 'string' }, required: true }]);
});

test('an operation without operationId is named from its method and path; $ref parameters are followed', () => {
  const m = buildModel({
    ...doc({ '/users/{user_id}/orders/{order_id}': { get: { parameters: [{ $ref: '#/components/parameters/Limit' } as unknown as ParameterObject], responses: {} } } }),
    components: { parameters: { Limit: { name: 'limit', in: 'query', schema: { type: 'integer' } } } },
  } as OpenApiDocument, []);
  assert.equal(m.operations[0].nameWords, ['get', 'users', 'by', 'user', 'id', 'orders', 'by', 'order', 'id']);
  assert.equal(m.operations[0].queryParams.map((p) => p.name), ['limit']);
  assert.equal(m.operations[0].result, { kind: 'none' });
});

test('a required body that is not JSON leaves the operation out, with why', () => {
  const m = buildModel(doc({
    '/upload': { post: { operationId: 'upload', requestBody: { required: true, content: { 'multipart/form-data': {} } }, responses: {} } },
    '/ok': { get: { operationId: 'ok', responses: {} } },
  }), []);
  assert.equal(m.operations.map((o) => o.operationId), ['ok']);
  assert.equal(m.skipped, [{ method: 'POST', path: '/upload', why: 'its request body is multipart/form-data, not JSON' }]);
});

test('schema names never take the names the client code uses', () => {
  const m = buildModel(doc({}, { Client: { type: 'object', properties: { a: { type: 'string' } } } }), ['Client']);
  assert.equal(m.types.map((t) => t.name), ['Client2']);
});

test('--name and --package are checked per language', () => {
  const d = doc({ '/x': { get: { operationId: 'x', responses: {} } } });
  assert.throws(() => generateSdk(d, 'go', { packageName: 'Bad-Name' }), (e: unknown) => e instanceof SdkOptionError && /Go package name/.test((e as Error).message));
  assert.throws(() => generateSdk(d, 'python', { packageName: 'import' }), (e: unknown) => e instanceof SdkOptionError);
  assert.throws(() => generateSdk(d, 'ts', { clientName: 'my client' }), (e: unknown) => e instanceof SdkOptionError);
  assert.equal(generateSdk(d, 'python', { clientName: 'Api', packageName: 'api_v1' }).files.map((f) => f.path), ['api_v1.py']);
  assert.equal(generateSdk(d, 'go').files.map((f) => f.path), ['t.go', 'go.mod']);
});

test.run();
