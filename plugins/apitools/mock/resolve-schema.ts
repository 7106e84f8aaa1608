// Schemas as the mock uses them: local `$ref`s inlined, OpenAPI 3.0's dialect turned into JSON Schema 2020-12, and
// the side (request or response) applied to readOnly and writeOnly, so that one validator and one generator serve
// 3.0 and 3.1 documents alike.
import type { JsonSchemaObject, OpenApiDocument } from '../openapi/document.js';

/** A document the mock cannot serve: the message names the file and the key. Exit 2. */
export class SpecError extends Error {}

export type Side = 'request' | 'response';

/** `paths["/users"].get`: where a key is, for messages. */
export function keyPath(...parts: (string | number)[]): string {
  let out = '';
  for (const p of parts) {
    const s = String(p);
    out += /^[A-Za-z_$][\w$-]*$/.test(s) ? `${out ? '.' : ''}${s}` : `[${JSON.stringify(s)}]`;
  }
  return out;
}

const SCHEMA_MAPS = ['properties', 'patternProperties', '$defs', 'dependentSchemas'] as const;
const SCHEMA_LISTS = ['allOf', 'anyOf', 'oneOf', 'prefixItems'] as const;
const SCHEMA_ONES = ['additionalProperties', 'not', 'contains', 'if', 'then', 'else', 'propertyNames', 'unevaluatedProperties', 'unevaluatedItems'] as const;
/** Chains of `$ref` to `$ref` longer than this are a loop. */
const MAX_REF_HOPS = 32;

export class SchemaResolver {
  private readonly openapi30: boolean;

  constructor(private readonly doc: OpenApiDocument, private readonly file: string) {
    this.openapi30 = doc.openapi.startsWith('3.0');
  }

  private fail(at: string, why: string): never {
    throw new SpecError(`${this.file}: ${at}: ${why}`);
  }

  /** The value a local `$ref` points at (`#/components/schemas/User`); a SpecError when it is external or missing. */
  private target(ref: unknown, at: string): unknown {
    if (typeof ref !== 'string') return this.fail(at, '$ref must be a string');
    if (!ref.startsWith('#')) return this.fail(at, `$ref "${ref}" points outside the document; the mock reads one file (bundle the spec first)`);
    let node: unknown = this.doc;
    for (const raw of ref.slice(1).split('/').slice(1)) {
      const key = decodeURIComponent(raw).replace(/~1/g, '/').replace(/~0/g, '~');
      node = typeof node === 'object' && node !== null ? (node as Record<string, unknown>)[key] : undefined;
      if (node === undefined) return this.fail(at, `$ref "${ref}" does not resolve in the document`);
    }
    return node;
  }

  /** A parameter, request body or response object, following `$ref`s to it. */
  object<T>(value: unknown, at: string): T {
    let node = value;
    for (let hops = 0; typeof node === 'object' && node !== null && '$ref' in node; hops++) {
      if (hops > MAX_REF_HOPS) return this.fail(at, 'a loop of $refs');
      node = this.target((node as { $ref: unknown }).$ref, at);
    }
    if (typeof node !== 'object' || node === null || Array.isArray(node)) return this.fail(at, 'expected a mapping');
    return node as T;
  }

  /** The schema with every local `$ref` inlined (a recursive one becomes `{}`: any value), for one side. */
  schema(value: unknown, at: string, side: Side): JsonSchemaObject {
    return this.walk(value, at, side, []);
  }

  private walk(value: unknown, at: string, side: Side, refs: string[]): JsonSchemaObject {
    if (value === true || value === undefined) return {};
    if (value === false) return { not: {} };
    if (typeof value !== 'object' || value === null || Array.isArray(value)) return this.fail(at, 'a schema must be a mapping');
    let node = value as Record<string, unknown>;
    if ('$ref' in node) {
      const ref = node.$ref as string;
      if (refs.includes(ref)) return {}; // a recursive type: the inner level accepts anything
      const { $ref: _ref, ...siblings } = node;
      const resolved = this.walk(this.target(ref, at), `${at} → ${ref}`, side, [...refs, ref]);
      return Object.keys(siblings).length ? { ...resolved, ...this.walk(siblings, at, side, refs) } : resolved;
    }
    node = { ...node };
    for (const key of SCHEMA_MAPS) {
      const map = node[key];
      if (typeof map === 'object' && map !== null) {
        node[key] = Object.fromEntries(Object.entries(map).map(([k, s]) => [k, this.walk(s, `${at}.${key}.${k}`, side, refs)]));
      }
    }
    for (const key of SCHEMA_LISTS) {
      if (Array.isArray(node[key])) node[key] = (node[key] as unknown[]).map((s, i) => this.walk(s, `${at}.${key}[${i}]`, side, refs));
    }
    for (const key of SCHEMA_ONES) {
      if (typeof node[key] === 'object' && node[key] !== null) node[key] = this.walk(node[key], `${at}.${key}`, side, refs);
    }
    if (Array.isArray(node.items)) node.prefixItems = (node.items as unknown[]).map((s, i) => this.walk(s, `${at}.items[${i}]`, side, refs)); // draft 4 tuples
    if (Array.isArray(node.items)) delete node.items;
    else if (node.items !== undefined) node.items = this.walk(node.items, `${at}.items`, side, refs);
    if (this.openapi30) dialect30(node);
    applySide(node, side);
    return node as JsonSchemaObject;
  }
}

/** OpenAPI 3.0's schema dialect in 2020-12 terms: `nullable`, and boolean `exclusiveMinimum`/`exclusiveMaximum`. */
function dialect30(node: Record<string, unknown>): void {
  if (node.nullable === true) {
    if (typeof node.type === 'string') node.type = [node.type, 'null'];
    if (Array.isArray(node.enum) && !node.enum.includes(null)) node.enum = [...node.enum, null];
  }
  delete node.nullable;
  for (const [flag, bound] of [['exclusiveMinimum', 'minimum'], ['exclusiveMaximum', 'maximum']] as const) {
    if (node[flag] === true && typeof node[bound] === 'number') { node[flag] = node[bound]; delete node[bound]; }
    else if (typeof node[flag] === 'boolean') delete node[flag];
  }
}

/**
 * OpenAPI's rule for readOnly and writeOnly: a readOnly property is never sent (so it is not required in a request);
 * a writeOnly one is never returned (so a response neither has it nor requires it).
 */
function applySide(node: Record<string, unknown>, side: Side): void {
  const props = node.properties as Record<string, JsonSchemaObject> | undefined;
  if (!props) return;
  const hidden = Object.keys(props).filter((k) => (side === 'request' ? props[k].readOnly === true : props[k].writeOnly === true));
  if (!hidden.length) return;
  if (Array.isArray(node.required)) node.required = (node.required as string[]).filter((k) => !hidden.includes(k));
  if (side === 'response') node.properties = Object.fromEntries(Object.entries(props).filter(([k]) => !hidden.includes(k)));
}
