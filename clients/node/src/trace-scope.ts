/**
 * The attributes of `client.withTrace(attributes, fn)`, carried through fn's asynchronous work with AsyncLocalStorage,
 * so that a wrapped openai call picks up its prompt template, user and session without any change to the call itself.
 */
import { AsyncLocalStorage } from 'node:async_hooks';
import type { TraceAttributes } from './normalise-item.js';

/** `inner` over `outer`: scalar fields of the inner scope win, tags add up, metadata merges key by key. */
export function mergeAttributes(outer: TraceAttributes | undefined, inner: TraceAttributes | undefined): TraceAttributes | undefined {
  if (!inner || typeof inner !== 'object') return outer;
  if (!outer) return { ...inner };
  const merged: TraceAttributes = { ...outer, ...inner };
  if (outer.tags || inner.tags) merged.tags = [...(Array.isArray(outer.tags) ? outer.tags : []), ...(Array.isArray(inner.tags) ? inner.tags : [])];
  if (outer.metadata || inner.metadata) merged.metadata = { ...outer.metadata, ...inner.metadata };
  return merged;
}

export class TraceScope {
  private readonly storage = new AsyncLocalStorage<TraceAttributes>();

  current(): TraceAttributes | undefined {
    return this.storage.getStore();
  }

  /** Runs fn with `attributes` added to the enclosing scope's, and returns what fn returns (its errors are its own). */
  run<R>(attributes: TraceAttributes, fn: () => R): R {
    let merged: TraceAttributes | undefined;
    try { merged = mergeAttributes(this.current(), attributes); } catch { merged = this.current(); }
    return merged ? this.storage.run(merged, fn) : fn();
  }
}
