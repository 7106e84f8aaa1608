/**
 * Where the partial state of Langfuse traces and observations lives between batches: events for one observation
 * arrive in several batches and out of order, so each is merged into what is stored (entity-reducer.ts).
 *
 * The spine owns the real store: one per project (keys are unique within a project only), durable, and shared by
 * every process that takes ingest. Concurrent batches touching the same key must be serialised (a per-key lock or
 * a transaction), or the later `put` overwrites the earlier merge. It may drop entities that saw no event for a
 * long time (a day is generous: the SDK flushes within seconds).
 */
import { isUnended, type LangfuseEntity } from './entity-reducer.js';

export interface LangfuseStateStore {
  get(key: string): Promise<LangfuseEntity | undefined>;
  put(key: string, entity: LangfuseEntity): Promise<void>;
  /**
   * Generations created and not stored (`isUnended`) that no event touched since `before` (epoch ms), oldest first:
   * each key with the length of its stored JSON (characters), so a caller can bound what it loads.
   */
  idle(before: number, limit: number): Promise<{ key: string; size: number }[]>;
}

/** Store keys: traces and observations are separate id spaces in Langfuse. */
export const traceKey = (id: string): string => `trace:${id}`;
export const observationKey = (id: string): string => `observation:${id}`;

/** For tests and single-process use: a Map, with structured copies so callers cannot alias stored state. */
export class MemoryStateStore implements LangfuseStateStore {
  readonly entities = new Map<string, LangfuseEntity>();
  private readonly touched = new Map<string, number>();
  constructor(private readonly now: () => number = Date.now) {}
  async get(key: string): Promise<LangfuseEntity | undefined> {
    const e = this.entities.get(key);
    return e && structuredClone(e);
  }
  async put(key: string, entity: LangfuseEntity): Promise<void> {
    this.entities.set(key, structuredClone(entity));
    this.touched.set(key, this.now());
  }
  async idle(before: number, limit: number): Promise<{ key: string; size: number }[]> {
    return [...this.entities].filter(([key, e]) => isUnended(e) && this.touched.get(key)! < before)
      .sort(([a], [b]) => this.touched.get(a)! - this.touched.get(b)!).slice(0, limit)
      .map(([key, e]) => ({ key, size: JSON.stringify(e).length }));
  }
}
