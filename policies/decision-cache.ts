/**
 * A bounded map from (method, path) to a value, for the traffic lane's hot path.
 *
 * Lookups are two `Map.get`s and allocate nothing: methods come from Node's parser as interned strings, so the
 * outer map is tiny and the inner key is a path string (compile.ts keeps one cache by the path as received, one by
 * its folded readings). Paths carry ids, so the number of entries is capped; when full, the oldest entry is evicted
 * (first in, first out: a hit costs nothing extra, unlike LRU).
 */
export class DecisionCache<V> {
  readonly capacity: number;
  private readonly byMethod = new Map<string, Map<string, V>>();
  // Ring of insertion order; entries only ever leave through eviction, so it mirrors the maps exactly.
  private readonly ringMethod: string[];
  private readonly ringPath: string[];
  private head = 0;
  private count = 0;

  constructor(capacity: number) {
    if (!Number.isInteger(capacity) || capacity < 1) throw new RangeError(`cache capacity must be a positive integer, got ${capacity}`);
    this.capacity = capacity;
    this.ringMethod = new Array<string>(capacity);
    this.ringPath = new Array<string>(capacity);
  }

  get size(): number {
    return this.count;
  }

  get(method: string, path: string): V | undefined {
    const byPath = this.byMethod.get(method);
    return byPath === undefined ? undefined : byPath.get(path);
  }

  /** Call only after a miss: the cache never holds the same key twice. */
  set(method: string, path: string, value: V): void {
    if (this.count === this.capacity) {
      const oldMethod = this.ringMethod[this.head];
      const inner = this.byMethod.get(oldMethod);
      if (inner) {
        inner.delete(this.ringPath[this.head]);
        if (inner.size === 0) this.byMethod.delete(oldMethod);
      }
      this.count--;
      this.ringMethod[this.head] = method;
      this.ringPath[this.head] = path;
      this.head = (this.head + 1) % this.capacity;
    } else {
      const slot = (this.head + this.count) % this.capacity;
      this.ringMethod[slot] = method;
      this.ringPath[slot] = path;
    }
    let byPath = this.byMethod.get(method);
    if (byPath === undefined) {
      byPath = new Map();
      this.byMethod.set(method, byPath);
    }
    byPath.set(path, value);
    this.count++;
  }
}
