import { Ajv2020, type ErrorObject, type ValidateFunction } from 'ajv/dist/2020.js';
import type { JsonSchema } from '@vigil/plugin-sdk';
import { HttpErrors, ValidationError } from './errors.js';

// Formats without ajv-formats: the handful route schemas use, checked loosely (shape, not calendar arithmetic).
const FORMATS: Record<string, RegExp> = {
  'date-time': /^\d{4}-\d{2}-\d{2}[Tt ]\d{2}:\d{2}:\d{2}(\.\d+)?([Zz]|[+-]\d{2}:\d{2})$/,
  date: /^\d{4}-\d{2}-\d{2}$/,
  uuid: /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i,
  email: /^[^\s@]+@[^\s@]+$/,
  uri: /^[a-z][a-z0-9+.-]*:[^\s]*$/i,
};

function createAjv(coerce: boolean, useDefaults = true): Ajv2020 {
  const ajv = new Ajv2020({
    strict: false,
    allErrors: false,
    useDefaults,
    coerceTypes: coerce ? 'array' : false,
    logger: false,
  });
  for (const [name, pattern] of Object.entries(FORMATS)) ajv.addFormat(name, pattern);
  return ajv;
}


/** `/rules/2/redact` → `rules[2].redact`, with `root` in front: `body.rules[2].redact`. */
export function keyPath(root: string, pointer: string, extra?: string): string {
  const parts = pointer === '' ? [] : pointer.slice(1).split('/').map((p) => p.replace(/~1/g, '/').replace(/~0/g, '~'));
  if (extra !== undefined) parts.push(extra);
  let out = root;
  for (const p of parts) {
    if (/^\d+$/.test(p)) out += `[${p}]`;
    else if (/^[A-Za-z_$][\w$-]*$/.test(p)) out += `.${p}`;
    else out += `[${JSON.stringify(p)}]`;
  }
  return out;
}

function describe(root: string, error: ErrorObject): { path: string; message: string } {
  const params = error.params as Record<string, unknown>;
  if (error.keyword === 'additionalProperties') {
    const path = keyPath(root, error.instancePath, String(params.additionalProperty));
    return { path, message: `${path} is not allowed (unknown key)` };
  }
  if (error.keyword === 'required') {
    const path = keyPath(root, error.instancePath, String(params.missingProperty));
    return { path, message: `${path} is required` };
  }
  const path = keyPath(root, error.instancePath);
  const allowed = error.keyword === 'enum' ? `: ${(params.allowedValues as unknown[]).map((v) => JSON.stringify(v)).join(', ')}` : '';
  return { path, message: `${path} ${error.message ?? 'is invalid'}${allowed}` };
}

export type Validator = (value: unknown) => void;

function validator(fn: ValidateFunction, root: string, code: ConstructorParameters<typeof ValidationError>[0], what: string): Validator {
  return (value) => {
    if (fn(value)) return;
    const { path, message } = describe(root, fn.errors![0]);
    throw new ValidationError(code, `invalid ${what}: ${message}`, path);
  };
}

/** The query schema as validated: an object whose unknown parameters are rejected unless it says otherwise. */
export function querySchemaOf(schema: JsonSchema): JsonSchema {
  return { ...schema, type: 'object', additionalProperties: schema.additionalProperties ?? false };
}

/** Where an answer departs from its schema: null when it matches. */
export type ResponseCheck = (value: unknown) => { path: string; message: string } | null;

export interface SchemaCompiler {
  /** Checks that `schema` is a JSON Schema (at registration), and returns its check, compiled on first use. */
  response(schema: JsonSchema): ResponseCheck;
  /** The returned function throws a 400 naming the key path of the first error; an absent body is an error. */
  body(schema: JsonSchema): Validator;
  /** The returned function coerces the query object in place (numbers, booleans, arrays, defaults). */
  query(schema: JsonSchema): Validator;
}

/**
 * Checks schemas against the JSON Schema meta-schema, for every compiler of the process: its own validator is compiled
 * once (a few tens of ms), where compiling every route's schema at start-up cost more than the rest of the control
 * plane (bench/startup.ts).
 */
let metaChecker: Ajv2020 | undefined;
function assertJsonSchema(schema: JsonSchema): void {
  metaChecker ??= createAjv(false);
  if (!metaChecker.validateSchema(schema)) throw new Error(metaChecker.errorsText(metaChecker.errors));
}

/**
 * A route's validator: the schema is checked when the route is registered (a plugin author hears of a schema that is
 * no JSON Schema at start-up), and compiled on the route's first request, so that start-up does not compile the
 * schemas of routes nobody calls.
 */
function lazily(ajv: Ajv2020, schema: JsonSchema, make: (fn: ValidateFunction) => Validator): Validator {
  assertJsonSchema(schema);
  let check: Validator | undefined;
  return (value) => (check ??= make(ajv.compile(schema)))(value);
}

/** One per control plane, so schemas with the same `$id` in two servers of one process do not collide. */
export function createSchemaCompiler(): SchemaCompiler {
  const bodyAjv = createAjv(false);
  // Query strings carry only strings: numbers and booleans are coerced, and a single value becomes a one-item array.
  const queryAjv = createAjv(true);
  // Answers are checked as they are: defaults must not be written into them.
  let responseAjv: Ajv2020 | undefined;
  return {
    response(schema) {
      assertJsonSchema(schema);
      let fn: ValidateFunction | undefined;
      return (value) => {
        fn ??= (responseAjv ??= createAjv(false, false)).compile(schema);
        return fn(value) ? null : describe('body', fn.errors![0]);
      };
    },
    body(schema) {
      const check = lazily(bodyAjv, schema, (fn) => validator(fn, 'body', HttpErrors.INVALID_BODY, 'request body'));
      return (value) => {
        if (value === undefined) {
          throw new ValidationError(HttpErrors.INVALID_BODY, 'invalid request body: a JSON body is required', 'body');
        }
        check(value);
      };
    },
    query(schema) {
      const asValidated = querySchemaOf(schema);
      return lazily(queryAjv, asValidated, (fn) => validator(fn, 'query', HttpErrors.INVALID_QUERY, 'query'));
    },
  };
}
