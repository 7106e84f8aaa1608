// Fitting stored items into what each operation declares it answers: the item itself or wrapped (`{ data: item }`),
// a list as an array or inside an envelope (`{ data: [...], total }`), and error bodies in the spec's error schema.
import type { Random } from '@vigil/plugin-sdk';
import type { JsonSchemaObject } from '../openapi/document.js';
import { generateValue, mergeAllOf, typeOf } from './generate-value.js';
import type { ProblemDetail } from './mock-ajv.js';

type Schema = JsonSchemaObject;
export type Check = (schema: Schema, value: unknown) => boolean;

const ENVELOPE_ITEM = ['data', 'item', 'result', 'record'];
const ENVELOPE_LIST = ['data', 'items', 'results', 'records', 'entries', 'values', 'list'];
const COUNT_KEYS = /^(total|count|total_?count|totalcount|total_?items|totalitems|size)$/i;

const isObject = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);
const propsOf = (schema: Schema): Record<string, Schema> => mergeAllOf(schema).properties ?? {};

/** Where the list sits in a list response: [] for an array, ['data'] for `{ data: [...] }`; null when there is none. */
export function listPath(schema: Schema | undefined, collectionName: string): string[] | null {
  if (!schema) return null;
  const merged = mergeAllOf(schema);
  if (typeOf(merged) === 'array') return [];
  const props = merged.properties ?? {};
  const arrays = Object.keys(props).filter((k) => typeOf(mergeAllOf(props[k])) === 'array');
  const named = [...ENVELOPE_LIST, collectionName].find((k) => arrays.includes(k));
  if (named) return [named];
  return arrays.length === 1 ? arrays : null;
}

/** Where the item sits in an item response: [] when the schema is the item, ['data'] for `{ data: item }`. */
export function itemPath(schema: Schema | undefined, idField: string | undefined): string[] {
  if (!schema) return [];
  const props = propsOf(schema);
  if (idField && idField in props) return [];
  const key = ENVELOPE_ITEM.find((k) => k in props && typeOf(mergeAllOf(props[k])) === 'object');
  return key ? [key] : [];
}

/** The schema at `path` inside `schema` (through properties and array items). */
export function schemaAt(schema: Schema | undefined, path: string[]): Schema | undefined {
  let node = schema;
  for (const key of path) node = node ? propsOf(node)[key] : undefined;
  return node;
}

/** `value` as `schema` describes it: declared properties kept, missing required ones made, wrong types replaced. */
export function conform(value: unknown, input: Schema, random: Random, check: Check, name = ''): unknown {
  const schema = mergeAllOf(input);
  if (value === undefined) return generateValue(schema, random, name);
  const options = (schema.oneOf ?? schema.anyOf) as Schema[] | undefined;
  if (options?.length) {
    const { oneOf: _o, anyOf: _a, ...rest } = schema;
    for (const option of options) {
      const fitted = conform(value, { ...rest, ...mergeAllOf(option), properties: { ...rest.properties, ...mergeAllOf(option).properties } }, random, check, name);
      if (check(input, fitted)) return fitted;
    }
    return generateValue(schema, random, name);
  }
  if (check(schema, value)) return value;
  const type = typeOf(schema);
  if (type === 'object' && isObject(value)) {
    const out: Record<string, unknown> = {};
    const props = schema.properties ?? {};
    for (const [key, prop] of Object.entries(props)) {
      if (key in value) out[key] = conform(value[key], prop, random, check, key);
      else if (schema.required?.includes(key)) out[key] = generateValue(prop, random, key);
    }
    if (schema.additionalProperties !== false) {
      for (const [key, v] of Object.entries(value)) if (!(key in props)) out[key] = v;
    }
    return out;
  }
  if (type === 'array' && Array.isArray(value)) return value.map((v) => conform(v, (schema.items as Schema | undefined) ?? {}, random, check, name));
  return generateValue(schema, random, name);
}

/** Sets `value` at `path` inside `container` (a fresh object per level); the value itself when the path is empty. */
export function placeAt(container: unknown, path: string[], value: unknown): unknown {
  if (!path.length) return value;
  const base = isObject(container) ? { ...container } : {};
  base[path[0]] = placeAt(base[path[0]], path.slice(1), value);
  return base;
}

/** A list response: the envelope made from its schema, the items in place, counts set to how many there are. */
export function listBody(schema: Schema, path: string[], items: unknown[], total: number, random: Random, check: Check, name: string): unknown {
  const itemSchema = (schemaAt(schema, path)?.items as Schema | undefined) ?? {};
  const fitted = items.map((item) => conform(item, itemSchema, random, check, name));
  if (!path.length) return fitted;
  const envelope = generateValue(schema, random) as Record<string, unknown>;
  for (const [key, prop] of Object.entries(propsOf(schema))) {
    if (COUNT_KEYS.test(key) && ['integer', 'number'].includes(typeOf(mergeAllOf(prop))) && key !== path[0]) envelope[key] = total;
  }
  return placeAt(envelope, path, fitted);
}

/** An item response: the item fitted to its place in the response's schema. */
export function itemBody(schema: Schema, path: string[], item: unknown, random: Random, check: Check): unknown {
  const inner = schemaAt(schema, path) ?? {};
  const fitted = conform(item, inner, random, check);
  return path.length ? placeAt(generateValue(schema, random), path, fitted) : fitted;
}

const MESSAGE_KEYS = /^(message|msg|detail|details_message|title|error_description|description|error|reason)$/i;
const STATUS_KEYS = /^(code|status|status_?code|statuscode|http_?status)$/i;
const LIST_KEYS = /^(errors|details|issues|violations|problems|fields|invalid_params|validation_errors)$/i;
const WHERE_KEYS = /^(path|field|pointer|loc|location|name|property|param|parameter|source)$/i;

const slug = (status: number): string => ({ 400: 'bad_request', 404: 'not_found', 405: 'method_not_allowed', 409: 'conflict', 413: 'payload_too_large', 415: 'unsupported_media_type', 422: 'validation_failed', 507: 'insufficient_storage' } as Record<number, string>)[status] ?? `http_${status}`;

/** The fields of an error body that name what went wrong, filled in over a generated one. */
function overlayError(value: unknown, input: Schema, status: number, message: string, details: ProblemDetail[], random: Random, code: string): unknown {
  const schema = mergeAllOf(input);
  if (!isObject(value)) return value;
  const out = { ...value };
  for (const [key, raw] of Object.entries(schema.properties ?? {})) {
    const prop = mergeAllOf(raw);
    const type = typeOf(prop);
    if (prop.enum || prop.const !== undefined) continue;
    if (STATUS_KEYS.test(key) && (type === 'integer' || type === 'number')) out[key] = status;
    else if (STATUS_KEYS.test(key) && type === 'string') out[key] = code;
    else if (type === 'object' && /^error$/i.test(key)) out[key] = overlayError(out[key] ?? generateValue(prop, random), prop, status, message, details, random, code);
    else if (MESSAGE_KEYS.test(key) && type === 'string') out[key] = message;
    else if (LIST_KEYS.test(key) && type === 'array') {
      const items = mergeAllOf((prop.items as Schema | undefined) ?? {});
      out[key] = details.map((d) => {
        if (typeOf(items) === 'string') return `${d.path}: ${d.message}`;
        const entry = generateValue(items, random) as Record<string, unknown>;
        if (!isObject(entry)) return entry;
        for (const [k, p] of Object.entries(items.properties ?? {})) {
          if (typeOf(mergeAllOf(p)) !== 'string' || p.enum) continue;
          if (WHERE_KEYS.test(k)) entry[k] = d.path;
          else if (MESSAGE_KEYS.test(k)) entry[k] = d.message;
        }
        return entry;
      });
    }
  }
  return out;
}

/**
 * An error body in the declared schema when there is one (generated, then its message, status and error list filled
 * in if the result still validates), else `{ error: { status, code, message, details } }`. `code` defaults to the
 * status's slug (`not_found`); the mock's own bounds pass their stable `VIGIL_ERR_…` code.
 */
export function errorBody(
  schema: Schema | undefined, status: number, message: string, details: ProblemDetail[], random: Random, check: Check, code = slug(status),
): unknown {
  if (!schema) return { error: { status, code, message, ...(details.length ? { details } : {}) } };
  const base = generateValue(schema, random);
  const filled = overlayError(base, schema, status, message, details, random, code);
  return check(schema, filled) ? filled : base;
}
