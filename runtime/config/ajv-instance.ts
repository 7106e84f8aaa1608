import { Ajv2020, type ValidateFunction } from 'ajv/dist/2020.js';
import type { JsonSchema } from '@vigil/plugin-sdk';
import { ConfigSchemaError } from './errors.js';
import { configFormats } from './formats.js';
import { formatLimitKeywords } from './format-limits.js';
import { strictSchema } from './strict-schema.js';

/** The JSON Schema dialect of config schemas (the composed schema declares it; plugin schemas may omit it). */
export const configSchemaDialect = 'https://json-schema.org/draft/2020-12/schema';

let ajv: Ajv2020 | undefined;
// Keyed by the caller's schema object: a plugin's schema is made strict and compiled once per process.
const compiled = new WeakMap<object, ValidateFunction>();

function instance(): Ajv2020 {
  if (ajv) return ajv;
  ajv = new Ajv2020({
    allErrors: true, // every problem at once, not the first
    verbose: true, // parentSchema on each error: where suggestions come from
    useDefaults: true, // defaults are filled into the config in place
    strict: true, // an unknown keyword or format in a schema is a bug to surface, not to ignore
    strictTypes: false,
    strictTuples: false,
    strictRequired: false,
    allowUnionTypes: true,
  });
  for (const [name, format] of Object.entries(configFormats)) ajv.addFormat(name, { type: 'string', validate: format.validate });
  for (const keyword of formatLimitKeywords(configFormats)) ajv.addKeyword(keyword);
  return ajv;
}

/**
 * Compiles a config schema after making it strict (strictSchema). A schema that names another dialect in `$schema`
 * (draft-07 is common) is compiled as 2020-12, which reads the same keywords the same way except tuple `items`.
 * Throws ConfigSchemaError when the schema is unusable.
 */
export function compileConfigSchema(schema: JsonSchema): ValidateFunction {
  const cached = compiled.get(schema);
  if (cached) return cached;
  const strict = strictSchema(schema);
  if (typeof strict.$schema === 'string' && strict.$schema.replace(/#$/, '') !== configSchemaDialect) delete strict.$schema;
  let validate: ValidateFunction;
  try {
    validate = instance().compile(strict);
  } catch (err) {
    throw new ConfigSchemaError(`invalid config schema: ${(err as Error).message}`, { cause: err });
  }
  compiled.set(schema, validate);
  return validate;
}
