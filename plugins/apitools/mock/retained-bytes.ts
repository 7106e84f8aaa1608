// About how much memory a parsed JSON value holds in V8 (64-bit pointers), for the mock's --max-bytes. Its JSON text
// would undercount: `[{},{},…]` is 3 bytes an object as text and some 50 in the heap, so a bound on text lets a client
// hold ten times the bound. Upper-end figures, so the bound holds; a long string costs about its length.

const STRING = 16;
const NUMBER = 16;
const ARRAY = 48;
const OBJECT = 32;
/** A slot for an element or a property's value, plus a property's share of its dictionary entry. */
const SLOT = 8;
const PROPERTY = 24;

/** Bytes of one string: one per character when every character is Latin-1 (V8's one-byte strings), else two. */
function stringBytes(s: string): number {
  return STRING + (/[^\u0000-\u00ff]/.test(s) ? 2 : 1) * s.length;
}

/** Estimated bytes of memory a value from JSON.parse holds: strings by their length, containers by their entries. */
export function retainedBytes(value: unknown): number {
  let total = 0;
  const stack: unknown[] = [value];
  while (stack.length > 0) {
    const v = stack.pop();
    if (typeof v === 'string') total += stringBytes(v);
    else if (typeof v === 'number') total += NUMBER;
    else if (Array.isArray(v)) {
      total += ARRAY + SLOT * v.length;
      for (const e of v) stack.push(e);
    } else if (typeof v === 'object' && v !== null) {
      total += OBJECT;
      for (const [k, e] of Object.entries(v)) {
        total += PROPERTY + stringBytes(k);
        stack.push(e);
      }
    }
    // booleans and null are shared constants: their slot is counted by the container.
  }
  return total;
}
