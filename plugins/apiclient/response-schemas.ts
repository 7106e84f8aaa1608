// The shapes the API client's routes take and give. The model's bounds (LIMITS) are the schemas' maxItems and
// maxLength, so a store or an import never grows past them.
import { closedObject, type JsonSchema } from '@vigil/plugin-sdk';
import { LIMITS } from './types.js';

const text = (maxLength: number, description?: string): JsonSchema => ({ type: 'string', maxLength, ...(description ? { description } : {}) });
const id: JsonSchema = { type: 'string', minLength: 1, maxLength: 64, pattern: '^[A-Za-z0-9_.:-]+$' };
const variableName: JsonSchema = { type: 'string', minLength: 1, maxLength: 128, pattern: '^[A-Za-z_$][\\w$.-]*$' };

export const keyValue = closedObject({
  name: { type: 'string', minLength: 1, maxLength: 256 }, value: text(16384), enabled: { type: 'boolean', description: 'false: kept in the editor, not sent.' },
}, { title: 'ApiKeyValue', optional: ['enabled'] });

export const requestAuth = closedObject({
  type: { enum: ['none', 'bearer', 'basic'] }, token: text(16384), username: text(1024), password: text(1024),
}, { title: 'ApiRequestAuth', optional: ['token', 'username', 'password'] });

export const apiRequest = closedObject({
  id, name: text(200), folder: text(400, 'Where the request sits in the tree, e.g. "Users / Admin"; "" at the top.'),
  method: { type: 'string', pattern: '^[A-Z][A-Z0-9_-]{0,15}$' },
  url: text(8192, 'May hold {{variables}}; the query string is part of it.'),
  headers: { type: 'array', maxItems: LIMITS.headers, items: keyValue },
  body: text(LIMITS.body_chars),
  auth: requestAuth,
}, { title: 'ApiRequest' });

export const collection = closedObject({ id, name: { type: 'string', minLength: 1, maxLength: 200 }, requests: { type: 'array', maxItems: LIMITS.requests, items: apiRequest } }, { title: 'ApiCollection' });

export const envVariable = closedObject({
  name: variableName, value: text(16384, 'A secret variable\'s value is never sent back: it arrives as "" with `set`. Sending "" keeps the saved one.'),
  secret: { type: 'boolean', description: 'Stored encrypted; used by the server only.' },
  set: { type: 'boolean', description: 'Secret variables: whether a value is saved. Sending set: false with no value forgets it.' },
}, { title: 'ApiEnvVariable', optional: ['set'] });

export const environment = closedObject({
  id, name: { type: 'string', minLength: 1, maxLength: 200 }, variables: { type: 'array', maxItems: LIMITS.variables, items: envVariable },
}, { title: 'ApiEnvironment' });

export const extraction = closedObject({
  variable: variableName, from: { enum: ['json', 'header', 'status'] }, path: text(512, 'json: $.data.token or items[0].id; header: its name.'),
}, { title: 'ApiExtraction' });

export const flowStep = closedObject({ request: apiRequest, extract: { type: 'array', maxItems: 20, items: extraction } }, { title: 'ApiFlowStep' });
export const flow = closedObject({ id, name: { type: 'string', minLength: 1, maxLength: 200 }, steps: { type: 'array', maxItems: LIMITS.steps, items: flowStep } }, { title: 'ApiFlow' });

export const historyEntry = closedObject({
  id: { type: 'string' }, at: { type: 'integer', description: 'epoch ms' }, method: { type: 'string' },
  url: { type: 'string', description: 'As written, placeholders unfilled.' }, status: { type: ['integer', 'null'], description: 'null: no answer (timeout, unreachable).' },
  duration_ms: { type: ['number', 'null'] }, request: apiRequest,
}, { title: 'ApiHistoryEntry' });

export const storeLimits = closedObject(Object.fromEntries(Object.keys(LIMITS).map((k) => [k, { type: 'integer' }])) as Record<string, JsonSchema>, { title: 'ApiStoreLimits' });

export const sendLimits = closedObject({
  timeout_ms: { type: 'integer' }, max_timeout_ms: { type: 'integer' }, max_response_bytes: { type: 'integer' }, display_bytes: { type: 'integer' },
}, { title: 'ApiSendLimits' });

export const storeView = closedObject({
  collections: { type: 'array', maxItems: LIMITS.collections, items: collection },
  environments: { type: 'array', maxItems: LIMITS.environments, items: environment },
  active_env: { type: ['string', 'null'] },
  history: { type: 'array', maxItems: LIMITS.history, items: historyEntry, description: 'The last 50 sends, newest first.' },
  flows: { type: 'array', maxItems: LIMITS.flows, items: flow },
  limits: storeLimits,
  send: sendLimits,
}, { title: 'ApiStore' });

export const storeChange = closedObject({
  collections: { type: 'array', maxItems: LIMITS.collections, items: collection },
  environments: { type: 'array', maxItems: LIMITS.environments, items: environment },
  active_env: { oneOf: [id, { type: 'null' }] },
  flows: { type: 'array', maxItems: LIMITS.flows, items: flow },
  clear_history: { type: 'boolean' },
}, { title: 'ApiStoreChange', optional: ['collections', 'environments', 'active_env', 'flows', 'clear_history'] });

const scopeInput = {
  environment_id: { oneOf: [id, { type: 'null' }], description: 'Whose variables fill the placeholders; default the active environment, null none.' },
  variables: { type: 'object', maxProperties: 100, additionalProperties: text(16384), description: 'Values that win over the environment\'s (not saved).' },
  timeout_ms: { type: 'integer', minimum: 100, maximum: 3_600_000, description: 'Default apiclient.timeout; at most apiclient.max_timeout.' },
} satisfies Record<string, JsonSchema>;

export const sendInput = closedObject({ request: apiRequest, ...scopeInput }, { title: 'ApiSendInput', optional: ['environment_id', 'variables', 'timeout_ms'] });

export const timings = closedObject({
  dns_ms: { type: ['number', 'null'] }, connect_ms: { type: ['number', 'null'] }, tls_ms: { type: ['number', 'null'] },
  first_byte_ms: { type: ['number', 'null'] }, total_ms: { type: 'number' },
}, { title: 'ApiTimings', description: 'Milliseconds since the send began; null where the phase did not happen (no DNS for an IP address, no TLS for http).' });

export const sendResult = closedObject({
  url: { type: 'string', description: 'The URL sent, secret values and credential-like query values masked.' },
  method: { type: 'string' },
  status: { type: 'integer' }, status_text: { type: 'string' }, http_version: { type: 'string' },
  headers: { type: 'array', maxItems: 1000, items: { type: 'array', minItems: 2, maxItems: 2, items: { type: 'string' } } },
  content_type: { type: 'string' },
  body: { type: 'string', description: 'The body as text, cut at apiclient.display_bytes.' },
  pretty: { type: ['string', 'null'], description: 'A JSON body pretty-printed, when it was read whole.' },
  binary: { type: 'boolean' },
  size_bytes: { type: 'integer', description: 'Bytes read.' },
  shown_bytes: { type: 'integer', description: 'Bytes of it in `body`.' },
  truncated: { type: 'boolean', description: 'The body went on past apiclient.max_response_bytes: reading stopped there.' },
  timings,
}, { title: 'ApiSendResult' });

export const flowInput = closedObject({
  flow_id: id, flow, ...scopeInput,
}, { title: 'ApiFlowInput', optional: ['flow_id', 'flow', 'environment_id', 'variables', 'timeout_ms'] });

export const flowResult = closedObject({
  steps: {
    type: 'array', maxItems: LIMITS.steps,
    items: closedObject({
      name: { type: 'string' }, ok: { type: 'boolean' }, error: { type: ['string', 'null'] },
      extracted: { type: 'object', additionalProperties: { type: 'string' }, description: 'Values taken into variables (secret-looking ones are shown: they came in this response).' },
      missing: { type: 'array', items: { type: 'string' }, description: 'Extractions that found nothing.' },
      response: { oneOf: [sendResult, { type: 'null' }] },
    }, { title: 'ApiFlowStepResult' }),
  },
  completed: { type: 'boolean', description: 'false: a step failed (no answer, a 4xx/5xx, or an extraction that found nothing) and the flow stopped there.' },
}, { title: 'ApiFlowResult' });

export const importInput = closedObject({
  text: { type: 'string', minLength: 1, maxLength: LIMITS.import_bytes, description: 'The file\'s text: a Postman v2.1 collection, an Insomnia v4 export, an OpenAPI 3 document (JSON or YAML) or curl commands.' },
  format: { enum: ['auto', 'postman', 'insomnia', 'openapi', 'curl'] },
}, { title: 'ApiImportInput', optional: ['format'] });

export const importResult = closedObject({
  format: { enum: ['postman', 'insomnia', 'openapi', 'curl'] },
  collection,
  variables: { type: 'array', maxItems: LIMITS.variables, items: envVariable, description: 'Variables the document declares (an OpenAPI server becomes baseUrl): offered as a new environment.' },
}, { title: 'ApiImportResult' });

export const exportInput = closedObject({ request: apiRequest, format: { enum: ['curl', 'http'] }, environment_id: scopeInput.environment_id }, { title: 'ApiExportInput', optional: ['environment_id'] });
export const exportResult = closedObject({
  text: { type: 'string' },
  secrets: { type: 'array', items: { type: 'string' }, description: 'Secret variables the snippet leaves to be set: $NAME shell variables in curl, {{name}} in raw HTTP.' },
}, { title: 'ApiExportResult' });
