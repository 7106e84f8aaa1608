// What the handlers share: the request as parsed and validated, and the answer they give back to the server.
import { seededRandom, seedOf, type Random } from '@vigil/plugin-sdk';
import type { JsonSchemaObject } from '../openapi/document.js';
import type { CollectionStore } from './collection-store.js';
import type { ProblemDetail } from './mock-ajv.js';
import { responseFor, type MockOperation } from './mock-operations.js';
import { errorBody } from './response-shape.js';

/** How an answer was made: the `X-Vigil-Mock` header. */
export type AnswerMode = 'stateful' | 'generated' | 'llm' | 'example' | 'error' | 'control';

export interface MockAnswer {
  status: number;
  mode: AnswerMode;
  /** Undefined: no body. */
  body?: unknown;
  /** The media type to send; JSON when absent. */
  mediaType?: string;
  headers?: Record<string, string>;
}

export interface MockRequest {
  method: string;
  pathname: string;
  /** The path without the server's base path: `/stats` for `/v1/stats`. Seeds the dice, so both answer alike. */
  routePath: string;
  query: URLSearchParams;
  headers: Record<string, string | string[] | undefined>;
  /** Path parameters by name, as the client wrote them. */
  params: Record<string, string>;
  /** Query parameters declared by the operation, coerced to their schema's types. */
  typedQuery: Record<string, unknown>;
  /** The parsed JSON body; undefined when there was none. */
  body: unknown;
}

export interface MockContext {
  seed: number;
  store: CollectionStore;
  check(schema: JsonSchemaObject, value: unknown): boolean;
  /** Why `value` fails `schema`, each problem's path under `root`. */
  explain(schema: JsonSchemaObject, value: unknown, root: string): ProblemDetail[];
  /** The first 404 schema the document declares anywhere: the API's error shape for an operation that declares none. */
  notFoundSchema?: JsonSchemaObject;
  /** Example values the LLM wrote at start, by `${operation key} ${response key}`. */
  llmExamples: Map<string, unknown>;
}

/** Dice for one purpose: the same seed and the same words give the same values in every run. */
export const diceFor = (ctx: MockContext, ...words: (string | number)[]): Random => seededRandom(seedOf([ctx.seed, ...words].join('\u0000')));

/**
 * An error answer in the operation's declared schema for `status` (or the document's 404 shape, or a default), its
 * `code` field set to `code` where the shape has one (default: the status's slug, `not_found`).
 */
export function errorAnswer(
  ctx: MockContext, op: MockOperation | undefined, status: number, message: string, details: ProblemDetail[] = [], code?: string,
): MockAnswer {
  const declared = op ? responseFor(op, status) : undefined;
  // The reason also goes in a header: it survives a declared response without content, and shows in devtools. A code
  // of the mock's own (a bound) leads it, since the spec's error shape may have no field for it.
  const reason = code ? `${code}: ${message}` : message;
  const headers = { 'x-vigil-mock-reason': reason.replace(/[^\x20-\x7e]/g, '?').slice(0, 500) };
  if (declared && !declared.mediaType) return { status, mode: 'error', headers };
  const schema = declared?.json ? declared.schema : status === 404 && !declared ? ctx.notFoundSchema : undefined;
  return { status, mode: 'error', headers, body: errorBody(schema, status, message, details, diceFor(ctx, 'error', status, message), ctx.check, code) };
}

/** The status a failed check answers: the spec's choice between 400 and 422 when it declares one of them. */
export function validationStatus(op: MockOperation, preferred: 400 | 422): number {
  const has = (code: number): boolean => op.responses.some((r) => r.key === String(code));
  const other = preferred === 400 ? 422 : 400;
  return has(preferred) || !has(other) ? preferred : other;
}
