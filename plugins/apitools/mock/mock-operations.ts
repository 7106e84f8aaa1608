// The document compiled once at start: each operation with its path matcher, its request validators and its
// responses' schemas resolved. A document the mock cannot use fails here, before the port opens, naming the key.
import type { ValidateFunction } from 'ajv/dist/2020.js';
import {
  HTTP_METHODS, type JsonSchemaObject, type MediaTypeObject, type OpenApiDocument, type OperationObject, type ParameterObject,
  type ResponseObject,
} from '../openapi/document.js';
import { createMockAjv } from './mock-ajv.js';
import { keyPath, SchemaResolver, SpecError } from './resolve-schema.js';
import { compileTemplate, type PathTemplate } from './route-table.js';

export type ParamLocation = 'path' | 'query' | 'header';

export interface MockResponse {
  /** The key in `responses`: '201', '4XX', 'default'. */
  key: string;
  /** The status to send: the key's number; 200 for `default` as a success, 500 for a `5XX` range and so on. */
  code: number;
  mediaType?: string;
  json: boolean;
  schema?: JsonSchemaObject;
  example?: unknown;
}

export interface MockParameter {
  name: string;
  in: ParamLocation;
  required: boolean;
  schema: JsonSchemaObject;
}

export interface MockOperation {
  /** `GET /users/{id}`: in logs, in the LLM cache, in the dice's seed. */
  key: string;
  method: string;
  path: PathTemplate;
  summary?: string;
  parameters: MockParameter[];
  /** Per location, one object schema over that location's parameters, with strings coerced to their types. */
  validateParams: Partial<Record<ParamLocation, ValidateFunction>>;
  body?: { required: boolean; json: boolean; mediaTypes: string[]; schema?: JsonSchemaObject; validate?: ValidateFunction };
  responses: MockResponse[];
  /** What a successful call answers: the lowest 2xx declared, else `default`. */
  success?: MockResponse;
}

const isJson = (mediaType: string): boolean => /^application\/(.+\+)?json\b/i.test(mediaType) || mediaType === '*/*';

/** The JSON media type of a content map when there is one, else its first. */
function chooseMedia(content: Record<string, MediaTypeObject> | undefined): [string, MediaTypeObject] | undefined {
  const entries = Object.entries(content ?? {});
  return entries.find(([t]) => /^application\/json\b/i.test(t)) ?? entries.find(([t]) => isJson(t)) ?? entries[0];
}

const statusOf = (key: string): number => (key === 'default' ? 200 : /^[1-5]XX$/i.test(key) ? Number(key[0]) * 100 : Number(key));

/** The response declared for `code`: the exact status, then its range (`4XX`), then `default`. */
export function responseFor(op: MockOperation, code: number): MockResponse | undefined {
  const exact = op.responses.find((r) => r.key === String(code));
  const range = op.responses.find((r) => r.key.toUpperCase() === `${String(code)[0]}XX`);
  const fallback = op.responses.find((r) => r.key === 'default');
  return exact ?? (range ? { ...range, code } : fallback ? { ...fallback, code } : undefined);
}

export interface CompiledDocument {
  operations: MockOperation[];
  /** Resolves more schemas of the same document (collections read them). */
  resolver: SchemaResolver;
  /** Validates a value against a resolved schema, compiled once per schema object. */
  check(schema: JsonSchemaObject, value: unknown): { valid: boolean; errors: ValidateFunction['errors'] };
}

export function compileDocument(doc: OpenApiDocument, file: string): CompiledDocument {
  const resolver = new SchemaResolver(doc, file);
  const ajv = createMockAjv();
  const coercing = createMockAjv({ coerce: true });
  // Keyed by the object, then by its text: merged and fitted schemas are new objects with the same content, and Ajv
  // would keep one compiled copy of each object it is given.
  const byObject = new WeakMap<object, ValidateFunction>();
  const byText = new Map<string, ValidateFunction>();
  const compile = (schema: JsonSchemaObject, at: string, with_ = ajv): ValidateFunction => {
    if (with_ !== ajv) return compileWith(with_, schema, at);
    let fn = byObject.get(schema);
    if (fn) return fn;
    const text = JSON.stringify(schema);
    fn = byText.get(text) ?? compileWith(ajv, schema, at);
    byText.set(text, fn);
    byObject.set(schema, fn);
    return fn;
  };
  const compileWith = (with_: typeof ajv, schema: JsonSchemaObject, at: string): ValidateFunction => {
    try {
      return with_.compile(schema);
    } catch (err) {
      throw new SpecError(`${file}: ${at}: ${(err as Error).message}`);
    }
  };
  const operations: MockOperation[] = [];
  for (const [template, rawItem] of Object.entries(doc.paths)) {
    const item = resolver.object<Record<string, unknown>>(rawItem, keyPath('paths', template));
    const path = compileTemplate(template);
    for (const method of HTTP_METHODS) {
      if (!item[method]) continue;
      const at = keyPath('paths', template, method);
      const op = resolver.object<OperationObject>(item[method], at);
      operations.push(compileOperation(op, (item.parameters as unknown[] | undefined) ?? [], method, template, path, at));
    }
  }
  return {
    operations, resolver,
    check(schema, value) {
      const fn = compile(schema, 'schema');
      return { valid: fn(value) as boolean, errors: fn.errors };
    },
  };

  function compileOperation(op: OperationObject, shared: unknown[], method: string, template: string, path: PathTemplate, at: string): MockOperation {
    // Operation parameters override path-item ones with the same name and location.
    const byKey = new Map<string, MockParameter>();
    for (const [list, where] of [[shared, keyPath('paths', template, 'parameters')], [op.parameters ?? [], `${at}.parameters`]] as const) {
      if (!Array.isArray(list)) throw new SpecError(`${file}: ${where}: expected a list`);
      list.forEach((raw: unknown, i: number) => {
        const p = resolver.object<ParameterObject>(raw, `${where}[${i}]`);
        if (typeof p.name !== 'string' || !['path', 'query', 'header', 'cookie'].includes(p.in)) {
          throw new SpecError(`${file}: ${where}[${i}]: a parameter needs a name and in: path, query, header or cookie`);
        }
        if (p.in === 'cookie') return; // cookies are not checked: browsers send what they hold
        const name = p.in === 'header' ? p.name.toLowerCase() : p.name;
        // OpenAPI: header parameters named Accept, Content-Type or Authorization "SHALL be ignored".
        if (p.in === 'header' && (name === 'accept' || name === 'content-type' || name === 'authorization')) return;
        byKey.set(`${p.in}:${name}`, { name, in: p.in, required: p.in === 'path' || p.required === true, schema: resolver.schema(p.schema ?? {}, `${where}[${i}].schema`, 'request') });
      });
    }
    const parameters = [...byKey.values()];
    for (const name of path.params) {
      if (!byKey.has(`path:${name}`)) parameters.push({ name, in: 'path', required: true, schema: { type: 'string' } });
    }
    const validateParams: MockOperation['validateParams'] = {};
    for (const where of ['path', 'query', 'header'] as const) {
      const list = parameters.filter((p) => p.in === where);
      if (!list.length) continue;
      validateParams[where] = compile({
        type: 'object',
        properties: Object.fromEntries(list.map((p) => [p.name, p.schema])),
        required: list.filter((p) => p.required).map((p) => p.name),
      }, `${at}.parameters`, coercing);
    }
    let body: MockOperation['body'];
    if (op.requestBody) {
      const rb = resolver.object<NonNullable<OperationObject['requestBody']>>(op.requestBody, `${at}.requestBody`);
      const chosen = chooseMedia(rb.content);
      const mediaTypes = Object.keys(rb.content ?? {});
      const json = chosen ? isJson(chosen[0]) : false;
      const schema = chosen?.[1].schema !== undefined && json
        ? resolver.schema(chosen[1].schema, `${at}.requestBody.content[${JSON.stringify(chosen[0])}].schema`, 'request')
        : undefined;
      body = { required: rb.required === true, json, mediaTypes, schema, validate: schema ? compile(schema, `${at}.requestBody`) : undefined };
    }
    const responses: MockResponse[] = [];
    for (const [key, raw] of Object.entries(op.responses ?? {})) {
      if (key !== 'default' && !/^[1-5]([0-9]{2}|XX)$/i.test(key)) throw new SpecError(`${file}: ${at}.responses: "${key}" is not a status code`);
      const where = `${at}.responses[${JSON.stringify(key)}]`;
      const res = resolver.object<ResponseObject>(raw, where);
      const chosen = chooseMedia(res.content);
      const schema = chosen?.[1].schema !== undefined ? resolver.schema(chosen[1].schema, `${where}.content[${JSON.stringify(chosen[0])}].schema`, 'response') : undefined;
      if (schema) compile(schema, where); // an invalid schema fails at start, not on the first request
      responses.push({ key, code: statusOf(key), mediaType: chosen?.[0], json: chosen ? isJson(chosen[0]) : false, schema, example: chosen?.[1].example });
    }
    const successes = responses.filter((r) => r.code >= 200 && r.code < 300 && r.key !== 'default').sort((a, b) => a.code - b.code);
    return {
      key: `${method.toUpperCase()} ${template}`, method: method.toUpperCase(), path, summary: op.summary ?? op.operationId,
      parameters, validateParams, body, responses, success: successes[0] ?? responses.find((r) => r.key === 'default'),
    };
  }
}
