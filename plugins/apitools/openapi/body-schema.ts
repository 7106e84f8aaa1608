// The schema of a JSON body from its field observations: one row per JSON path (`$`, `$.user.email`,
// `$.items[*].id`, `$.scores.*` for the values of an object keyed by ids), folded back into a tree of objects,
// maps and arrays.
import type { FieldObservation, JsonKind } from '../../../gateway/fields/api-fields.js';
import type { JsonSchemaObject } from './document.js';
import { isRequired, valueSchema } from './value-schema.js';

type Step = { key: string } | { items: true } | { values: true };

interface Node {
  field?: FieldObservation;
  properties: Map<string, Node>;
  items?: Node;
  /** The values of an object whose keys are ids, emails, dates (the recorder writes them `.*`, never by key). */
  values?: Node;
}

/**
 * `$.a.b` → [a, b]; `$.items[*].id` → [items, [*], id]; `$.scores.*` → [scores, map values]; `$['odd.key']` and
 * `$["k"]` for keys that are not identifiers (a key that is itself `*` is written `$['*']`). Null when the path is not one the recorder writes (the row is then left out, not guessed at).
 */
export function parseJsonPath(path: string): Step[] | null {
  if (!path.startsWith('$')) return null;
  const steps: Step[] = [];
  let i = 1;
  while (i < path.length) {
    if (path[i] === '.') {
      let j = i + 1;
      while (j < path.length && path[j] !== '.' && path[j] !== '[') j++;
      if (j === i + 1) return null;
      const key = path.slice(i + 1, j);
      steps.push(key === '*' ? { values: true } : { key });
      i = j;
    } else if (path.startsWith('[*]', i)) {
      steps.push({ items: true });
      i += 3;
    } else if (path[i] === '[' && (path[i + 1] === "'" || path[i + 1] === '"')) {
      const quote = path[i + 1];
      let key = '';
      let j = i + 2;
      for (; j < path.length && path[j] !== quote; j++) {
        if (path[j] === '\\' && j + 1 < path.length) j++;
        key += path[j];
      }
      if (path[j + 1] !== ']') return null;
      steps.push({ key });
      i = j + 2;
    } else return null;
  }
  return steps;
}

/** The schema of one body (one route, one side, one status); undefined when no row describes it. */
export function bodySchema(fields: readonly FieldObservation[], minPresence: number): JsonSchemaObject | undefined {
  const root: Node = { properties: new Map() };
  let any = false;
  for (const field of fields) {
    const steps = parseJsonPath(field.name);
    if (steps === null) continue;
    let node = root;
    for (const step of steps) {
      if ('items' in step) node = node.items ??= { properties: new Map() };
      else if ('values' in step) node = node.values ??= { properties: new Map() };
      else {
        let next = node.properties.get(step.key);
        if (next === undefined) node.properties.set(step.key, next = { properties: new Map() });
        node = next;
      }
    }
    node.field = field;
    any = true;
  }
  return any ? nodeSchema(root, minPresence) : undefined;
}

function nodeSchema(node: Node, minPresence: number): JsonSchemaObject {
  // Children imply the container's type even when its own row is missing (a cap reached mid-body).
  const implied: JsonKind[] = [];
  if (node.properties.size > 0 || node.values) implied.push('object');
  if (node.items) implied.push('array');
  const schema = valueSchema(node.field ?? { kinds: {}, formats: {}, redacted: 0 }, minPresence, implied);
  if (node.properties.size > 0) {
    const keys = [...node.properties.keys()].sort();
    const properties: Record<string, JsonSchemaObject> = {};
    const required: string[] = [];
    for (const key of keys) {
      const child = node.properties.get(key)!;
      properties[key] = nodeSchema(child, minPresence);
      if (child.field && isRequired(child.field, minPresence)) required.push(key);
    }
    schema.properties = properties;
    if (required.length > 0) schema.required = required;
  }
  if (node.values) schema.additionalProperties = nodeSchema(node.values, minPresence);
  if (node.items) schema.items = nodeSchema(node.items, minPresence);
  else if (includesType(schema.type, 'array')) schema.items = {};
  return schema;
}

function includesType(type: JsonSchemaObject['type'], kind: string): boolean {
  return Array.isArray(type) ? type.includes(kind) : type === kind;
}
