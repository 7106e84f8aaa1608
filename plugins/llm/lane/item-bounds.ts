/**
 * Size bounds of one trace item, checked in the lane's worker threads before anything else is done with the item.
 * They keep what any single item can cost downstream (redaction, storage, the trace page, an eval's copy of it, the
 * bus) bounded: the main thread only ever handles items within them.
 */
export interface ItemBounds {
  /** Object keys plus array elements, at every level of the item. */
  keys: number;
  /** UTF-8 bytes of every string of the item, object keys included. */
  bytes: number;
}

/** Defaults of `limits.item_keys` and `limits.item_bytes`: a 200,000-token conversation fits in either. */
export const DEFAULT_ITEM_BOUNDS: ItemBounds = { keys: 10_000, bytes: 1024 * 1024 };

export interface BoundsExceeded {
  what: 'keys' | 'bytes';
  /** How far the count got before it stopped: past the limit, not necessarily the item's full size. */
  counted: number;
  limit: number;
}

/**
 * Whether `item` (parsed JSON) passes `bounds`; stops counting as soon as one is passed, so an item of a million
 * keys costs about as much as one at the limit. Iterative: the nesting is bounded elsewhere, but a stack must never
 * be what a tenant's input decides.
 */
export function exceedsBounds(item: unknown, bounds: ItemBounds): BoundsExceeded | null {
  let keys = 0;
  let bytes = 0;
  const stack: unknown[] = [item];
  while (stack.length) {
    const value = stack.pop();
    if (typeof value === 'string') {
      bytes += Buffer.byteLength(value, 'utf8');
      if (bytes > bounds.bytes) return { what: 'bytes', counted: bytes, limit: bounds.bytes };
    } else if (Array.isArray(value)) {
      keys += value.length;
      if (keys > bounds.keys) return { what: 'keys', counted: keys, limit: bounds.keys };
      for (let i = value.length - 1; i >= 0; i--) stack.push(value[i]);
    } else if (value !== null && typeof value === 'object') {
      for (const k in value) {
        if (++keys > bounds.keys) return { what: 'keys', counted: keys, limit: bounds.keys };
        bytes += Buffer.byteLength(k, 'utf8');
        stack.push((value as Record<string, unknown>)[k]);
      }
      if (bytes > bounds.bytes) return { what: 'bytes', counted: bytes, limit: bounds.bytes };
    }
  }
  return null;
}

/** The per-item error message for a bound an item passed. */
export function boundsMessage(over: BoundsExceeded): string {
  return over.what === 'keys'
    ? `the item has more than ${over.limit} keys and array elements (counted ${over.counted} before stopping); raise limits.item_keys or send less`
    : `the item's strings hold more than ${over.limit} bytes (counted ${over.counted} before stopping); raise limits.item_bytes or send less`;
}
