// The mock's memory: items per collection and per scope (the parent ids in the path, by position), in insertion
// order. One process, no persistence: a restart starts from the spec again, like a test fixture.
import type { Random } from '@vigil/plugin-sdk';
import type { Collection } from './collections.js';
import { uuid } from './realistic-values.js';

export type Item = Record<string, unknown>;

/** Ids compare as the client wrote them, except integers: `/users/007` is user 7. */
export const normalId = (c: Collection, id: string): string => (c.idKind === 'integer' && /^-?\d+$/.test(id) ? String(Number(id)) : id);

export class CollectionStore {
  private readonly scopes = new Map<string, Map<string, Item>>();
  private readonly sequences = new Map<string, number>();
  private readonly creations = new Map<string, number>();

  /** One scope: the collection and its parent ids, in path order (parameter names may differ between templates). */
  private static key(c: Collection, scope: readonly string[]): string {
    return [c.template, ...scope].join('\u0000');
  }

  items(c: Collection, scope: readonly string[]): Item[] {
    return [...(this.scopes.get(CollectionStore.key(c, scope))?.values() ?? [])];
  }

  get(c: Collection, scope: readonly string[], id: string): Item | undefined {
    return this.scopes.get(CollectionStore.key(c, scope))?.get(normalId(c, id));
  }

  set(c: Collection, scope: readonly string[], id: string, item: Item): void {
    const key = CollectionStore.key(c, scope);
    let items = this.scopes.get(key);
    if (!items) this.scopes.set(key, (items = new Map()));
    items.set(normalId(c, id), item);
  }

  /** Removes the item and, with it, every child collection's items under it (a user's orders go with the user). */
  delete(c: Collection, scope: readonly string[], id: string): boolean {
    const removed = this.scopes.get(CollectionStore.key(c, scope))?.delete(normalId(c, id)) ?? false;
    if (removed) this.dropChildren(c, [...scope, normalId(c, id)]);
    return removed;
  }

  private dropChildren(c: Collection, ids: string[]): void {
    for (const child of c.children) {
      const key = CollectionStore.key(child, ids);
      for (const childId of this.scopes.get(key)?.keys() ?? []) this.dropChildren(child, [...ids, childId]);
      this.scopes.delete(key);
    }
  }

  /** Every scope's items by collection template, scopes written as their parent ids joined by `/` ('' at the top). */
  dump(): Record<string, Record<string, Item[]>> {
    const out: Record<string, Record<string, Item[]>> = {};
    for (const [key, items] of this.scopes) {
      const [template, ...scope] = key.split('\u0000');
      (out[template] ??= {})[scope.join('/')] = [...items.values()];
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
