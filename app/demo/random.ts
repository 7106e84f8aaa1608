/** The demo's dice: weighted choices and latencies shaped like a real service's (most fast, a long tail). */

import type { Random } from '@vigil/plugin-sdk';

export type { Random };

/** One of `items`, each as likely as its weight. */
export function pick<T>(items: readonly T[], weight: (item: T) => number, random: Random = Math.random): T {
  const total = items.reduce((sum, item) => sum + weight(item), 0);
  let roll = random() * total;
  for (const item of items) {
    roll -= weight(item);
    if (roll < 0) return item;
  }
  return items[items.length - 1];
}

/** One of `items`, all equally likely. */
export const any = <T>(items: readonly T[], random: Random = Math.random): T => items[Math.floor(random() * items.length)];

/** An integer from `min` to `max`, both included. */
export const between = (min: number, max: number, random: Random = Math.random): number => min + Math.floor(random() * (max - min + 1));

/** True with probability `p`. */
export const chance = (p: number, random: Random = Math.random): boolean => random() < p;

/**
 * A latency in ms around `median`, log-normally spread (`spread` is sigma: 0.3 keeps most within ±35 %, 0.8 gives a
 * long tail), never below 1 ms.
 */
export function latency(median: number, spread: number, random: Random = Math.random): number {
  // Box-Muller: a standard normal from two uniforms.
  const normal = Math.sqrt(-2 * Math.log(1 - random())) * Math.cos(2 * Math.PI * random());
  return Math.max(1, Math.round(median * Math.exp(spread * normal)));
}

/** A small seeded generator, so that one id always describes the same made-up order. */
export { seededRandom as seeded } from '@vigil/plugin-sdk';
