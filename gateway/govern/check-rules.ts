// The checks a `rules` section passes beyond its schema, the same for `vigil run`, `vigil validate` and the Express
// and Koa middleware: compiling finds what the schema cannot (bad globs, duplicate names, reserved labels), and every
// WASM module a rule names must load.
import { ConfigValueError } from '@vigil/plugin-sdk';
import { compilePolicy } from '../../policies/compile.js';
import { PolicyError } from '../../policies/errors.js';
import type { RuleConfig } from '../../policies/schema.js';
import { checkWasmModules } from './wasm-modules.js';

/** Throws a ConfigValueError whose key path starts at the rule's index (the section is the `rules` list itself). */
export function checkRules(rules: RuleConfig[], resolvePath: (path: string) => string): void {
  try {
    compilePolicy({ rules });
  } catch (err) {
    if (err instanceof PolicyError) throw new ConfigValueError(err.where.replace(/^rules(?=\[)/, ''), err.detail);
    throw err;
  }
  checkWasmModules(rules, resolvePath);
}
