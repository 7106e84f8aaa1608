import type { JsonSchema } from '@vigil/plugin-sdk';

/** A `title` that names a shape of the API: it becomes an entry of the listing's `components/schemas`. */
const PASCAL_CASE = /^[A-Z][A-Za-z0-9]*$/;
/** Keywords whose values are data, not schemas: a `title` inside them names nothing. */
const DATA_KEYWORDS = new Set(['enum', 'const', 'default', 'examples', 'example']);

export const isNamed = (node: unknown): node is JsonSchema & { title: string } =>
  typeof node === 'object' && node !== null && !Array.isArray(node) &&
  typeof (node as { title?: unknown }).title === 'string' && PASCAL_CASE.test((node as { title: string }).title);

/**
 * A copy of `schema` in which every named sub-schema (a PascalCase `title`) is replaced by a `$ref` to
 * `#/components/schemas/<title>`; `visit` sees each named schema once per place, already with its own names replaced.
 */
export function referenceNamed(schema: unknown, visit: (title: string, schema: JsonSchema) => void): unknown {
  const walk = (node: unknown): unknown => {
    if (Array.isArray(node)) return node.map(walk);
    if (typeof node !== 'object' || node === null) return node;
    const copy: Record<string, unknown> = {};
    for (const [key, value] of Object.entries(node)) copy[key] = DATA_KEYWORDS.has(key) ? value : walk(value);
    if (!isNamed(copy)) return copy;
    visit(copy.title, copy);
    return { $ref: `#/components/schemas/${copy.title}` };
  };
  return walk(schema);
}

/** Every named shape in `schema`, the schema itself included when it has a name. */
export function namedShapes(schema: unknown): Map<string, JsonSchema> {
  const found = new Map<string, JsonSchema>();
  referenceNamed(schema, (title, named) => { found.set(title, named); });
  return found;
}
