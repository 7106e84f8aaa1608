import { defineErrorCodes, VigilError, type ErrorCodeOf } from '@vigil/plugin-sdk';
import { formatProblems } from './format-problem.js';

/**
 * Codes of the config layer. `INVALID` is the code of the error as a whole; each of its problems has the code of its
 * kind, and `vigil validate` prints them as `file:line:column: message`, one a line, exit 2.
 */
export const ConfigErrors = defineErrorCodes('CONFIG', {
  INVALID: {
    meaning: 'The config file cannot be used; every problem found is listed, one per line, with its file, line and key path.',
    action: 'Fix each listed problem (`vigil validate -config <file>` checks the file without starting anything); `vigil ' +
      'schema` prints every key, type and default.',
  },
  READ: {
    meaning: 'The config file cannot be read: it does not exist, is a directory, or is not readable by this user.',
    action: 'Check the path given to -config (relative paths start from the working directory) and the file\'s permissions.',
  },
  YAML: {
    meaning: 'The file is not valid YAML (or holds several documents); the line and column point at the syntax error.',
    action: 'Fix the syntax at that place: indentation with spaces, a colon and a space after each key, quotes around values ' +
      'that start with a special character; one document per file.',
  },
  DUPLICATE_KEY: {
    meaning: 'The same key is written twice in one mapping; YAML would silently keep only one of them.',
    action: 'Delete or merge one of the two; the message names the key path and the line of each.',
  },
  EMPTY: {
    meaning: 'The config file holds no document: it is empty or only comments.',
    action: 'Write at least the sections you want enabled; examples/vigil.yaml is a complete starting point.',
  },
  ENV: {
    meaning: 'A `${VAR}` names an environment variable that is not set and has no default, or a `${…}` is malformed.',
    action: 'Set the variable in the environment of `vigil`, or give a default with `${VAR:-value}`; write `$${` for a ' +
      'literal `${`.',
  },
  UNKNOWN_KEY: {
    meaning: 'A key the schema does not allow at that place (often a typo: the message suggests the closest key).',
    action: 'Rename it to the suggested key or delete it; `vigil schema` and the owning README list the keys allowed there.',
  },
  TYPE: {
    meaning: 'A value of the wrong type, e.g. a list where a mapping is expected (also: the top level is not a mapping).',
    action: 'Write the type the message names; quote strings that YAML would read as a number, boolean or null.',
  },
  REQUIRED: {
    meaning: 'A required key is missing.',
    action: 'Add the key the message names at that key path.',
  },
  ENUM: {
    meaning: 'A value that is not one of the allowed values (the message lists them and suggests the closest).',
    action: 'Write one of the listed values.',
  },
  RANGE: {
    meaning: 'A number, length, or count of items or keys outside its bounds.',
    action: 'Write a value inside the bounds the message gives.',
  },
  FORMAT: {
    meaning: 'A string without the required form: a duration (`30s`), a size (`10mb`), an address (`127.0.0.1:9095`), a ' +
      'pattern.',
    action: 'Write it in the form the message shows.',
  },
  VALUE: {
    meaning: 'A value the schema\'s types accept but that still cannot work: repeated items, an ambiguous form, or a ' +
      'plugin\'s own check (two rules with one name, a glob that does not compile, a WASM module that is unusable).',
    action: 'Fix the value at the key path and line given; the message says what is wrong and what to write instead.',
  },
  SCHEMA: {
    meaning: 'A JSON Schema shipped by the runtime or a plugin cannot be compiled: a bug in that code, not in the config file.',
    action: 'Report it to the plugin\'s author (the message names the schema); plugin authors: fix the schema, e.g. an unknown ' +
      'keyword or format, or a broken $ref.',
  },
});

export type ConfigProblemCode = ErrorCodeOf<typeof ConfigErrors>;

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
    super(ConfigErrors.INVALID, formatProblems(problems), { status: 400, cause: options?.cause });
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
    super(ConfigErrors.SCHEMA, message, { cause: options?.cause });
    this.name = 'ConfigSchemaError';
  }
}
