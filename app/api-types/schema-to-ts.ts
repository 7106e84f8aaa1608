/**
 * TypeScript types from the JSON Schemas the routes declare: what the UI's API types and the clients' checks are
 * generated from, so no server shape is copied by hand. Covers the subset the routes use: `type` (one or a list, so
 * `['string', 'null']` is `string | null`), `properties` with `required`, `additionalProperties` (false, a schema, or
 * absent: open), `items`, `enum`, `const`, `anyOf`/`oneOf`, and `$ref` to `#/components/schemas/<Name>`. Anything
 * else is `unknown`: a generated type is never narrower than what the server may send.
 */
import type { JsonSchema } from '@vigil/plugin-sdk';

type Schema = JsonSchema & {
  $ref?: string;
  const?: unknown;
  anyOf?: Schema[];
  oneOf?: Schema[];
  items?: Schema | boolean;
  properties?: Record<string, Schema>;
  additionalProperties?: Schema | boolean;
  description?: string;
};

const IDENTIFIER = /^[A-Za-z_$][\w$]*$/;

/** A property name as a TypeScript key: bare when it is an identifier, quoted otherwise. */
const key = (name: string): string => (IDENTIFIER.test(name) ? name : JSON.stringify(name));

/** A one-line JSDoc for a described property, safe inside a comment. */
const doc = (schema: Schema, indent: string): string => (schema.description
  ? `${indent}/** ${schema.description.replace(/\*\//g, '* /').replace(/\s+/g, ' ').trim()} */\n` : '');

/** The TypeScript type of `schema`, as an expression; nested objects are written inline, indented by `depth`. */
export function typeOf(schema: Schema | boolean | undefined, depth = 0): string {
  if (schema === undefined || schema === true) return 'unknown';
  if (schema === false) return 'never';
  if (schema.$ref !== undefined) {
    const m = /^#\/components\/schemas\/(.+)$/.exec(schema.$ref);
    return m ? m[1] : 'unknown';
  }
  if (schema.const !== undefined) return JSON.stringify(schema.const);
  if (schema.enum) return schema.enum.map((v) => JSON.stringify(v)).join(' | ');
  const variants = schema.anyOf ?? schema.oneOf;
  if (variants) return union(variants.map((v) => typeOf(v, depth)));
  const types = Array.isArray(schema.type) ? schema.type : schema.type === undefined ? [] : [schema.type];
  if (types.length === 0) return schema.properties ? objectType(schema, depth) : 'unknown';
  return union(types.map((t) => {
    switch (t) {
      case 'string': return 'string';
      case 'integer': case 'number': return 'number';
      case 'boolean': return 'boolean';
      case 'null': return 'null';
      case 'array': return arrayType(schema, depth);
      case 'object': return objectType(schema, depth);
      default: return 'unknown';
    }
  }));
}

function union(parts: string[]): string {
  const unique = [...new Set(parts)];
  if (unique.includes('unknown')) return 'unknown';
  return unique.length === 1 ? unique[0] : unique.map((p) => (p.includes('=>') ? `(${p})` : p)).join(' | ');
}

function arrayType(schema: Schema, depth: number): string {
  const item = typeOf(schema.items, depth);
  return /^[\w$.]+(\[\])*$/.test(item) ? `${item}[]` : `Array<${item}>`;
}

function objectType(schema: Schema, depth: number): string {
  const props = Object.entries(schema.properties ?? {});
  const extra = schema.additionalProperties;
  // No `additionalProperties`: the schema allows any other key, and the type says so.
  const rest = extra === false ? null : typeOf(extra === undefined ? true : extra, depth + 1);
  if (props.length === 0) return rest === null ? 'Record<string, never>' : `Record<string, ${rest}>`;
  const required = new Set(schema.required ?? []);
  const indent = '  '.repeat(depth + 1);
  const lines = props.map(([name, prop]) => `${doc(prop, indent)}${indent}${key(name)}${required.has(name) ? '' : '?'}: ${typeOf(prop, depth + 1)};`);
  // Declared keys and others together: an index signature must admit every declared type, so it says `unknown`.
  if (rest !== null) lines.push(`${indent}[key: string]: unknown;`);
  return `{\n${lines.join('\n')}\n${'  '.repeat(depth)}}`;
}

/** `export type Name = …;`, with the schema's description as its JSDoc. */
export function declaration(name: string, schema: Schema): string {
  return `${doc(schema, '')}export type ${name} = ${typeOf(schema)};\n`;
}

/** A generated module: a header saying where it comes from and how to regenerate it, then each declaration. */
export function generatedModule(header: string, schemas: Record<string, Schema>): string {
  const lines = header.split('\n').map((l) => `// ${l}`.trimEnd());
  return `${lines.join('\n')}\n\n${Object.entries(schemas).map(([name, schema]) => declaration(name, schema)).join('\n')}`;
}
