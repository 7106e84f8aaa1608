import type { JsonSchema } from '@vigil/plugin-sdk';

export type HeaderMap = Record<string, string | number | boolean | (string | number | boolean)[]>;

/** Body forms: `body` is a JSON value (serialised), `raw` text sent as written, `base64` bytes. At most one. */
export interface CaseMessage {
  headers?: HeaderMap;
  body?: unknown;
  raw?: string;
  base64?: string;
  /** Compress the body and add `Content-Encoding`. */
  encoding?: 'gzip' | 'deflate' | 'br';
}

export interface CaseExpect {
  /** Record paths whose value must be the marker (`request_body.card.number`, `headers.Authorization`, `query.token`). */
  redacted?: string[];
  /** Record paths whose value must be stored unchanged. */
  kept?: string[];
  /** Whether each part is present (non-null) in the record. */
  captured?: Partial<Record<'request_body' | 'response_body' | 'headers' | 'response_headers', boolean>>;
  labels?: Record<string, string>;
  matched_rules?: string[];
  tokens?: number | null;
  sampled?: boolean;
  /** A text the record's dropped_reason must contain, or null for "nothing dropped". */
  dropped_reason?: string | null;
  /** Record path to the exact value expected there. */
  equals?: Record<string, unknown>;
}

export interface TestCase {
  name: string;
  request: CaseMessage & { method?: string; path: string };
  response?: CaseMessage & { status?: number };
  /** The capture limit, in bytes, applied to each body (default 1 MiB, as the proxy's). */
  max_body_bytes?: number;
  /** What the sampling roll returns for this case, in [0, 1) (default 0: kept whenever `sample` > 0). */
  sample_roll?: number;
  expect: CaseExpect;
}

export interface CasesFile {
  cases: TestCase[];
}

const headerValue: JsonSchema = { type: ['string', 'number', 'boolean'] };
const headers: JsonSchema = {
  type: 'object',
  additionalProperties: { anyOf: [headerValue, { type: 'array', items: headerValue }] },
};
const messageProperties: Record<string, JsonSchema> = {
  headers,
  body: { description: 'JSON body, written as a YAML value' },
  raw: { type: 'string', description: 'body text exactly as sent (malformed input)' },
  base64: { type: 'string', pattern: '^[A-Za-z0-9+/\\s]*={0,2}\\s*$', description: 'body bytes' },
  encoding: { type: 'string', enum: ['gzip', 'deflate', 'br'] },
};
const recordPaths: JsonSchema = { type: 'array', items: { type: 'string', minLength: 1 } };
const captured = { type: 'boolean' };

/** Schema of one case of a cases file: a request, its response, and what the record must hold. */
export const caseSchema: JsonSchema = {
  type: 'object',
  additionalProperties: false,
  required: ['name', 'request', 'expect'],
  properties: {
    name: { type: 'string', minLength: 1 },
    request: {
      type: 'object',
      additionalProperties: false,
      required: ['path'],
      properties: {
        method: { type: 'string', pattern: '^[A-Za-z]+$' },
        path: { type: 'string', pattern: '^/', description: 'path with query, as the client sends it' },
        ...messageProperties,
      },
    },
    response: {
      type: 'object',
      additionalProperties: false,
      properties: { status: { type: 'integer', minimum: 0, maximum: 599 }, ...messageProperties },
    },
    max_body_bytes: { type: 'integer', minimum: 0 },
    sample_roll: { type: 'number', minimum: 0, exclusiveMaximum: 1 },
    expect: {
      type: 'object',
      additionalProperties: false,
      minProperties: 1,
      properties: {
        redacted: recordPaths,
        kept: recordPaths,
        captured: {
          type: 'object',
          additionalProperties: false,
          properties: { request_body: captured, response_body: captured, headers: captured, response_headers: captured },
        },
        labels: { type: 'object', additionalProperties: { type: 'string' } },
        matched_rules: { type: 'array', items: { type: 'string' } },
        tokens: { type: ['number', 'null'] },
        sampled: { type: 'boolean' },
        dropped_reason: { type: ['string', 'null'] },
        equals: { type: 'object', additionalProperties: true },
      },
    },
  },
};

/** Schema of a `vigil test` cases file. Strict like every config: an unknown key is an error. */
export const casesFileSchema: JsonSchema = {
  type: 'object',
  additionalProperties: false,
  required: ['cases'],
  properties: {
    cases: { type: 'array', minItems: 1, items: caseSchema },
  },
};
