import { readMakeTargets } from './make-targets.js';
import { readPackageScripts } from './package-scripts.js';
import type { ProjectScript } from './project-script.js';
import { ProgramMissing } from './run-bounded.js';

export interface FolderScripts {
  scripts: ProjectScript[];
  /** package.json's runner and why; null without a package.json. */
  runner: { name: string; reason: string } | null;
  /** The makefile make reads here, or null. */
  makefile: string | null;
  /** Sentences on what could not be read or was left out (a bad package.json, make missing, names skipped). */
  notes: string[];
}

/** Everything runnable in `folder` (already confined to the roots): package scripts, then make targets. */
export async function detectScripts(folder: string): Promise<FolderScripts> {
  const notes: string[] = [];
  const [pkg, make] = await Promise.all([
    readPackageScripts(folder).catch((err: Error) => { notes.push(err.message); return null; }),
    readMakeTargets(folder).catch((err: Error) => {
      notes.push(err instanceof ProgramMissing ? 'There is a Makefile, but make is not installed: install make to list and run its targets.' : err.message);
      return null;
    }),
  ]);
  if (pkg?.skipped) notes.push(`${pkg.skipped} package script(s) left out: a name npm would read as an option, with spaces, or past 500.`);
  if (make?.skipped) notes.push(`${make.skipped} make target(s) left out: a name make would read as an option or a variable, or past 500.`);
  if (make?.problem) notes.push(`make, reading ${make.makefile}: ${make.problem}`);
  if (make?.cut) notes.push('make printed more than 4 MiB about its makefiles: targets past that are not listed.');
  return {
    scripts: [...(pkg?.scripts ?? []), ...(make?.targets ?? [])],
    runner: pkg ? { name: pkg.runner, reason: pkg.runner_reason } : null,
    makefile: make?.makefile ?? null,
    notes,
  };
}
