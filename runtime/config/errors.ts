import { VigilError } from '@vigil/plugin-sdk';
import { formatProblems } from './format-problem.js';

/** Stable codes of the config layer. `INVALID` is the error's own code; the others name each problem's kind. */
export const ConfigCodes = {
  /** The error as a whole: the file cannot be used. Its `.problems` say why. */
  INVALID: 'VIGIL_ERR_CONFIG_INVALID',
  /** The file cannot be read (missing, a directory, no permission). */
  READ: 'VIGIL_ERR_CONFIG_READ',
  /** YAML syntax error. */
  YAML: 'VIGIL_ERR_CONFIG_YAML',
  /** The same key twice in one mapping. */
  DUPLICATE_KEY: 'VIGIL_ERR_CONFIG_DUPLICATE_KEY',
  /** The file holds no document (empty, or comments only). */
  EMPTY: 'VIGIL_ERR_CONFIG_EMPTY',
  /** `${VAR}` names an unset variable without a default, or a `${…}` is malformed. */
  ENV: 'VIGIL_ERR_CONFIG_ENV',
  /** A key the schema does not allow at that place. */
  UNKNOWN_KEY: 'VIGIL_ERR_CONFIG_UNKNOWN_KEY',
  /** A value of the wrong type (also: the top level is not a mapping). */
  TYPE: 'VIGIL_ERR_CONFIG_TYPE',
  /** A required key is missing. */
  REQUIRED: 'VIGIL_ERR_CONFIG_REQUIRED',
  /** A value outside an enumeration or different from a constant. */
  ENUM: 'VIGIL_ERR_CONFIG_ENUM',
  /** A number, length or count outside its bounds. */
  RANGE: 'VIGIL_ERR_CONFIG_RANGE',
  /** A string that does not have the required format or pattern (durations, sizes, addresses…). */
  FORMAT: 'VIGIL_ERR_CONFIG_FORMAT',
  /** Any other schema violation (uniqueItems, not, ambiguous oneOf…). */
  VALUE: 'VIGIL_ERR_CONFIG_VALUE',
  /** A schema itself is unusable (a plugin author's bug, not a config file problem). */
  SCHEMA: 'VIGIL_ERR_CONFIG_SCHEMA',
} as const;

export type ConfigProblemCode = (typeof ConfigCodes)[keyof typeof ConfigCodes];

/**
 * One thing wrong with a config file. `line` and `column` are 1-based; both are 0 when the problem has no place in
 * the file (it could not be read, or the config did not come from a file).
 */
export interface ConfigProblem {
  code: ConfigProblemCode;
  /** The config file as given to the loader (absolute when it came from `loadConfigFile`). */
  file: string;
  line: number;
  column: number;
  /** `rules[2].redact.json_feilds`: indexes in brackets, dots between keys; '' for the top level. */
  keyPath: string;
  /** A whole sentence that names the key path, e.g. `unknown key rules[2].redact.json_feilds`. */
  message: string;
  /** The likely intended key or value, when one is close to what was written. */
  suggestion?: string;
}

/**
 * A config file that cannot be used. Carries every problem found, not just the first; `.message` is the formatted
 * text, one `file:line:column: message` line per problem.
 */
export class ConfigError extends VigilError {
  readonly problems: ConfigProblem[];
  constructor(problems: ConfigProblem[], options?: { cause?: unknown }) {
    super(ConfigCodes.INVALID, formatProblems(problems), { status: 400, cause: options?.cause });
    this.name = 'ConfigError';
    this.problems = problems;
  }
}

/**
 * A JSON Schema that Ajv cannot compile (an unknown keyword or format, a bad `$ref`). This is a bug in the plugin or
 * core code that owns the schema, never in the user's file, so it is not a ConfigError.
 */
export class ConfigSchemaError extends VigilError {
  constructor(message: string, options?: { cause?: unknown }) {
    super(ConfigCodes.SCHEMA, message, { cause: options?.cause });
    this.name = 'ConfigSchemaError';
  }
}
