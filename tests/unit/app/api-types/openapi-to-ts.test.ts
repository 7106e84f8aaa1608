import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { apiTypesModule, type OpenApiDocument } from '../../../../app/api-types/openapi-to-ts.js';

const json = (schema: unknown) => ({ content: { 'application/json': { schema } } });
const doc = {
  paths: {
    '/api/things/{id}': {
      get: { responses: { 200: json({ $ref: '#/components/schemas/Thing' }), default: json({ $ref: '#/components/schemas/ErrorAnswer' }) } },
      put: { requestBody: json({ type: 'object', properties: { name: { type: 'string' } }, required: ['name'], additionalProperties: false }), responses: { 204: { description: 'No content' } } },
    },
    '/api/things': { post: { responses: { 201: json({ type: 'object', properties: { id: { type: 'string' } }, required: ['id'], additionalProperties: false }) } } },
    '/api/things.csv': { get: { responses: { 200: { content: { 'text/csv': { schema: { type: 'string' } } } } } } },
    '/api/stream': { get: { 'x-websocket': true, responses: { 101: { description: 'Switching Protocols' } } } },
  },
  components: { schemas: { Thing: { type: 'object', properties: { id: { type: 'string' } }, required: ['id'], additionalProperties: false } } },
} as unknown as OpenApiDocument;

test('named schemas become types; each operation maps to its JSON answer and body, by METHOD and path', () => {
  const text = apiTypesModule(doc, 'Generated.');
  assert.ok(text.startsWith('// Generated.\n'));
  assert.match(text, /export type Thing = \{\n {2}id: string;\n\};/);
  assert.match(text, /'GET \/api\/things\/\{id\}': Thing;/);
  assert.match(text, /'POST \/api\/things': \{\n {4}id: string;\n {2}\};/, 'the first success status with JSON (201)');
  assert.match(text, /export interface ApiBodies \{\n {2}'PUT \/api\/things\/\{id\}': \{\n {4}name: string;\n {2}\};\n\}/);
});

test('operations that answer no JSON, and websockets, are left out of the answers', () => {
  const text = apiTypesModule(doc, 'Generated.');
  const answers = /export interface ApiAnswers \{[\s\S]*?\n\}/.exec(text)![0];
  assert.not.match(answers, /things\.csv/);
  assert.not.match(answers, /\/api\/stream/);
  assert.not.match(answers, /PUT/, 'a 204 has no answer type');
});

test('a schema named like a TypeScript global is refused, since it would shadow the global in the module', () => {
  const clash = { paths: {}, components: { schemas: { Error: { type: 'object' } } } } as unknown as OpenApiDocument;
  assert.throws(() => apiTypesModule(clash, 'Generated.'), /shadow a TypeScript global: Error/);
});

test.run();
