// A policy read from a file (or from text, such as a file at a git revision) the way `vigil validate` reads it: the
// `rules` key checked against the schema and compiled, every problem named by file, line and key path.
import { isAbsolute, relative } from 'node:path';
import type { CommandIo, ConfigDocument } from '@vigil/plugin-sdk';
import { compilePolicy, type CompiledPolicy } from '../../policies/compile.js';
import { PolicyError } from '../../policies/errors.js';
import { rulesSchema, serviceSchema, type RuleConfig } from '../../policies/schema.js';
import { parseRecordPath } from './record-path.js';

/** A problem with the files themselves (not a failed expectation or a finding): exit 2, like `vigil validate`. */
export class InputProblem extends Error {}

/** `file` relative to `cwd` when it is inside it, else as it is (a name such as `main:vigil.yaml` stays as given). */
export function display(file: string, cwd: string): string {
  if (!isAbsolute(file)) return file;
  const rel = relative(cwd, file);
  return rel !== '' && !rel.startsWith('..') && !isAbsolute(rel) ? rel : file;
}

/** `file:line:column` of a key path (`rules[2].redact`) in a loaded document, or the file alone when not found. */
export function where(loaded: ConfigDocument, keyPath: string, cwd: string): string {
  const path = parseRecordPath(keyPath);
  const at = path ? loaded.locate(path) : undefined;
  return at ? `${display(loaded.file, cwd)}:${at.line}:${at.column}` : display(loaded.file, cwd);
}

/**
 * The compiled policy of a loaded config document. Only the policy's own keys are read (`rules`, and `service` when
 * present); `vigil validate` checks a full config file's other sections. Throws a config error (`io.config.describe`
 * prints it) for a schema problem, an `InputProblem` for a missing `rules` key or a rule that does not compile.
 */
export function compileLoadedPolicy(loaded: ConfigDocument, io: CommandIo): CompiledPolicy {
  if (loaded.data.rules === undefined) {
    throw new InputProblem(`${display(loaded.file, io.cwd)}: no "rules" key; a policy file lists its rules under "rules:"`);
  }
  loaded.validate(['rules'], rulesSchema, loaded.data.rules);
  if (loaded.data.service !== undefined) loaded.validate(['service'], serviceSchema, loaded.data.service);
  try {
    return compilePolicy({ rules: loaded.data.rules as RuleConfig[] });
  } catch (err) {
    if (err instanceof PolicyError) throw new InputProblem(`${where(loaded, err.where, io.cwd)}: ${err.message}`);
    throw err;
  }
}
