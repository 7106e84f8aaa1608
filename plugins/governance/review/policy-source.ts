// Where `vigil review` reads BASE and HEAD: a policy file, or one file at a git revision (`main:config/vigil.yaml`,
// `HEAD~1:vigil.yaml`), read with `git show` (no shell: the revision is one argument, never interpreted).
import { execFile } from 'node:child_process';
import { existsSync } from 'node:fs';
import { resolve } from 'node:path';
import type { CommandIo } from '@vigil/plugin-sdk';
import type { CompiledPolicy } from '../../../policies/compile.js';
import { compileLoadedPolicy, InputProblem } from '../policy-file.js';

/** A policy as the review compares it: compiled, with the name it was given on the command line. */
export interface ReviewPolicy {
  /** As given: `vigil.yaml`, `origin/main:vigil.yaml`. */
  source: string;
  /** `file` or `git`. */
  from: 'file' | 'git';
  policy: CompiledPolicy;
}

// `REV:PATH`: anything before the first colon is the revision (possibly empty: the index), the rest the path.
const REVISION = /^([^:]*):(.+)$/;
// Policy files are small; a bigger blob at the revision is almost surely the wrong path.
const MAX_BLOB_BYTES = 16 * 1024 * 1024;

/** The text of `spec` (`REV:PATH`) from git in `cwd`; an InputProblem says why when git or the revision is missing. */
export function gitShow(spec: string, cwd: string): Promise<string> {
  return new Promise((done, fail) => {
    execFile('git', ['show', spec], { cwd, maxBuffer: MAX_BLOB_BYTES, encoding: 'utf8', windowsHide: true }, (err, stdout, stderr) => {
      if (!err) { done(stdout); return; }
      const code = (err as NodeJS.ErrnoException).code;
      if (code === 'ENOENT') {
        fail(new InputProblem(`${spec}: git is not installed (or not on PATH); it is needed to read a policy at a revision. Give a file path instead`));
        return;
      }
      const why = String(stderr).trim().split('\n')[0] || err.message;
      fail(new InputProblem(`${spec}: cannot read it from git in ${cwd}: ${why}`));
    });
  });
}

/**
 * Loads and compiles BASE or HEAD. An existing file wins over the revision form, so a file whose name holds a colon
 * still reads as a file. Throws an InputProblem or a config error (exit 2 either way).
 */
export async function loadReviewPolicy(spec: string, io: CommandIo): Promise<ReviewPolicy> {
  const file = resolve(io.cwd, spec);
  const revision = REVISION.exec(spec);
  if (existsSync(file) || !revision) return { source: spec, from: 'file', policy: compileLoadedPolicy(io.config.load(file), io) };
  // A leading dash would reach git as an option.
  if (spec.startsWith('-')) throw new InputProblem(`${spec}: a revision cannot start with "-"`);
  const text = await gitShow(spec, io.cwd);
  return { source: spec, from: 'git', policy: compileLoadedPolicy(io.config.loadText(text, spec), io) };
}
