/**
 * Turns whatever the application hands us (messages, tool schemas, metadata) into plain JSON data that
 * `JSON.stringify` cannot throw on: cycles, BigInt, throwing getters and hostile proxies become markers instead of
 * exceptions, because the client never throws into the application's code path.
 */

export interface SafeJsonLimits {
  /** Longer strings keep their first `maxString` characters and end with a `…[truncated N chars]` marker. */
  maxString: number;
  /** Deeper values become a marker; the server refuses very deep JSON. */
  maxDepth: number;
  /** Values copied in all, so that a structure sharing subtrees (a DAG) cannot make the copy exponential. */
  maxNodes: number;
}

export const DEFAULT_LIMITS: SafeJsonLimits = { maxString: 1 << 20, maxDepth: 32, maxNodes: 100_000 };

interface Walk { limits: SafeJsonLimits; path: Set<object>; nodes: number }

/** A copy of `value` made only of JSON types (null, boolean, finite number, string, array, plain object). */
export function toSafeJson(value: unknown, limits: SafeJsonLimits = DEFAULT_LIMITS): unknown {
  return clone(value, { limits, path: new Set(), nodes: 0 }, 0);
}

function truncateString(s: string, max: number): string {
  if (s.length <= max) return s;
  // Never cut a surrogate pair in half: the lone half would be invalid UTF-8 on the wire.
  let end = max;
  const code = s.charCodeAt(end - 1);
  if (code >= 0xd800 && code <= 0xdbff) end--;
  return `${s.slice(0, end)}…[truncated ${s.length - end} chars]`;
}

function clone(value: unknown, walk: Walk, depth: number): unknown {
  const { limits, path } = walk;
  if (++walk.nodes > limits.maxNodes) return '[truncated: too many values]';
  switch (typeof value) {
    case 'string': return truncateString(value, limits.maxString);
    case 'number': return Number.isFinite(value) ? value : null;
    case 'boolean': return value;
    case 'bigint': return value.toString();
    case 'undefined': case 'function': case 'symbol': return undefined;
  }
  if (value === null) return null;
  const obj = value as object;
  if (path.has(obj)) return '[circular]';
  if (depth >= limits.maxDepth) return `[truncated: deeper than ${limits.maxDepth} levels]`;
  try {
    // Binary data is not worth shipping as JSON numbers (an embedding vector, a file): say what it was.
    if (ArrayBuffer.isView(obj)) return `[${obj.constructor?.name ?? 'binary'} ${obj.byteLength} bytes]`;
    if (obj instanceof ArrayBuffer) return `[ArrayBuffer ${obj.byteLength} bytes]`;
    if (obj instanceof Date) return Number.isNaN(obj.getTime()) ? null : obj.toISOString();
    if (obj instanceof Error) return { name: obj.name, message: truncateString(String(obj.message), limits.maxString) };
    path.add(obj);
    try {
      if (Array.isArray(obj)) {
        return obj.map((v) => { const c = clone(v, walk, depth + 1); return c === undefined ? null : c; });
      }
      if (obj instanceof Map) return clone(Object.fromEntries(obj), walk, depth);
      if (obj instanceof Set) return clone([...obj], walk, depth);
      const toJSON = (obj as { toJSON?: unknown }).toJSON;
      if (typeof toJSON === 'function') {
        const replaced: unknown = toJSON.call(obj);
        if (replaced !== obj) return clone(replaced, walk, depth + 1);
      }
      const out: Record<string, unknown> = {};
      for (const key of Object.keys(obj)) {
        let v: unknown;
        try { v = (obj as Record<string, unknown>)[key]; } catch { v = '[unreadable]'; }
        const c = clone(v, walk, depth + 1);
        if (c !== undefined) out[key] = c;
      }
      return out;
    } finally {
      path.delete(obj);
    }
  } catch {
    return '[unreadable]';
  }
}
