import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { existsSync, readdirSync, readFileSync, renameSync, statSync, truncateSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { convertInChild, prepareGlove } from '../../../../../plugins/evaluators/embeddings/glove-prepare.js';
import { createEmbedder } from '../../../../../plugins/evaluators/embeddings/index.js';
import { tempDir } from '../../../../support/tmp.js';
import { writeFixturePackage, type Fixture } from './support/word-vectors-fixture.js';

const root = tempDir();
let fx: Fixture;
let n = 0;
const dataDir = (): string => join(root.path, `data-${n++}`);
const binFiles = (dir: string): string[] => (existsSync(join(dir, 'embeddings')) ? readdirSync(join(dir, 'embeddings')) : []);

test.before(() => { fx = writeFixturePackage(root.path, { count: 400, dims: 8 }); });
test.after(() => root.cleanup());

test('first use converts in a child process and reports it; the next use only loads the file (idempotent)', async () => {
  const dir = dataDir();
  const logs: string[] = [];
  const first = await prepareGlove({ dataDir: dir, packageName: fx.dir, limit: 300, log: (m) => logs.push(m) });
  assert.ok(first.ok, JSON.stringify(first));
  if (!first.ok) return;
  assert.ok(first.conversion, 'converted');
  assert.is(first.conversion!.words, 300);
  assert.ok(first.conversion!.peakRssBytes > 10 * 1048576, `child peak RSS ${first.conversion!.peakRssBytes}`);
  assert.is(first.vectors.count, 300);
  assert.match(logs.join('\n'), /converting \S*fixture-vectors-400x8@0\.0\.1 .* once/);
  const before = statSync(first.path);
  const bytes = readFileSync(first.path);

  const second = await prepareGlove({ dataDir: dir, packageName: fx.dir, limit: 300, log: (m) => logs.push(m) });
  assert.ok(second.ok && !second.conversion, 'loaded, not converted');
  assert.is(statSync(first.path).mtimeMs, before.mtimeMs);
  assert.ok(readFileSync(first.path).equals(bytes));
  assert.equal(binFiles(dir), ['fixture-vectors-400x8@0.0.1-300w.v1.bin']);
});

test('concurrent first uses share one conversion', async () => {
  const dir = dataDir();
  const [a, b] = await Promise.all([
    prepareGlove({ dataDir: dir, packageName: fx.dir, limit: 300 }),
    prepareGlove({ dataDir: dir, packageName: fx.dir, limit: 300 }),
  ]);
  assert.ok(a.ok && b.ok);
  if (!a.ok || !b.ok) return;
  assert.ok(a.conversion && b.conversion);
  assert.is(a.conversion, b.conversion, 'one child, one report');
  assert.equal(binFiles(dir), ['fixture-vectors-400x8@0.0.1-300w.v1.bin']);
});

test('a crash mid-write leaves no vectors file; the next use cleans up and converts again', async () => {
  const dir = dataDir();
  const first = await prepareGlove({ dataDir: dir, packageName: fx.dir, limit: 300 });
  assert.ok(first.ok);
  if (!first.ok) return;
  const target = first.path;
  renameSync(target, `${target}.saved`);
  const err = await convertInChild(fx.json, '0.0.1', target, { limit: 300, simulateCrashAfterBytes: 2000 }).then(() => undefined, (e: Error) => e);
  assert.ok(err, 'the killed conversion rejects');
  assert.match(err!.message, /ended \(SIGKILL\) without an answer/);
  assert.not.ok(existsSync(target), 'no final file after the crash');
  const temps = binFiles(dir).filter((f) => f.endsWith('.tmp'));
  assert.is(temps.length, 1, 'the partial temporary file is what the crash left');
  assert.is(statSync(join(dir, 'embeddings', temps[0])).size, 2000);

  const again = await prepareGlove({ dataDir: dir, packageName: fx.dir, limit: 300 });
  assert.ok(again.ok && again.conversion, 'converted again');
  assert.ok(readFileSync(target).equals(readFileSync(`${target}.saved`)), 'the same bytes as an uninterrupted conversion');
  assert.equal(binFiles(dir).filter((f) => f.endsWith('.tmp')), [], 'the stale temporary file is gone');
});

test('a damaged vectors file is converted again, with a log line saying why', async () => {
  const dir = dataDir();
  const first = await prepareGlove({ dataDir: dir, packageName: fx.dir, limit: 300 });
  assert.ok(first.ok);
  if (!first.ok) return;
  truncateSync(first.path, 1000);
  const logs: string[] = [];
  const again = await prepareGlove({ dataDir: dir, packageName: fx.dir, limit: 300, log: (m) => logs.push(m) });
  assert.ok(again.ok && again.conversion);
  assert.match(logs[0], /is unusable \(not a usable word-vector file: checksum mismatch/);
});

test('no package and no converted file: no vectors, with the reason; createEmbedder falls back to lexical and says why', async () => {
  const dir = dataDir();
  const missing = await prepareGlove({ dataDir: dir, packageName: 'wink-embeddings-not-installed' });
  assert.not.ok(missing.ok);
  if (missing.ok) return;
  assert.match(missing.reason, /wink-embeddings-not-installed is not installed \(it is an optional dependency: npm install --include=optional\)/);

  const logs: string[] = [];
  const e = await createEmbedder({ dataDir: dir, vectorsPackage: 'wink-embeddings-not-installed', log: (m) => logs.push(m) });
  assert.is(e.method, 'lexical');
  assert.match(e.reason!, /local word vectors are unavailable: wink-embeddings-not-installed is not installed/);
  assert.match(logs.join('\n'), /using lexical vectors \(character n-grams, not semantic\)/);
  const [r] = await e.embed(['Paris is the capital of France']);
  assert.is(r.method, 'lexical');
  const logged = logs.length;
  assert.is(await createEmbedder({ dataDir: dir, vectorsPackage: 'wink-embeddings-not-installed', log: (m) => logs.push(m) }), e, 'decided once per data directory');
  assert.is(logs.length, logged);
});

test('concurrent createEmbedder calls for one data directory share one conversion and one embedder', async () => {
  const dir = dataDir();
  const [a, b] = await Promise.all([
    createEmbedder({ dataDir: dir, vectorsPackage: fx.dir }),
    createEmbedder({ dataDir: dir, vectorsPackage: fx.dir }),
  ]);
  assert.is(a, b);
  assert.is(a.method, 'glove-sif');
});

test('a package removed after its conversion: the converted file is used', async () => {
  const dir = dataDir();
  const first = await prepareGlove({ dataDir: dir, packageName: fx.dir, limit: 50_000 });
  assert.ok(first.ok);
  const e = await createEmbedder({ dataDir: dir, vectorsPackage: join(root.path, 'fixture-vectors-400x8') });
  assert.is(e.method, 'glove-sif');
  const gone = await prepareGlove({ dataDir: dir, packageName: join(root.path, 'removed', 'fixture-vectors-400x8') });
  assert.ok(gone.ok && !gone.conversion, JSON.stringify(gone.ok ? gone.path : gone.reason));
});

test('a package whose JSON is broken: the conversion fails, the reason says so, nothing is left behind', async () => {
  const dir = dataDir();
  const broken = writeFixturePackage(join(root.path, 'broken'), { count: 10, dims: 2 });
  writeFileSync(broken.json, '{"dimensions":2,"words":["a"],"vectors":{"a":[1,');
  const r = await prepareGlove({ dataDir: dir, packageName: broken.dir });
  assert.not.ok(r.ok);
  if (r.ok) return;
  assert.match(r.reason, /converting \S*fixture-vectors-10x2@0\.0\.1 failed: JSON: the document ends/);
  assert.equal(binFiles(dir), []);
});

test.run();
