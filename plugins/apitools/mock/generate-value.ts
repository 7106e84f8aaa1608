// A value that conforms to a (resolved) JSON Schema: realistic per format and property name, within the schema's
// bounds, and the same for the same dice. Prism's dynamic mode draws from faker at random; here the seed decides.
import type { Random } from '@vigil/plugin-sdk';
import type { JsonSchemaObject } from '../openapi/document.js';
import { stringForPattern } from './pattern-string.js';
import { numberForName, plainString, stringForFormat, stringForName } from './realistic-values.js';

/** Below this depth optional properties are left out and arrays hold one element: recursive types stay finite. */
const DEEP = 4;
/** Past this depth only `null`-able or trivial values are made. */
const DEEPEST = 12;

type Schema = JsonSchemaObject;

const pick = <T>(items: readonly T[], random: Random): T => items[Math.floor(random() * items.length)];
const num = (v: unknown): number | undefined => (typeof v === 'number' && Number.isFinite(v) ? v : undefined);

/** `allOf` folded into one schema: properties and required lists joined, the other keywords of later parts win. */
export function mergeAllOf(schema: Schema): Schema {
  if (!Array.isArray(schema.allOf)) return schema;
  const { allOf, ...rest } = schema;
  let merged: Schema = {};
  for (const part of [...(allOf as Schema[]).map(mergeAllOf), rest]) {
    merged = {
      ...merged, ...part,
      properties: { ...merged.properties, ...part.properties },
      required: [...new Set([...(merged.required ?? []), ...(part.required ?? [])])],
    };
  }
  if (!Object.keys(merged.properties ?? {}).length) delete merged.properties;
  if (!merged.required?.length) delete merged.required;
  return merged;
}

/** The JSON type to make: the first non-null one declared, else the one the keywords imply. */
export function typeOf(schema: Schema): string {
  const declared = Array.isArray(schema.type) ? schema.type.filter((t) => t !== 'null') : schema.type ? [schema.type] : [];
  if (declared.length) return declared[0];
  if (Array.isArray(schema.type)) return 'null'; // only null
  if (schema.properties || schema.additionalProperties !== undefined || schema.required) return 'object';
  if (schema.items || schema.prefixItems) return 'array';
  if (schema.minimum !== undefined || schema.maximum !== undefined) return 'number';
  return 'string';
}

/** One branch of `oneOf`/`anyOf`, joined with the keywords beside it. */
function branch(schema: Schema, random: Random): Schema {
  const options = (schema.oneOf ?? schema.anyOf) as Schema[];
  const { oneOf: _o, anyOf: _a, ...rest } = schema;
  const chosen = mergeAllOf(pick(options, random));
  return { ...rest, ...chosen, properties: { ...rest.properties, ...chosen.properties }, required: [...(rest.required ?? []), ...(chosen.required ?? [])] };
}

function fitLength(s: string, schema: Schema, random: Random): string {
  const min = num(schema.minLength) ?? 0;
  const max = num(schema.maxLength) ?? Infinity;
  let out = s;
  while (out.length < min) out += plainString(random).replace(' ', '');
  return out.length > max ? out.slice(0, max) : out;
}

function makeString(schema: Schema, name: string, random: Random, owner: string): string {
  const format = typeof schema.format === 'string' ? schema.format : undefined;
  const byFormat = format ? stringForFormat(format, random) : undefined;
  let s = byFormat ?? (name ? stringForName(name, random, owner) : undefined) ?? plainString(random);
  if (typeof schema.pattern === 'string') {
    let ok = false;
    try { ok = new RegExp(schema.pattern, 'u').test(s); } catch { /* an invalid pattern: ajv reports it elsewhere */ }
    if (!ok) s = stringForPattern(schema.pattern, random) ?? s;
    return s;
  }
  return byFormat ? s : fitLength(s, schema, random);
}

function makeNumber(schema: Schema, name: string, integer: boolean, random: Random): number {
  const step = num(schema.multipleOf);
  const exMin = num(schema.exclusiveMinimum);
  const exMax = num(schema.exclusiveMaximum);
  const tiny = integer ? 1 : 0.01;
  let min = Math.max(num(schema.minimum) ?? -Infinity, exMin !== undefined ? exMin + tiny : -Infinity);
  let max = Math.min(num(schema.maximum) ?? Infinity, exMax !== undefined ? exMax - tiny : Infinity);
  if (integer) { min = Math.ceil(min); max = Math.floor(max); }
  let value = numberForName(name, integer, random);
  if (value === undefined || value < min || value > max) {
    const lo = Number.isFinite(min) ? min : Number.isFinite(max) ? max - 1000 : 1;
    const hi = Number.isFinite(max) ? max : lo + 1000;
    value = lo + random() * (hi - lo);
    value = integer ? Math.min(hi, Math.max(lo, Math.round(value))) : Math.round(value * 100) / 100;
    if (value < min || value > max) value = lo;
  }
  if (step) {
    let k = Math.round(value / step);
    if (k * step < min) k = Math.ceil(min / step);
    if (k * step > max) k = Math.floor(max / step);
    value = Number((k * step).toPrecision(12));
  }
  return value;
}

/** `tags` → `tag`, `addresses` → `address`, `cities` → `city`: one of a collection or an array, for hints and messages. */
export const singular = (name: string): string => name.replace(/ies$/, 'y').replace(/(ss|x|ch|sh)es$/, '$1').replace(/([^s])s$/, '$1');

function makeArray(schema: Schema, name: string, random: Random, depth: number): unknown[] {
  const min = num(schema.minItems) ?? 0;
  const max = num(schema.maxItems) ?? Infinity;
  const prefix = (schema.prefixItems as Schema[] | undefined) ?? [];
  const wanted = Math.min(max, Math.max(min, prefix.length, depth >= DEEP ? 1 : 1 + Math.floor(random() * 3)));
  const out: unknown[] = [];
  const seen = new Set<string>();
  const itemName = singular(name);
  for (let attempts = 0; out.length < wanted && attempts < wanted * 8; attempts++) {
    const at = out.length;
    const itemSchema = at < prefix.length ? prefix[at] : (schema.items as Schema | undefined) ?? {};
    const value = generateValue(itemSchema, random, itemName, depth + 1);
    if (schema.uniqueItems === true) {
      const key = JSON.stringify(value);
      if (seen.has(key)) continue;
      seen.add(key);
    }
    out.push(value);
  }
  return out;
}

function makeObject(schema: Schema, random: Random, depth: number, self: string): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  const props = schema.properties ?? {};
  const required = new Set(schema.required ?? []);
  for (const [key, prop] of Object.entries(props)) {
    if (!required.has(key) && depth >= DEEP) continue;
    out[key] = generateValue(prop, random, key, depth + 1, self);
  }
  // Required keys that no property describes, and a minProperties the declared ones do not reach.
  const extra = typeof schema.additionalProperties === 'object' ? schema.additionalProperties : {};
  for (const key of required) if (!(key in out)) out[key] = generateValue(extra, random, key, depth + 1);
  const minProps = num(schema.minProperties) ?? 0;
  for (let k = 1; Object.keys(out).length < minProps && schema.additionalProperties !== false; k++) {
    if (!(`key${k}` in out)) out[`key${k}`] = generateValue(extra, random, `key${k}`, depth + 1);
  }
  return out;
}

/**
 * A value for `schema`. `name` is the property (or parameter, or resource) it is for, the hint for realistic strings
 * and numbers; `owner` the name of the object that holds it (a product's `name` is not a person's).
 */
export function generateValue(input: Schema, random: Random, name = '', depth = 0, owner = ''): unknown {
  let schema = mergeAllOf(input);
  if (schema.const !== undefined) return schema.const;
  if (Array.isArray(schema.enum) && schema.enum.length) {
    const nonNull = schema.enum.filter((v) => v !== null);
    return pick(nonNull.length ? nonNull : schema.enum, random);
  }
  if (Array.isArray(schema.examples) && schema.examples.length) return structuredClone(pick(schema.examples, random));
  if (schema.example !== undefined) return structuredClone(schema.example);
  if ((Array.isArray(schema.oneOf) && schema.oneOf.length) || (Array.isArray(schema.anyOf) && schema.anyOf.length)) {
    schema = branch(schema, random);
    return generateValue(schema, random, name, depth, owner);
  }
  const type = typeOf(schema);
  if (depth > DEEPEST && Array.isArray(schema.type) && schema.type.includes('null')) return null;
  switch (type) {
    case 'null': return null;
    case 'boolean': return /^(is|has|can)[_A-Z]|active|enabled|verified|visible/.test(name) ? random() < 0.75 : random() < 0.5;
    case 'integer': return makeNumber(schema, name, true, random);
    case 'number': return makeNumber(schema, name, false, random);
    case 'array': return makeArray(schema, name, random, depth);
    case 'object': return makeObject(schema, random, depth, name);
    default: return makeString(schema, name, random, owner);
  }
}
