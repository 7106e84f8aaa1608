import type { JsonSchema } from '@vigil/plugin-sdk';

// Keywords whose value is a schema, a list of schemas, or a map of schemas. Data keywords (default, const, enum,
// examples) are never walked: an `{ type: 'object' }` inside a default is data, not a schema.
const oneSchema = ['additionalProperties', 'unevaluatedProperties', 'items', 'additionalItems', 'unevaluatedItems',
  'contains', 'not', 'if', 'then', 'else', 'propertyNames'];
const schemaLists = ['anyOf', 'oneOf', 'allOf', 'prefixItems', 'items'];
const schemaMaps = ['properties', 'patternProperties', '$defs', 'definitions', 'dependentSchemas'];
const compositions = ['anyOf', 'oneOf', 'allOf'];

const isObject = (v: unknown): v is Record<string, unknown> => v !== null && typeof v === 'object' && !Array.isArray(v);

function describesObject(schema: Record<string, unknown>): boolean {
  const type = schema.type;
  return type === 'object' || (Array.isArray(type) && type.includes('object')) || isObject(schema.properties);
}

/**
 * A copy of `schema` in which every object schema (`type: object`, or with `properties`) that does not set
 * `additionalProperties` gets `additionalProperties: false`, at every depth: properties, items, prefixItems,
 * anyOf/oneOf/allOf, not, if/then/else, $defs/definitions, patternProperties, dependentSchemas and
 * additionalProperties schemas. The input is not modified.
 *
 * A schema that sets `unevaluatedProperties` is left as it is, and so are the top levels of its
 * allOf/anyOf/oneOf branches: that is how a schema composed from parts says "the parts together decide", since
 * `additionalProperties: false` on each part would reject the other parts' keys.
 */
export function strictSchema<T extends JsonSchema | boolean>(schema: T): T {
  const copy = structuredClone(schema);
  tighten(copy, false);
  return copy;
}

function tighten(schema: unknown, partOfComposite: boolean): void {
  if (!isObject(schema)) return;
  const composite = schema.unevaluatedProperties !== undefined;
  if (!composite && !partOfComposite && schema.additionalProperties === undefined && describesObject(schema)) {
    schema.additionalProperties = false;
  }
  for (const key of oneSchema) if (isObject(schema[key])) tighten(schema[key], false);
  for (const key of schemaLists) {
    const list = schema[key];
    if (Array.isArray(list)) for (const sub of list) tighten(sub, composite && compositions.includes(key));
  }
  for (const key of schemaMaps) {
    const map = schema[key];
    if (isObject(map)) for (const sub of Object.values(map)) tighten(sub, false);
  }
}
