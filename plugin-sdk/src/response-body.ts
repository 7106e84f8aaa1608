import type { JsonSchema } from './json-schema.js';

/** Marks a declared answer as not JSON; a symbol from the global registry, so two copies of the SDK agree. */
const NON_JSON = Symbol.for('vigil.nonJsonBody');

/** An answer that is not JSON (a page, a file, a CSV, a stream, a redirect): what the API listing names instead of a schema. */
export interface NonJsonBody {
  readonly [NON_JSON]: true;
  /** The media type the listing shows, e.g. `text/csv`; `null` for an answer without a body (204, 302, 303, 304). */
  readonly mediaType: string | null;
  readonly description: string;
  /** For an answer in the request's encoding (OTLP: protobuf or JSON): the schema its JSON form follows. */
  readonly json?: JsonSchema;
}

/** What a route declares it answers with for one status: a JSON Schema, or a non-JSON body. */
export type ResponseBody = JsonSchema | NonJsonBody;

/** A non-JSON answer of the given media type (`null`: no body), with the schema of its JSON form when it has one. */
export function nonJsonBody(mediaType: string | null, description: string, json?: JsonSchema): NonJsonBody {
  return Object.freeze({ [NON_JSON]: true as const, mediaType, description, ...(json ? { json } : {}) });
}

export function isNonJsonBody(body: unknown): body is NonJsonBody {
  return typeof body === 'object' && body !== null && (body as Record<symbol, unknown>)[NON_JSON] === true;
}

/** Plain text, e.g. the Prometheus exposition. */
export const TEXT_BODY = nonJsonBody('text/plain', 'Plain text.');
/** An HTML page. */
export const HTML_BODY = nonJsonBody('text/html', 'An HTML page.');
/** A CSV file (RFC 4180). */
export const CSV_BODY = nonJsonBody('text/csv', 'A CSV file (RFC 4180), with a header line.');
/** Bytes whose media type the answer's Content-Type names (files, protobuf). */
export const BINARY_BODY = nonJsonBody('application/octet-stream', 'Bytes; the Content-Type header names their type.');
/** Server-sent events. */
export const EVENT_STREAM_BODY = nonJsonBody('text/event-stream', 'Server-sent events.');
/** No body: a 204, or a redirect whose Location header says where to go. */
export const NO_BODY = nonJsonBody(null, 'No body.');

/**
 * A closed object schema: no keys but `properties`, each required unless named in `optional`. The usual shape of an
 * answer; give it a PascalCase `title` when it is a shape the API's clients name.
 */
export function closedObject(
  properties: Record<string, JsonSchema>,
  options: { title?: string; description?: string; optional?: readonly string[] } = {},
): JsonSchema {
  const optional = new Set(options.optional ?? []);
  return {
    ...(options.title ? { title: options.title } : {}),
    ...(options.description ? { description: options.description } : {}),
    type: 'object',
    additionalProperties: false,
    required: Object.keys(properties).filter((k) => !optional.has(k)),
    properties,
  };
}
