import { test } from 'uvu';
import * as assert from 'uvu/assert';
import {
  constraintTexts, credentialHeader, credentialText, curlCommand, exampleOf, groupByTag, listOperations, matchesQuery, typeText,
  type OpenApiDocument, type SecurityScheme,
} from '../../../../../ui/src/areas/gateway/openapi-listing.js';

const schemes: Record<string, SecurityScheme> = {
  dashboard: { type: 'http', scheme: 'bearer' },
  dashboardCookie: { type: 'apiKey', in: 'cookie', name: 'vigil_session' },
  projectKey: { type: 'apiKey', in: 'header', name: 'X-Service-Project-Key' },
};
const DASHBOARD: Record<string, string[]>[] = [{ dashboard: [] }, { dashboardCookie: [] }];

const doc: OpenApiDocument = {
  openapi: '3.1.0',
  info: { title: 'Vigil control plane', version: '0.1.0' },
  tags: [{ name: 'control-plane' }, { name: 'capture' }],
  security: DASHBOARD,
  paths: {
    '/api/gateway/records/{id}': {
      get: { operationId: 'capture.get_record', summary: 'One governed record', tags: ['capture', 'gateway'], security: DASHBOARD,
        parameters: [{ name: 'id', in: 'path', required: true, schema: { type: 'string' } }], responses: { 200: {}, default: {} } },
    },
    '/api/health': { get: { summary: 'Liveness', tags: ['control-plane', 'health'], security: [], responses: { 200: {} } } },
    '/api/ui/settings': {
      put: { summary: 'Replaces the settings', tags: ['ui', 'ui'], requestBody: { content: { 'application/json': { schema: {
        type: 'object', required: ['theme', 'simple_mode'], properties: { theme: { enum: ['system', 'light'] }, simple_mode: { type: 'boolean' }, note: { type: 'string' } },
      } } } } },
      get: { summary: 'The settings', tags: ['ui'] },
    },
    '/v1/traces': { post: { summary: 'Ingest', tags: ['llm'], security: [{ projectKey: [] }], requestBody: { content: { 'application/x-protobuf': {} } }, responses: { 202: {} } } },
    '/api/term': { get: { summary: 'A terminal', tags: ['terminal'], 'x-websocket': true, responses: { 101: {} } } },
  },
};

test('operations: one per method and path, owner first, the other tags apart, credentials from the operation or the document', () => {
  const ops = listOperations(doc);
  assert.equal(ops.map((o) => `${o.method} ${o.path}`), ['GET /api/gateway/records/{id}', 'GET /api/health', 'GET /api/ui/settings', 'PUT /api/ui/settings', 'POST /v1/traces', 'GET /api/term']);
  const [record, health, getSettings, putSettings, traces, term] = ops;
  assert.is(record.tag, 'capture');
  assert.equal(record.topics, ['gateway']);
  assert.equal(record.credentials, ['dashboard', 'dashboardCookie']);
  assert.equal(health.credentials, [], 'an empty security list means no credential');
  assert.equal(getSettings.credentials, ['dashboard', 'dashboardCookie'], 'none given: the document\'s');
  assert.equal(putSettings.topics, [], 'the owner is not repeated');
  assert.is(putSettings.body?.type, 'application/json');
  assert.is(traces.status, '202');
  assert.is(getSettings.status, '200');
  assert.ok(term.websocket);
});

test('groups: in the document\'s tag order, then the tags it does not list; empty groups are left out', () => {
  const groups = groupByTag(listOperations(doc), ['control-plane', 'capture', 'proxy']);
  assert.equal(groups.map((g) => [g.tag, g.operations.length]), [['control-plane', 1], ['capture', 1], ['ui', 2], ['llm', 1], ['terminal', 1]]);
});

test('the filter: every word, anywhere in method, path, summary, tags or parameter names, any case', () => {
  const [record, health, , putSettings] = listOperations(doc);
  assert.ok(matchesQuery(record, ''));
  assert.ok(matchesQuery(record, 'GATEWAY record'));
  assert.ok(matchesQuery(record, 'id'), 'a parameter name');
  assert.ok(matchesQuery(putSettings, 'put settings'));
  assert.not.ok(matchesQuery(putSettings, 'get settings'));
  assert.not.ok(matchesQuery(health, 'records'));
});

test('types and limits in a line', () => {
  assert.is(typeText({ type: 'string', enum: ['1h', '24h'] }), '1h | 24h');
  assert.is(typeText({ type: 'array', items: { type: 'string' } }), 'string[]');
  assert.is(typeText({ type: 'string', format: 'date-time' }), 'string (date-time)');
  assert.is(typeText({ type: ['string', 'null'] }), 'string | null');
  assert.is(typeText({ $ref: '#/components/schemas/Error' }), 'Error');
  assert.is(typeText({ properties: {} }), 'object');
  assert.is(typeText(undefined), 'any');
  assert.equal(constraintTexts({ type: 'integer', minimum: 1, maximum: 10, default: 5 }), ['default 5', '1 to 10']);
  assert.equal(constraintTexts({ type: 'integer', minimum: 0 }), ['at least 0']);
  assert.equal(constraintTexts({ type: 'string', pattern: '^[a-z]+$', maxLength: 8, minLength: 1 }), ['at least 1 characters', 'at most 8 characters', 'matches ^[a-z]+$']);
  assert.equal(constraintTexts({ type: 'array', maxItems: 10 }), ['at most 10 items']);
});

test('credentials: named for people; a command line gets a header with the secret as an environment variable', () => {
  const [record, health, , , traces] = listOperations(doc);
  assert.is(credentialText(record, schemes), 'the dashboard token (bearer) or the dashboard session cookie');
  assert.match(credentialText(health, schemes), /^None/);
  assert.is(credentialText(traces, schemes), 'projectKey (header X-Service-Project-Key)');
  assert.is(credentialHeader(record, schemes), 'Authorization: Bearer $VIGIL_TOKEN');
  assert.is(credentialHeader(traces, schemes), 'X-Service-Project-Key: $VIGIL_PROJECT_KEY');
  assert.is(credentialHeader(health, schemes), undefined);
  const cookieOnly = { ...record, credentials: ['dashboardCookie'] };
  assert.is(credentialHeader(cookieOnly, schemes), undefined, 'curl cannot use the session cookie');
});

test('example bodies: defaults, first allowed values, and only the required keys', () => {
  assert.equal(exampleOf({ type: 'object', required: ['a', 'b', 'c'], properties: { a: { type: 'integer', minimum: 1 }, b: { enum: ['x', 'y'] }, c: { type: 'string', default: 'z' }, d: { type: 'boolean' } } }), { a: 1, b: 'x', c: 'z' });
  assert.equal(exampleOf({ type: 'object', properties: { n: { type: 'number' }, list: { type: 'array' }, nested: { type: 'object', properties: { ok: { type: 'boolean' } } } } }), { n: 0, list: [], nested: { ok: false } }, 'no required list: every key');
  assert.is(exampleOf(undefined), null);
});

test('curl: the token as $VIGIL_TOKEN, path parameters as variables, a JSON body to edit, nothing for a websocket', () => {
  const [record, health, , putSettings, traces, term] = listOperations(doc);
  const origin = 'http://127.0.0.1:9095';
  assert.is(curlCommand(record, origin, schemes), 'curl -s -H "Authorization: Bearer $VIGIL_TOKEN" "http://127.0.0.1:9095/api/gateway/records/$ID"');
  assert.is(curlCommand(health, origin, schemes), 'curl -s "http://127.0.0.1:9095/api/health"');
  assert.is(curlCommand(putSettings, origin, schemes), [
    'curl -s -X PUT', '-H "Authorization: Bearer $VIGIL_TOKEN"', '-H \'Content-Type: application/json\'',
    '-d \'{"theme":"system","simple_mode":false}\'', '"http://127.0.0.1:9095/api/ui/settings"',
  ].join(' \\\n  '));
  assert.is(curlCommand(traces, origin, schemes), [
    'curl -s -X POST', '-H "X-Service-Project-Key: $VIGIL_PROJECT_KEY"', '-H \'Content-Type: application/x-protobuf\'', '--data-binary @body', '"http://127.0.0.1:9095/v1/traces"',
  ].join(' \\\n  '));
  assert.is(curlCommand(term, origin, schemes), undefined);
});

test('curl: required query parameters get their default, first allowed value, or a variable; a quote in a body is escaped for the shell', () => {
  const [record] = listOperations(doc);
  const op = { ...record, parameters: [
    { name: 'range', in: 'query' as const, required: true, schema: { enum: ['1h', '24h'] } },
    { name: 'project', in: 'query' as const, required: true, schema: { type: 'string' } },
    { name: 'limit', in: 'query' as const, schema: { type: 'integer', default: 50 } },
  ] };
  assert.match(curlCommand(op, 'http://h', schemes)!, /"http:\/\/h\/api\/gateway\/records\/\$ID\?range=1h&project=\$PROJECT"$/);
  const quoted = { ...record, method: 'POST', body: { type: 'application/json', schema: { type: 'object', properties: { name: { type: 'string', default: "it's" } } } } };
  assert.match(curlCommand(quoted, 'http://h', schemes)!, /-d '\{"name":"it'\\''s"\}'/);
});

test.run();
