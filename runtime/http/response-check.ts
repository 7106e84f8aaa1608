import { Readable } from 'node:stream';
import type { Context as KoaContext } from 'koa';
import { HttpError, isNonJsonBody, type Logger } from '@vigil/plugin-sdk';
import { ERROR_BODY } from './error-body.js';
import { HttpErrors } from './errors.js';
import { describeOwner, type RegisteredRoute } from './route-table.js';
import { createSchemaCompiler } from './schema-validation.js';

/** A handler answered something its route does not declare: a 500 whose message names the route and the key path. */
export class ResponseMismatch extends HttpError {
  constructor(message: string) {
    super(500, HttpErrors.INTERNAL, message);
  }
}

let checkError: ((value: unknown) => { path: string; message: string } | null) | undefined;

const isJson = (type: string): boolean => /^application\/([\w.+-]+\+)?json\b/i.test(type);

/** The JSON value of the answer: what the handler returned, or the JSON text it set as the body. */
function jsonOf(ctx: KoaContext, returned: unknown): { value: unknown } | { problem: string } {
  const body: unknown = ctx.body;
  if (returned !== undefined && !Buffer.isBuffer(returned) && !(returned instanceof Uint8Array) && !(returned instanceof Readable)) {
    return { value: returned };
  }
  if (body instanceof Readable) return { problem: 'a stream labelled JSON, which cannot be checked' };
  try {
    const text = typeof body === 'string' ? body : Buffer.isBuffer(body) ? body.toString('utf8') : JSON.stringify(body);
    return { value: JSON.parse(text) };
  } catch {
    return { problem: 'a body labelled JSON that does not parse' };
  }
}

/** What is wrong with the answer, or null when it is what the route declares. */
function mismatch(ctx: KoaContext, route: RegisteredRoute, returned: unknown): string | null {
  const status = ctx.status;
  const declared = route.responses.get(status);
  const type = ctx.response.type;
  // Koa drops the body of a 204 or 304: what the handler returned tells whether it meant to send one.
  const empty = returned === undefined && (ctx.body === undefined || ctx.body === null || ctx.body === '');
  if (declared === undefined) {
    if (status < 400) return `status ${status} is not declared (declared: ${[...route.responses.keys()].join(', ')})`;
    if (!isJson(type)) return `an error status ${status} without the JSON error body`;
    const json = jsonOf(ctx, returned);
    if ('problem' in json) return json.problem;
    const found = (checkError ??= createSchemaCompiler().response(ERROR_BODY))(json.value);
    return found && `${found.message} (an error status ${status} must answer the error shape)`;
  }
  if (isNonJsonBody(declared)) {
    if (declared.mediaType === null) return empty ? null : `a body where status ${status} declares none`;
    if (!isJson(type) || isJson(declared.mediaType)) return null;
    if (!declared.json) return `JSON where status ${status} declares ${declared.mediaType}`;
  }
  if (!isJson(type)) return `${type || 'no body'} where status ${status} declares JSON`;
  const json = jsonOf(ctx, returned);
  if ('problem' in json) return json.problem;
  const found = route.checkResponse!.get(status)!(json.value);
  return found && found.message;
}

/**
 * Test runs only (VIGIL_VALIDATE_RESPONSES=1): throws a 500 when the answer departs from the route's declared
 * response, and logs which route and where, so every integration test that calls the route catches the drift.
 */
export function assertDeclaredResponse(ctx: KoaContext, route: RegisteredRoute, returned: unknown, log: Logger): void {
  const problem = mismatch(ctx, route, returned);
  if (problem === null) return;
  const where = `${route.method} ${route.path} of ${describeOwner(route.plugin)}`;
  log.error('answer does not match the declared response', { plugin: route.plugin, method: route.method, route: route.path, status: ctx.status, problem });
  throw new ResponseMismatch(`the answer of ${where} does not match its declared response: ${problem}`);
}
