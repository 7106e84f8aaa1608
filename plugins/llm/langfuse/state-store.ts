/**
 * Where the partial state of Langfuse traces and observations lives between batches: events for one observation
 * arrive in several batches and out of order, so each is merged into what is stored (entity-reducer.ts).
 *
 * The spine owns the real store: one per project (keys are unique within a project only), durable, and shared by
 * every process that takes ingest. Concurrent batches touching the same key must be serialised (a per-key lock or
 * a transaction), or the later `put` overwrites the earlier merge. It may drop entities that saw no event for a
 * long time (a day is generous: the SDK flushes within seconds).
 */
import type { LangfuseEntity } from './entity-reducer.js';

export interface LangfuseStateStore {
  get(key: string): Promise<LangfuseEntity | undefined>;
  put(key: string, entity: LangfuseEntity): Promise<void>;
}

/** Store keys: traces and observations are separate id spaces in Langfuse. */
export const traceKey = (id: string): string => `trace:${id}`;
export const observationKey = (id: string): string => `observation:${id}`;

/** For tests and single-process use: a Map, with structured copies so callers cannot alias stored state. */
export class MemoryStateStore implements LangfuseStateStore {
  readonly entities = new Map<string, LangfuseEntity>();
  async get(key: string): Promise<LangfuseEntity | undefined> {
    const e = this.entities.get(key);
    return e && structuredClone(e);
  }
  async put(key: string, entity: LangfuseEntity): Promise<void> {
    this.entities.set(key, structuredClone(entity));
  }
}
