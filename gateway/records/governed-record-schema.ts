import type { JsonSchema } from '@vigil/plugin-sdk';
import { closedObject } from '@vigil/plugin-sdk';

const headerValues: JsonSchema = { anyOf: [{ type: 'string' }, { type: 'array', items: { type: 'string' } }] };
const headers: JsonSchema = { anyOf: [{ type: 'null' }, { type: 'object', additionalProperties: headerValues }] };

/**
 * A `GovernedRecord` (governed-record.ts) as the API answers it: the record the gateway stores and exports, and what "try a
 * request" shows. Shared here because two plugins answer it (capture stores it, governance makes it).
 */
export const governedRecordSchema: JsonSchema = closedObject({
  id: { type: 'string', description: 'UUIDv7.' },
  time: { type: 'integer', description: 'Epoch ms of the request\'s start.' },
  method: { type: 'string' },
  path: { type: 'string', description: 'As received, without the query.' },
  route: { type: 'array', items: { type: 'string' }, description: 'The matched rules\' globs.' },
  query: { type: 'object', additionalProperties: headerValues },
  status: { type: 'integer', description: '0 when the upstream gave no response.' },
  duration_ms: { type: 'number' },
  headers: { ...headers, description: 'Canonical capitalisation; null when headers are restricted.' },
  response_headers: headers,
  request_body: { description: 'JSON value, string for text, null when not kept (see dropped_reason).' },
  response_body: { description: 'JSON value, string for text, null when not kept (see dropped_reason).' },
  labels: { type: 'object', additionalProperties: { type: 'string' } },
  matched_rules: { type: 'array', items: { type: 'string' } },
  tokens: { type: ['number', 'null'] },
  sampled: { type: 'boolean' },
  truncated: { type: 'boolean' },
  partial: { type: 'boolean' },
  dropped_reason: { type: ['string', 'null'] },
  error: { type: ['string', 'null'], description: 'Null when the upstream\'s answer went through whole; else an error code or client_aborted.' },
  agent_masked: { type: 'array', items: { type: 'string' }, description: 'Only on records a middleware sent: what the agent\'s policy masked.' },
}, { title: 'GovernedRecord', optional: ['agent_masked'] });
