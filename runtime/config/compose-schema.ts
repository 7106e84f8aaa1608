import type { JsonSchema } from '@vigil/plugin-sdk';
import { configSchemaDialect } from './ajv-instance.js';
import { ConfigSchemaError } from './errors.js';
import { strictSchema } from './strict-schema.js';

/** A top-level section owned by a built-in plugin. */
export interface BuiltinSection {
  key: string;
  schema: JsonSchema;
  description?: string;
}

/**
 * The schema of the whole file (what `vigil schema` prints for editors): the core properties plus one top-level
 * property per built-in plugin key, made strict. Throws ConfigSchemaError when a section's key is taken twice.
 * Local `$ref`s inside a section (`#/$defs/x`) are rewritten to point into that section, where its `$defs` now live.
 */
export function composeSchema(core: JsonSchema, builtinSections: readonly BuiltinSection[]): JsonSchema {
  const properties: Record<string, JsonSchema> = { ...(core.properties ?? {}) };
  for (const section of builtinSections) {
    if (Object.hasOwn(properties, section.key)) {
      const owner = Object.hasOwn(core.properties ?? {}, section.key) ? 'a core key' : 'another built-in plugin\'s key';
      throw new ConfigSchemaError(`config section ${JSON.stringify(section.key)} is ${owner}; each top-level key has one owner`);
    }
    const { $schema: _dialect, $id: _id, ...schema } = rebaseRefs(section.schema, `#/properties/${pointerEscape(section.key)}`) as JsonSchema;
    if (section.description !== undefined) schema.description = section.description;
    properties[section.key] = schema;
  }
  const { $schema: _coreDialect, ...coreRest } = core;
  return strictSchema({
    $schema: configSchemaDialect,
    title: 'Vigil configuration',
    ...coreRest,
    type: 'object',
    properties,
  });
}

const pointerEscape = (key: string): string => key.replace(/~/g, '~0').replace(/\//g, '~1');

function rebaseRefs(node: unknown, base: string): unknown {
  if (Array.isArray(node)) return node.map((n) => rebaseRefs(n, base));
  if (node === null || typeof node !== 'object') return node;
  const out: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(node)) {
    if (key === '$ref' && typeof value === 'string' && (value === '#' || value.startsWith('#/'))) out[key] = base + value.slice(1);
    // Data keywords hold values, not schemas: a "$ref" key inside a default is the user's data.
    else if (key === 'default' || key === 'const' || key === 'enum' || key === 'examples') out[key] = value;
    else out[key] = rebaseRefs(value, base);
  }
  return out;
}
