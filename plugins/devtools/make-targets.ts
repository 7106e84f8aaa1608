import { access } from 'node:fs/promises';
import { join } from 'node:path';
import { MAX_SCRIPTS, runnableName, type ProjectScript } from './project-script.js';
import { runBounded } from './run-bounded.js';

/** The names GNU make looks for, in its order. */
export const MAKEFILE_NAMES = ['GNUmakefile', 'makefile', 'Makefile'] as const;
/** How long make may take to print its database, and the most of it read. */
export const MAKE_DB_TIMEOUT_MS = 5_000;
export const MAKE_DB_MAX_BYTES = 4 * 1024 * 1024;

/** GNU make's special targets (`.PHONY`, `.SUFFIXES`, `.DEFAULT`…): upper case after the dot; never run by name. */
const SPECIAL = /^\.[A-Z_]+$/;
/** A target line of the database: `name:` or `name::`, then prerequisites. */
const TARGET_LINE = /^([^\s#:=%][^:=]*?)(::?)(?:\s|$)/;
/** `target: VAR = value`, a target-specific variable, is printed before its target's own line. */
const TARGET_VARIABLE = /^[^:]+:\s*(?:override\s+|export\s+|private\s+)*[^\s:=]+\s*(?::::|::|:|\+|\?|!)?=/;
const RECIPE_FROM = /^#\s+recipe to execute \(from '(.+)', line (\d+)\):/;
const DEFAULT_GOAL = /^\.DEFAULT_GOAL :?= (.+)$/;

export interface MakeDatabase {
  targets: ProjectScript[];
  skipped: number;
}

/** Characters of make's database read between two turns of the event loop (about 1 ms of parsing). */
const SLICE_CHARS = 32 * 1024;

/**
 * Reads `make -pRrq` output (its "data base") line by line, the way bash-completion reads it: only the "# Files"
 * section; not blocks marked "# Not a target:" (prerequisites, the makefiles themselves), not special targets, not
 * pattern rules, not target-specific variable lines.
 */
class MakeDatabaseReader {
  private defaultGoal: string | null = null;
  private readonly found = new Map<string, ProjectScript>();
  private skipped = 0;
  private inFiles = false;
  private notTarget = false;
  private current: ProjectScript | null = null;
  /** The database's end was read: nothing after it matters. */
  done = false;

  line(line: string): void {
    if (!this.inFiles) {
      const goal = DEFAULT_GOAL.exec(line);
      if (goal) this.defaultGoal = goal[1].trim();
      if (line === '# Files') this.inFiles = true;
      return;
    }
    if (line.startsWith('# Finished Make data base')) { this.done = true; return; }
    if (line === '') { this.notTarget = false; this.current = null; return; }
    if (line === '# Not a target:') { this.notTarget = true; return; }
    const current = this.current;
    if (line.startsWith('#')) {
      if (!current) return;
      if (line.startsWith('#  Phony target')) current.phony = true;
      const from = RECIPE_FROM.exec(line);
      if (from && current.detail === null) current.detail = `${from[1]}:${from[2]}`;
      return;
    }
    if (this.notTarget || current || line.startsWith('\t') || TARGET_VARIABLE.test(line)) return;
    const m = TARGET_LINE.exec(line);
    if (!m) return;
    const name = m[1].trim();
    if (SPECIAL.test(name) || name.includes('%')) return;
    if (!runnableName(name)) { this.skipped++; return; }
    // A double-colon target prints one block per rule: the first names it.
    const known = this.found.get(name);
    if (known) { this.current = known; return; }
    if (this.found.size >= MAX_SCRIPTS) { this.skipped++; return; }
    this.current = { kind: 'make', name, argv: ['make', name], detail: null, phony: false };
    this.found.set(name, this.current);
  }

  /** The targets, the default goal first, then by name. */
  result(): MakeDatabase {
    const targets = [...this.found.values()];
    for (const t of targets) t.default_goal = t.name === this.defaultGoal;
    // Without `.DEFAULT_GOAL`, make's default is the first target of the file, which the database does not say: it
    // is not marked rather than guessed.
    targets.sort((a, b) => Number(b.default_goal) - Number(a.default_goal) || a.name.localeCompare(b.name));
    return { targets, skipped: this.skipped };
  }
}

/** Feeds the lines of text[from, to) (to a line end, or the text's end) to the reader; returns where it stopped. */
function feed(reader: MakeDatabaseReader, text: string, from: number, limit: number): number {
  let at = from;
  while (at < text.length && at < limit && !reader.done) {
    const nl = text.indexOf('\n', at);
    const end = nl === -1 ? text.length : nl;
    reader.line(text.slice(at, end));
    at = end + 1;
  }
  return reader.done ? text.length : at;
}

/** The targets in make's database, in one pass (for a small text: tests, a makefile's few KiB). */
export function parseMakeDatabase(text: string): MakeDatabase {
  const reader = new MakeDatabaseReader();
  feed(reader, text, 0, Infinity);
  return reader.result();
}

/**
 * The same, giving the event loop back every SLICE_CHARS: a 4 MiB database of a generated makefile (tens of thousands
 * of rules) takes around 100 ms to read, which must not be held in one piece.
 */
export async function parseMakeDatabaseSliced(text: string): Promise<MakeDatabase> {
  const reader = new MakeDatabaseReader();
  let at = 0;
  while (at < text.length) {
    at = feed(reader, text, at, at + SLICE_CHARS);
    if (at < text.length) await new Promise((resolve) => setImmediate(resolve));
  }
  return reader.result();
}

/** The makefile make would read in `folder`, or null. */
export async function findMakefile(folder: string): Promise<string | null> {
  for (const name of MAKEFILE_NAMES) {
    if (await access(join(folder, name)).then(() => true, () => false)) return name;
  }
  return null;
}

export interface MakeTargets extends MakeDatabase {
  makefile: string;
  /** make's database passed MAKE_DB_MAX_BYTES and was read only that far. */
  cut: boolean;
  /** What make complained of while reading the makefiles (a missing include), or null; the targets are still listed. */
  problem: string | null;
}

/** make's complaints, without the one the `:` goal always draws. */
function complaints(stderr: string): string | null {
  const lines = stderr.split('\n').map((l) => l.trim()).filter((l) => l && !l.includes("No rule to make target ':'"));
  return lines.length ? lines.slice(-3).join(' ').slice(0, 500) : null;
}

/**
 * Asks make itself for the targets, as shell completions do: `make -pRrq -f <makefile> :` prints the database after
 * reading the makefiles (includes, variables, `$(shell)` calls all evaluated) and runs no recipe of the goal `:`.
 * Under a 5 s timeout and a 4 MiB cap. LC_ALL=C keeps make's database in English, which the parser reads;
 * MAKEFLAGS from Vigil's own environment are dropped so they do not change what make reads.
 */
export async function readMakeTargets(folder: string): Promise<MakeTargets | null> {
  const makefile = await findMakefile(folder);
  if (!makefile) return null;
  const env = { ...process.env };
  delete env.MAKEFLAGS;
  delete env.MFLAGS;
  delete env.MAKELEVEL;
  const r = await runBounded('make', ['-pRrq', '-f', makefile, ':'], { cwd: folder, timeoutMs: MAKE_DB_TIMEOUT_MS, maxBytes: MAKE_DB_MAX_BYTES, env });
  if (r.timedOut) throw new Error(`make took longer than ${MAKE_DB_TIMEOUT_MS / 1000} s to read ${makefile}`);
  const problem = complaints(r.stderr);
  if (!r.stdout.includes('# Files')) throw new Error(`make could not read ${makefile}${problem ? `: ${problem}` : ''}`);
  return { makefile, cut: r.cut, problem, ...(await parseMakeDatabaseSliced(r.stdout)) };
}
