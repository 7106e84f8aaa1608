/**
 * Python `TypedDict` classes from a JSON Schema: what the Python client's `trace_item.py` is generated from, as the
 * UI's types and the Node client's check come from schema-to-ts.ts, so the item's shape is never copied by hand.
 * Covers the subset the trace item uses: objects with `properties`, `required` and `additionalProperties`, `type`
 * (string, integer, number, boolean, array, object), `enum` of strings, `items`, and `{}` (any JSON). A nested object
 * with properties becomes its own class, named by `names` (by property name) or by its path. Bounds (`maxLength`,
 * `minimum`, …) are kept as comments: a TypedDict cannot check them, the server does.
 */
import type { JsonSchema } from '@vigil/plugin-sdk';

type Schema = JsonSchema & {
  properties?: Record<string, Schema>;
  items?: Schema;
  required?: string[];
  enum?: unknown[];
  format?: string;
};

const BOUNDS = ['format', 'minLength', 'maxLength', 'minimum', 'maximum', 'maxItems'] as const;

const pascal = (name: string): string => name.split(/[^A-Za-z0-9]+/).filter(Boolean).map((p) => p[0].toUpperCase() + p.slice(1)).join('');

interface Emitter { classes: string[]; names: Record<string, string> }

function typeOf(schema: Schema | undefined, path: string, property: string, out: Emitter): string {
  if (!schema || Object.keys(schema).length === 0) return 'Any';
  if (schema.enum) return `Literal[${schema.enum.map((v) => JSON.stringify(v)).join(', ')}]`;
  switch (schema.type) {
    case 'string': return 'str';
    case 'integer': return 'int';
    case 'number': return 'float';
    case 'boolean': return 'bool';
    case 'array': return `List[${typeOf(schema.items, path, property, out)}]`;
    case 'object':
      if (!schema.properties) return 'Dict[str, Any]';
      return classOf(out.names[property] ?? `${path}${pascal(property)}`, schema, out);
    default: return 'Any';
  }
}

function bounds(schema: Schema | undefined): string {
  if (!schema) return '';
  const parts = BOUNDS.filter((b) => schema[b] !== undefined).map((b) => `${b} ${String(schema[b])}`);
  const items = schema.type === 'array' ? bounds(schema.items) : '';
  if (items) parts.push(`each: ${items}`);
  return parts.join(', ');
}

function classOf(name: string, schema: Schema, out: Emitter): string {
  const required = new Set(schema.required ?? []);
  const field = (key: string): string => {
    const s = schema.properties![key];
    const type = typeOf(s, name, key, out);
    const note = bounds(s);
    return `    ${key}: ${type}${note ? `  # ${note}` : ''}`;
  };
  const keys = Object.keys(schema.properties!);
  const must = keys.filter((k) => required.has(k));
  const may = keys.filter((k) => !required.has(k));
  const body = (fields: string[]): string => (fields.length ? fields.join('\n') : '    pass');
  if (must.length && may.length) {
    out.classes.push(`class _${name}Required(TypedDict):\n${body(must.map(field))}`);
    out.classes.push(`class ${name}(_${name}Required, total=False):\n${body(may.map(field))}`);
  } else {
    out.classes.push(`class ${name}(TypedDict${must.length ? '' : ', total=False'}):\n${body((must.length ? must : may).map(field))}`);
  }
  return name;
}

/** A Python module declaring `name` (and the classes nested in it) from `schema`, headed by `docstring`. */
export function pythonTypedDictModule(docstring: string, name: string, schema: Schema, names: Record<string, string> = {}): string {
  const out: Emitter = { classes: [], names };
  classOf(name, schema, out);
  return `"""${docstring}"""

from __future__ import annotations

from typing import Any, Dict, List, Literal, TypedDict

__all__ = [${out.classes.filter((c) => !c.startsWith('class _')).map((c) => JSON.stringify(/^class (\w+)/.exec(c)![1])).join(', ')}]


${out.classes.join('\n\n\n')}
`;
}
