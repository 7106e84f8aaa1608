/** Repeatable dice: the same seed gives the same sequence in every process (the demo's orders, `vigil mock`'s data). */

/** Floats in [0, 1), like Math.random. */
export type Random = () => number;

/** A small seeded generator (mulberry32): fast, 32 bits of state, good enough for made-up data (not for secrets). */
export function seededRandom(seed: number): Random {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/** A 32-bit seed from text (FNV-1a over UTF-16 units): one stable seed per name, such as a route and a seed number. */
export function seedOf(text: string): number {
  let h = 0x811c9dc5;
  for (let i = 0; i < text.length; i++) {
    h ^= text.charCodeAt(i);
    h = Math.imul(h, 0x01000193);
  }
  return h >>> 0;
}
