// The mock's memory: items per collection and per scope (the parent ids in the path, by position), in insertion
// order. One process, no persistence: a restart starts from the spec again, like a test fixture. Bounded: at most
// `maxItems` items per collection (across its scopes) and `maxBytes` of items in all (retained-bytes.ts); a write past
// a bound is refused and changes nothing, and a scope that empties is dropped, so nothing outlives its items.
import type { Random } from '@vigil/plugin-sdk';
import type { Collection } from './collections.js';
import { uuid } from './realistic-values.js';
import { retainedBytes } from './retained-bytes.js';

export type Item = Record<string, unknown>;

export interface StoreBounds {
  /** Items one collection holds, across its scopes (all users' orders together). */
  maxItems: number;
  /** Estimated bytes of memory all items of all collections hold together. */
  maxBytes: number;
}

/** 1,000 items a collection and 16 MiB in all: room for any test suite's fixtures, not for a leak. */
export const DEFAULT_STORE_BOUNDS: StoreBounds = { maxItems: 1000, maxBytes: 16 * 1024 * 1024 };

/** Ids compare as the client wrote them, except integers: `/users/007` is user 7. */
export const normalId = (c: Collection, id: string): string => (c.idKind === 'integer' && /^-?\d+$/.test(id) ? String(Number(id)) : id);

interface Stored { item: Item; bytes: number }

/** One scope: the collection and its parent ids, in path order (parameter names may differ between templates). */
const scopeKey = (c: Collection, scope: readonly string[]): string => [c.template, ...scope].join('\u0000');

/**
 * What one item counts against --max-bytes: the item, and the keys it is stored under (its id, and its scope, whose
 * parent ids come from the path and may be long; charged to each item of the scope, an over-count of a few bytes).
 */
export function itemCost(c: Collection, scope: readonly string[], id: string, item: Item): number {
  return retainedBytes(item) + retainedBytes(scopeKey(c, scope)) + retainedBytes(normalId(c, id));
}

export class CollectionStore {
  private readonly scopes = new Map<string, Map<string, Stored>>();
  private readonly counts = new Map<string, number>();
  private readonly sequences = new Map<string, number>();
  private readonly creations = new Map<string, number>();
  private bytes = 0;

  constructor(readonly bounds: StoreBounds = DEFAULT_STORE_BOUNDS) {}

  items(c: Collection, scope: readonly string[]): Item[] {
    return [...(this.scopes.get(scopeKey(c, scope))?.values() ?? [])].map((s) => s.item);
  }

  get(c: Collection, scope: readonly string[], id: string): Item | undefined {
    return this.scopes.get(scopeKey(c, scope))?.get(normalId(c, id))?.item;
  }

  /** Stores the item (new, or in place of the one with its id); or, when that would pass a bound, says why and changes nothing. */
  set(c: Collection, scope: readonly string[], id: string, item: Item): { refused: string } | undefined {
    const key = scopeKey(c, scope);
    const normal = normalId(c, id);
    const old = this.scopes.get(key)?.get(normal);
    const count = this.counts.get(c.template) ?? 0;
    if (!old && count >= this.bounds.maxItems) {
      return { refused: `${c.template} holds ${count} items, as many as one collection may (--max-items ${this.bounds.maxItems})` };
    }
    const bytes = itemCost(c, scope, normal, item);
    const total = this.bytes - (old?.bytes ?? 0) + bytes;
    if (total > this.bounds.maxBytes) {
      return { refused: `the items would hold about ${total} bytes in all, more than --max-bytes ${this.bounds.maxBytes} (this ${c.singular}: ${bytes})` };
    }
    let items = this.scopes.get(key);
    if (!items) this.scopes.set(key, (items = new Map()));
    items.set(normal, { item, bytes });
    this.bytes = total;
    if (!old) this.counts.set(c.template, count + 1);
    return undefined;
  }

  /** Removes the item and, with it, every child collection's items under it (a user's orders go with the user). */
  delete(c: Collection, scope: readonly string[], id: string): boolean {
    const key = scopeKey(c, scope);
    const items = this.scopes.get(key);
    const normal = normalId(c, id);
    const old = items?.get(normal);
    if (!items || !old) return false;
    this.forget(c, items, key, normal, old);
    this.dropChildren(c, [...scope, normal]);
    return true;
  }

  private forget(c: Collection, items: Map<string, Stored>, key: string, id: string, stored: Stored): void {
    items.delete(id);
    if (items.size === 0) this.scopes.delete(key);
    this.bytes -= stored.bytes;
    this.counts.set(c.template, (this.counts.get(c.template) ?? 1) - 1);
  }

  private dropChildren(c: Collection, ids: string[]): void {
    for (const child of c.children) {
      const key = scopeKey(child, ids);
      const items = this.scopes.get(key);
      if (!items) continue;
      for (const [childId, stored] of [...items]) {
        this.forget(child, items, key, childId, stored);
        this.dropChildren(child, [...ids, childId]);
      }
    }
  }

  /** Items and estimated bytes held now: what the bounds are checked against. */
  usage(): { items: number; bytes: number } {
    let items = 0;
    for (const n of this.counts.values()) items += n;
    return { items, bytes: this.bytes };
  }

  /** Every scope's items by collection template, scopes written as their parent ids joined by `/` ('' at the top). */
  dump(): Record<string, Record<string, Item[]>> {
    const out: Record<string, Record<string, Item[]>> = {};
    for (const [key, items] of this.scopes) {
      const [template, ...scope] = key.split('\u0000');
      (out[template] ??= {})[scope.join('/')] = [...items.values()].map((s) => s.item);
    }
    return out;
  }

  /** How many items this collection created so far: numbers each creation's dice, so a replayed session repeats. */
  created(c: Collection): number {
    const n = this.creations.get(c.template) ?? 0;
    this.creations.set(c.template, n + 1);
    return n;
  }

  /** The next id: a sequence per collection (across scopes, as a database would), or a uuid from the dice. */
  nextId(c: Collection, random: Random): string | number {
    if (c.idKind === 'uuid') return uuid(random);
    const n = (this.sequences.get(c.template) ?? 0) + 1;
    this.sequences.set(c.template, n);
    return c.idKind === 'integer' ? n : String(n);
  }

  /** A client-chosen integer id moves the sequence past it, so that the next generated id does not collide. */
  noteId(c: Collection, id: unknown): void {
    if (c.idKind === 'integer' && typeof id === 'number') this.sequences.set(c.template, Math.max(this.sequences.get(c.template) ?? 0, id));
  }
}
