// Which paths are stateful collections: a path with a POST (`/users`) whose sibling item path exists
// (`/users/{id}`). Prism answers each call on its own (stoplightio/prism#2026); here what a POST creates, a GET returns.
import type { JsonSchemaObject } from '../openapi/document.js';
import { mergeAllOf, singular, typeOf } from './generate-value.js';
import type { MockOperation } from './mock-operations.js';
import { itemPath, listPath, schemaAt } from './response-shape.js';
import { templateShape } from './route-table.js';

export type IdKind = 'integer' | 'uuid' | 'string';

export interface Collection {
  /** `/users/{user_id}/orders` */
  template: string;
  /** `/users/{user_id}/orders/{order_id}` */
  itemTemplate: string;
  /** The last literal segment: `orders`. */
  name: string;
  /** One of them, for messages and as the generator's hint: `order`. */
  singular: string;
  /** The item path's own parameter: `order_id`. */
  idParam: string;
  /** The item's property that holds the id (`id`), when the item schema has one. */
  idField?: string;
  idKind: IdKind;
  /** The item as responses describe it (unwrapped from `{ data: … }`). */
  itemSchema: JsonSchemaObject;
  /** The parameters of `template`, which scope its items: orders of user 7 are not orders of user 8. */
  scopeParams: string[];
  /** The collection whose item this one hangs under (`/users` for `/users/{user_id}/orders`). */
  parent?: Collection;
  /** Children, for deleting a user's orders with the user. */
  children: Collection[];
}

const ID_PROPS = (param: string): string[] => [param, 'id', param.replace(/[-_]?id$/i, '') + 'Id', param.replace(/[-_]?id$/i, '') + '_id', 'uuid', 'key'];

function idKindOf(schema: JsonSchemaObject | undefined): IdKind | undefined {
  if (!schema) return undefined;
  const merged = mergeAllOf(schema);
  const type = typeOf(merged);
  if (type === 'integer' || type === 'number') return 'integer';
  if (merged.format === 'uuid') return 'uuid';
  return merged.type || merged.format ? 'string' : undefined;
}

/** The collections of a compiled document, parents before children. */
export function findCollections(operations: MockOperation[]): Collection[] {
  const byTemplate = new Map<string, MockOperation[]>();
  for (const op of operations) byTemplate.set(op.path.template, [...(byTemplate.get(op.path.template) ?? []), op]);
  const found: Collection[] = [];
  for (const [template, ops] of byTemplate) {
    const post = ops.find((o) => o.method === 'POST');
    if (!post || /\}$/.test(template)) continue;
    const itemTemplate = [...byTemplate.keys()].find((t) => t.startsWith(`${template.replace(/\/$/, '')}/{`) && /^\{[^}/]+\}$/.test(t.slice(template.replace(/\/$/, '').length + 1)));
    if (!itemTemplate) continue;
    const itemOps = byTemplate.get(itemTemplate)!;
    const idParam = itemTemplate.slice(itemTemplate.lastIndexOf('{') + 1, -1);
    const name = template.split('/').filter(Boolean).pop() ?? '';
    const get = itemOps.find((o) => o.method === 'GET');
    const responseSchema = get?.success?.schema ?? post.success?.schema;
    let itemSchema: JsonSchemaObject = post.body?.schema ?? {};
    if (responseSchema) {
      // An id-named property of the response decides whether it is the item itself or an envelope around it.
      const guess = ID_PROPS(idParam).find((k) => k in (mergeAllOf(responseSchema).properties ?? {}));
      itemSchema = schemaAt(responseSchema, itemPath(responseSchema, guess)) ?? responseSchema;
    }
    const props = mergeAllOf(itemSchema).properties ?? {};
    const idField = ID_PROPS(idParam).find((k) => k in props);
    const paramSchema = itemOps.flatMap((o) => o.parameters).find((p) => p.in === 'path' && p.name === idParam)?.schema;
    const idKind = idKindOf(idField ? props[idField] : undefined) ?? idKindOf(paramSchema) ?? 'string';
    const scopeParams = template.match(/\{[^}/]+\}/g)?.map((p) => p.slice(1, -1)) ?? [];
    found.push({ template, itemTemplate, name, singular: singular(name) || 'item', idParam, idField, idKind, itemSchema, scopeParams, children: [] });
  }
  // A parent is the collection whose item template has the shape of this template minus its last segment.
  for (const c of found) {
    const prefix = templateShape(c.template.replace(/\/[^/]+\/?$/, ''));
    c.parent = found.find((p) => p !== c && templateShape(p.itemTemplate) === prefix);
    c.parent?.children.push(c);
  }
  const depth = (c: Collection): number => (c.parent ? 1 + depth(c.parent) : 0);
  return found.sort((a, b) => depth(a) - depth(b));
}

/** Whether a list response of this operation can carry the collection's items. */
export const listShape = (op: MockOperation, c: Collection): string[] | null => listPath(op.success?.schema, c.name);
