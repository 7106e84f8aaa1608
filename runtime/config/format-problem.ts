import { isAbsolute, relative } from 'node:path';
import type { ConfigError, ConfigProblem } from './errors.js';

export interface FormatOptions {
  /** File names are shown relative to this directory when they are inside it. Default: process.cwd(). */
  cwd?: string;
}

function displayFile(file: string, cwd: string): string {
  if (!isAbsolute(file)) return file;
  const rel = relative(cwd, file);
  return rel !== '' && !rel.startsWith('..') && !isAbsolute(rel) ? rel : file;
}

/** `vigil.yaml:14:9: unknown key rules[2].redact.json_feilds (did you mean json_fields?)` */
export function formatProblem(problem: ConfigProblem, options: FormatOptions = {}): string {
  const file = displayFile(problem.file, options.cwd ?? process.cwd());
  const where = problem.line > 0 ? `${file}:${problem.line}:${problem.column}` : file;
  const hint = problem.suggestion === undefined ? '' : ` (did you mean ${problem.suggestion}?)`;
  return `${where}: ${problem.message}${hint}`;
}

/** One line per problem, in the order given. */
export function formatProblems(problems: readonly ConfigProblem[], options: FormatOptions = {}): string {
  return problems.map((p) => formatProblem(p, options)).join('\n');
}

/** The text to show a user for a ConfigError (what `vigil validate` prints). */
export function formatConfigError(error: ConfigError, options: FormatOptions = {}): string {
  return formatProblems(error.problems, options);
}
