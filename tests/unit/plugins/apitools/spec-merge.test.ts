// `vigil spec --merge`: what the traffic showed is added to a hand-written document; nothing written by hand is
// lost or changed. Every merged document goes through a real OpenAPI validator (3.1, and 3.0 for a 3.0 file).
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { parse as parseYaml } from 'yaml';
import { inferSpec } from '../../../../plugins/apitools/openapi/infer-spec.js';
import { mergeSpec, toOpenApi30 } from '../../../../plugins/apitools/openapi/merge-spec.js';
import { asOpenApiDocument, type JsonSchemaObject, type OpenApiDocument } from '../../../../plugins/apitools/openapi/document.js';
import { observe, type Exchange } from '../../../support/field-observations.js';
import { assertValidOpenApi } from '../../../support/openapi-validator.js';

const merge = suite('apitools: spec merge');

const HAND_WRITTEN = `
openapi: 3.1.0
info: { title: Shop, version: 2.0.0, description: "The shop's API, written by hand." }
x-owner: team-shop
paths:
  /users/{userId}:
    description: One user.
    parameters:
      - { name: userId, in: path, required: true, description: The user's number., schema: { type: integer } }
    get:
      operationId: fetchUser
      summary: Get a user
      description: Returns the user, without their orders.
      x-rate-limit: 100
      responses:
        '200':
          description: The user.
          content:
            application/json:
              schema: { $ref: '#/components/schemas/User' }
              example: { id: 1, name: Ann }
  /health:
    get:
      summary: Liveness, never seen by the gateway
      responses: { '200': { description: Alive } }
components:
  schemas:
    User:
      type: object
      description: A customer.
      required: [id]
      properties:
        id: { type: integer, description: Stable id. }
        name: { type: string, description: Display name., examples: [Ann] }
`;

const traffic = (): Exchange[] => {
  const x: Exchange[] = [];
  for (let i = 1; i <= 20; i++) {
    x.push({ method: 'GET', path: `/users/${i}?fields=name`, status: 200, responseBody: { id: i, name: 'n', email: `u${i}@example.com`, tier: i % 2 ? 'gold' : null } });
  }
  x.push({ method: 'GET', path: '/users/99', status: 404, responseBody: { error: 'no such user' } });
  x.push({ method: 'DELETE', path: '/users/3', status: 204 });
  x.push({ method: 'POST', path: '/orders', status: 201, requestBody: { items: [{ sku: 'a', qty: 1 }] }, responseBody: { id: 'o1' } });
  return x;
};

merge('adds new paths, operations, statuses, parameters and properties; keeps every hand-written word', async () => {
  const existing = asOpenApiDocument(parseYaml(HAND_WRITTEN), 'shop.yaml');
  const before = structuredClone(existing);
  const { document, changes } = mergeSpec(existing, inferSpec(observe(traffic())));
  await assertValidOpenApi(document, 'merged');
  assert.equal(existing, before, 'the input document is not modified');

  // Hand-written: kept as written.
  assert.equal(document.info, before.info);
  assert.is(document['x-owner'], 'team-shop');
  const user = document.paths['/users/{userId}'];
  assert.is(user.description, 'One user.');
  const get = user.get!;
  assert.is(get.operationId, 'fetchUser');
  assert.is(get.summary, 'Get a user');
  assert.is(get.description, 'Returns the user, without their orders.');
  assert.is(get['x-rate-limit'], 100);
  assert.is(get.responses['200'].description, 'The user.');
  assert.equal(get.responses['200'].content!['application/json'].example, { id: 1, name: 'Ann' });
  assert.equal(get.responses['200'].content!['application/json'].schema, { $ref: '#/components/schemas/User' });
  assert.ok(document.paths['/health'].get, 'an operation the traffic never reached stays');
  const schema = document.components!.schemas!.User;
  assert.is(schema.description, 'A customer.');
  assert.equal(schema.required, ['id'], 'required is the author\'s');
  assert.equal(schema.properties!.name, { type: 'string', description: 'Display name.', examples: ['Ann'] });

  // From the traffic: added, through the $ref, under the hand-written path spelling.
  assert.equal(schema.properties!.email, { type: 'string', format: 'email' });
  assert.equal(schema.properties!.tier, { type: ['string', 'null'] });
  assert.equal(get.parameters, [{ name: 'fields', in: 'query', required: true, schema: { type: 'string' } }]);
  assert.is(get.responses['404'].description, 'Not Found');
  assert.ok(user.delete, 'DELETE added');
  assert.is(user.delete!.parameters![0].name, 'userId', 'the hand-written parameter name is used');
  assert.ok(document.paths['/orders'].post);
  assert.not.ok(document.paths['/users/{id}'], 'no second spelling of the same path');

  assert.equal(changes.map((c) => `${c.kind} ${c.where}`).sort(), [
    'operation DELETE /users/{userId}',
    'parameter GET /users/{userId} query fields',
    'path /orders',
    'property GET /users/{userId} 200 $.email',
    'property GET /users/{userId} 200 $.tier',
    'response GET /users/{userId} 404',
  ]);
});

merge('merging the same traffic twice changes nothing the second time', async () => {
  const inferred = inferSpec(observe(traffic()));
  const once = mergeSpec(asOpenApiDocument(parseYaml(HAND_WRITTEN), 'shop.yaml'), inferred);
  const twice = mergeSpec(once.document, inferred);
  assert.equal(twice.changes, []);
  assert.equal(twice.document, once.document);
});

merge('a hand-written type the traffic contradicts is kept and reported', async () => {
  const existing = asOpenApiDocument(parseYaml(HAND_WRITTEN.replace('id: { type: integer, description: Stable id. }', 'id: { type: string, description: Stable id. }')), 'shop.yaml');
  const { document, changes } = mergeSpec(existing, inferSpec(observe(traffic())));
  await assertValidOpenApi(document);
  assert.equal(document.components!.schemas!.User.properties!.id.type, 'string');
  assert.ok(changes.some((c) => c.kind === 'type_differs' && c.where.startsWith('GET /users/{userId} 200 $.id')), JSON.stringify(changes));
});

merge('$refs to components (parameters, responses, request bodies) are followed, never written around', async () => {
  const existing = asOpenApiDocument(parseYaml(`
openapi: 3.1.0
info: { title: Refs, version: '1' }
paths:
  /users/{id}:
    get:
      parameters: [{ $ref: '#/components/parameters/Id' }, { $ref: '#/components/parameters/Fields' }]
      responses:
        '200': { $ref: '#/components/responses/User' }
  /orders:
    post:
      requestBody: { $ref: '#/components/requestBodies/Order' }
      responses: { '201': { description: Made } }
components:
  parameters:
    Id: { name: id, in: path, required: true, schema: { type: integer } }
    Fields: { name: fields, in: query, schema: { type: string } }
  responses:
    User:
      description: A user.
      content: { application/json: { schema: { type: object, properties: { id: { type: integer } } } } }
  requestBodies:
    Order:
      content: { application/json: { schema: { type: object, properties: { items: { type: array, items: { type: object } } } } } }
`), 'refs.yaml');
  const { document, changes } = mergeSpec(existing, inferSpec(observe(traffic())));
  await assertValidOpenApi(document, 'merged with refs');
  const get = document.paths['/users/{id}'].get!;
  assert.is(get.parameters!.length, 2, 'fields is declared through its $ref: not added again');
  assert.equal(get.responses['200'], { $ref: '#/components/responses/User' });
  assert.is(get.responses['404'].description, 'Not Found');
  const user = document.components!.responses as Record<string, { content: Record<string, { schema: JsonSchemaObject }> }>;
  assert.ok(user.User.content['application/json'].schema.properties!.email, 'added where the $ref points');
  const order = (document.components!.requestBodies as Record<string, { content: Record<string, { schema: JsonSchemaObject }> }>).Order;
  assert.equal(order.content['application/json'].schema.properties!.items.items!.properties, { qty: { type: 'integer' }, sku: { type: 'string' } });
  assert.ok(changes.some((c) => c.where === 'POST /orders request $.items[*].sku'), JSON.stringify(changes));
  // Remote refs are left as written (the validator resolves only local ones, so this one is not validated).
  const remote = structuredClone(existing);
  remote.paths['/users/{id}'].get!.responses['200'] = { $ref: 'https://example.com/errors.yaml#/User' } as never;
  remote.paths['/users/{id}'].get!.parameters!.push({ $ref: 'https://example.com/p.yaml' } as never);
  const merged = mergeSpec(remote, inferSpec(observe(traffic()))).document.paths['/users/{id}'].get!;
  assert.equal(merged.responses['200'], { $ref: 'https://example.com/errors.yaml#/User' });
  assert.is(merged.parameters!.length, 3);
});

merge('into a 3.0 document, additions are written in 3.0 (nullable, anyOf) and the result validates as 3.0', async () => {
  const existing: OpenApiDocument = {
    openapi: '3.0.3', info: { title: 'Old', version: '1' },
    paths: { '/users/{id}': { get: { responses: { '200': { description: 'ok', content: { 'application/json': { schema: { type: 'object', properties: { id: { type: 'integer' } } } } } } } } } },
  };
  const x: Exchange[] = traffic();
  x.push({ method: 'GET', path: '/mixed', status: 200, responseBody: { v: 1 } }, { method: 'GET', path: '/mixed', status: 200, responseBody: { v: 'a' } });
  const { document } = mergeSpec(existing, inferSpec(observe(x)));
  await assertValidOpenApi(document, 'merged 3.0');
  assert.is(document.openapi, '3.0.3');
  const props = (document.paths['/users/{id}'].get!.responses['200'].content!['application/json'].schema as JsonSchemaObject).properties!;
  assert.equal(props.tier, { type: 'string', nullable: true });
  const mixed = document.paths['/mixed'].get!.responses['200'].content!['application/json'].schema as JsonSchemaObject;
  assert.equal(mixed.properties!.v, { anyOf: [{ type: 'string' }, { type: 'integer' }] });
  assert.equal(toOpenApi30({ type: ['object', 'null'], properties: { a: { type: 'string' } }, required: ['a'] }),
    { type: 'object', nullable: true, properties: { a: { type: 'string' } }, required: ['a'] });
});

merge.run();
