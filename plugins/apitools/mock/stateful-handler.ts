// The stateful half of the mock: POST creates, GET lists and reads, PUT replaces, PATCH merges, DELETE removes, all
// within the scope of the parent ids in the path.
import { ApitoolsErrors } from '../errors.js';
import type { JsonSchemaObject } from '../openapi/document.js';
import { normalId, type Item } from './collection-store.js';
import type { Collection } from './collections.js';
import { generateValue, mergeAllOf, typeOf } from './generate-value.js';
import { diceFor, errorAnswer, validationStatus, type MockAnswer, type MockContext, type MockRequest } from './mock-answer.js';
import type { MockOperation } from './mock-operations.js';
import { itemBody, itemPath, listBody } from './response-shape.js';

/** Which stateful action an operation is, when it is one. */
export type StatefulRoute = { collection: Collection; action: 'create' | 'list' | 'read' | 'replace' | 'merge' | 'remove'; listPath?: string[] };

const isObject = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);
const PAGE_SIZE = /^(limit|per_?page|page_?size|pagesize|perpage|size|count|max_?results)$/i;
const PAGE_OFFSET = /^(offset|skip|start)$/i;
const PAGE_NUMBER = /^(page|page_?number)$/i;

/** `id` as the item's property wants it: a number for an integer property. */
function typed(schema: JsonSchemaObject | undefined, id: string): unknown {
  const type = schema ? typeOf(mergeAllOf(schema)) : 'string';
  return (type === 'integer' || type === 'number') && /^-?\d+(\.\d+)?$/.test(id) ? Number(id) : id;
}

/**
 * Objects merged key by key; anything else replaces. For PATCH, JSON Merge Patch (RFC 7396: null removes a key);
 * for a new item, what the client sent wins, nulls included.
 */
function mergePatch(target: unknown, patch: unknown, nullRemoves = true): unknown {
  if (!isObject(patch)) return patch;
  const out: Record<string, unknown> = isObject(target) ? { ...target } : {};
  for (const [k, v] of Object.entries(patch)) {
    if (v === null && nullRemoves) delete out[k];
    else out[k] = mergePatch(out[k], v, nullRemoves);
  }
  return out;
}

/** 507: the store is at a bound (the reason says which); the state is as it was. */
const storageFull = (ctx: MockContext, op: MockOperation, reason: string): MockAnswer =>
  errorAnswer(ctx, op, 507, `${reason}: delete some, or POST /__vigil/reset`, [], ApitoolsErrors.MOCK_STORAGE_FULL);

export function handleStateful(ctx: MockContext, op: MockOperation, route: StatefulRoute, req: MockRequest): MockAnswer {
  const c = route.collection;
  const values = op.path.params.map((n) => req.params[n]);
  const onItem = route.action !== 'create' && route.action !== 'list';
  const scope = onItem ? values.slice(0, -1) : values;
  const id = onItem ? values[values.length - 1] : '';
  const singular = c.singular;

  const missingParent = missingAncestor(ctx, c, scope);
  if (missingParent) return errorAnswer(ctx, op, 404, missingParent);
  const success = op.success;
  const answer = (item: Item): MockAnswer => ({
    status: success?.code ?? 200,
    mode: 'stateful',
    body: success?.schema && success.json ? itemBody(success.schema, itemPath(success.schema, c.idField), item, diceFor(ctx, op.key, 'fit'), ctx.check) : undefined,
    mediaType: success?.mediaType,
  });
  if (route.action === 'create') {
    const made = createItem(ctx, c, scope, isObject(req.body) ? req.body : {});
    if ('conflict' in made) return errorAnswer(ctx, op, 409, made.conflict);
    if ('refused' in made) return storageFull(ctx, op, made.refused);
    const created = answer(made.item);
    created.headers = { location: `${req.pathname.replace(/\/+$/, '')}/${encodeURIComponent(made.id)}` };
    return created;
  }

  if (route.action === 'list') {
    let items = ctx.store.items(c, scope);
    const declared = new Set(op.parameters.filter((p) => p.in === 'query').map((p) => p.name));
    let size: number | undefined;
    let offset = 0;
    let page: number | undefined;
    for (const [name, value] of Object.entries(req.typedQuery)) {
      if (value === undefined || !declared.has(name)) continue;
      if (PAGE_SIZE.test(name) && typeof value === 'number') size = value;
      else if (PAGE_OFFSET.test(name) && typeof value === 'number') offset = value;
      else if (PAGE_NUMBER.test(name) && typeof value === 'number') page = value;
      // A declared query parameter named like an item property filters by it: `?status=active`.
      else if (items.some((it) => name in it)) items = items.filter((it) => String(it[name]) === String(value));
    }
    const total = items.length;
    if (page !== undefined && size !== undefined) offset = Math.max(0, page - 1) * size;
    items = items.slice(offset, size === undefined ? undefined : offset + size);
    const schema = success?.schema ?? {};
    return {
      status: success?.code ?? 200,
      mode: 'stateful',
      body: listBody(schema, route.listPath ?? [], items, total, diceFor(ctx, op.key, 'fit'), ctx.check, singular),
      mediaType: success?.mediaType,
    };
  }

  const current = ctx.store.get(c, scope, id);
  if (!current) return errorAnswer(ctx, op, 404, `no ${singular} with ${c.idParam} ${id}`);
  if (route.action === 'read') return answer(current);
  if (route.action === 'remove') {
    ctx.store.delete(c, scope, id);
    const gone = answer(current);
    if (!success?.schema || !success.json) delete gone.body;
    return gone;
  }
  let next: Item;
  if (route.action === 'replace') {
    // What the client cannot write (fields its request schema lacks: ids, timestamps) stays; the rest is replaced.
    const writable = new Set(Object.keys(mergeAllOf(op.body?.schema ?? {}).properties ?? {}));
    next = {};
    for (const [k, v] of Object.entries(current)) if (writable.size && !writable.has(k)) next[k] = v;
    Object.assign(next, isObject(req.body) ? req.body : {});
    for (const k of mergeAllOf(c.itemSchema).required ?? []) if (!(k in next) && k in current) next[k] = current[k];
  } else {
    next = mergePatch(current, req.body) as Item;
  }
  next = stamp(c, scope, next, normalId(c, id));
  if (!ctx.check(c.itemSchema, next)) {
    const errors = ctx.explain(c.itemSchema, next, 'body');
    return errorAnswer(ctx, op, validationStatus(op, 422), `the ${singular} would no longer match its schema`, errors);
  }
  const refused = ctx.store.set(c, scope, id, next);
  if (refused) return storageFull(ctx, op, refused.refused);
  return answer(next);
}

/**
 * Parent ids and the item's own id, written into the item where its schema has a property of that name; keys a
 * closed item schema does not allow (a writeOnly password) are not kept.
 */
function stamp(c: Collection, scope: readonly string[], input: Item, itemId: string): Item {
  const schema = mergeAllOf(c.itemSchema);
  const props = schema.properties ?? {};
  const item = schema.additionalProperties === false ? Object.fromEntries(Object.entries(input).filter(([k]) => k in props)) : input;
  c.scopeParams.forEach((name, i) => { if (name in props) item[name] = typed(props[name], scope[i]); });
  if (c.idField) item[c.idField] = typed(props[c.idField], itemId);
  return item;
}

/**
 * A new item in one scope: its schema's generated fields under what the client sent, an id from the client (when
 * free) or the collection's sequence. The same seed and the same order of creations give the same items. Or why not:
 * a taken id (`conflict`), or a store at its bounds (`refused`; the id is used up, as a database sequence's would be).
 */
export function createItem(
  ctx: MockContext, c: Collection, scope: readonly string[], body: Record<string, unknown>,
): { id: string; item: Item } | { conflict: string } | { refused: string } {
  const dice = diceFor(ctx, 'create', c.template, ctx.store.created(c));
  let id: string;
  const chosen = c.idField ? body[c.idField] : undefined;
  if ((typeof chosen === 'string' && chosen) || typeof chosen === 'number') {
    id = normalId(c, String(chosen));
    if (ctx.store.get(c, scope, id)) return { conflict: `a ${c.singular} with ${c.idField} ${id} exists` };
    ctx.store.noteId(c, chosen);
  } else id = String(ctx.store.nextId(c, dice));
  const generated = generateValue(c.itemSchema, dice, c.singular);
  const item = stamp(c, scope, mergePatch(isObject(generated) ? generated : {}, body, false) as Item, id);
  return ctx.store.set(c, scope, id, item) ?? { id, item };
}

/**
 * `count` generated items in every collection, and as many under each of them in its child collections, as far as
 * the store's bounds allow (nested ones multiply: 1,000 users × 1,000 orders stops at --max-items orders).
 */
export function seedItems(ctx: MockContext, collections: readonly Collection[], count: number): void {
  const fill = (c: Collection, scope: readonly string[]): void => {
    for (let i = 0; i < count; i++) {
      const made = createItem(ctx, c, scope, {});
      if ('refused' in made) return;
      if ('conflict' in made) continue;
      for (const child of c.children) fill(child, [...scope, made.id]);
    }
  };
  // Collections under a path parameter that is no collection's id (`/tenants/{tenant}/users`) have no scopes to list.
  for (const c of collections) if (!c.parent && c.scopeParams.length === 0) fill(c, []);
}

/** Why an ancestor of this scope does not exist (`no user with id 9`), or undefined when all do. */
function missingAncestor(ctx: MockContext, c: Collection, scope: readonly string[]): string | undefined {
  const parent = c.parent;
  if (!parent) return undefined;
  const parentScope = scope.slice(0, parent.scopeParams.length);
  const parentId = scope[parent.scopeParams.length];
  if (parentId === undefined) return undefined;
  return missingAncestor(ctx, parent, parentScope)
    ?? (ctx.store.get(parent, parentScope, parentId) ? undefined : `no ${parent.singular} with ${parent.idParam} ${parentId}`);
}
