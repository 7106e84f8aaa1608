import type { JsonSchema } from '@vigil/plugin-sdk';
import { compileConfigSchema } from './ajv-instance.js';
import { describeAjvError } from './describe-ajv-error.js';
import { ConfigError, ConfigSchemaError, type ConfigProblem } from './errors.js';
import { formatKeyPath, type KeyPath } from './key-path.js';
import type { LoadedConfig } from './loaded-config.js';
import { reduceAjvErrors } from './reduce-ajv-error-list.js';

/**
 * Validates one section of a loaded config against a JSON Schema, made strict (strictSchema) first.
 * `path` says where `value` sits in the file (`[]` for the whole document, `['plugins', 1, 'with']` for a
 * plugin's section), so problems carry the full key path and the right line and column.
 *
 * Schema defaults are filled into `value` in place. When `value` is undefined (the section is absent) and the schema
 * describes a mapping, a fresh `{}` is validated instead, so its required keys are reported and its defaults apply:
 * use the returned value.
 *
 * Throws ConfigError with every problem found, sorted by position; ConfigSchemaError when the schema itself is bad.
 */
export function validateSection(config: LoadedConfig, path: KeyPath, schema: JsonSchema, value: unknown): unknown {
  let validate;
  try {
    validate = compileConfigSchema(schema);
  } catch (err) {
    if (err instanceof ConfigSchemaError) {
      const where = path.length === 0 ? 'the config' : formatKeyPath(path);
      throw new ConfigSchemaError(`the schema for ${where} is invalid: ${err.message.replace(/^invalid config schema: /, '')}`, { cause: err });
    }
    throw err;
  }
  const subject = value === undefined && describesMapping(schema) ? {} : value;
  if (validate(subject)) return subject;
  const site = { config, basePath: [...path], value: subject };
  const problems = dedupe(reduceAjvErrors(validate.errors ?? []).map((e) => describeAjvError(e, site)));
  problems.sort((a, b) => a.line - b.line || a.column - b.column);
  throw new ConfigError(problems);
}

function describesMapping(schema: JsonSchema): boolean {
  return schema.type === 'object' || (Array.isArray(schema.type) && schema.type.includes('object')) || schema.properties !== undefined;
}

function dedupe(problems: ConfigProblem[]): ConfigProblem[] {
  const seen = new Set<string>();
  return problems.filter((p) => {
    const id = `${p.keyPath}\u0000${p.message}`;
    if (seen.has(id)) return false;
    seen.add(id);
    return true;
  });
}
