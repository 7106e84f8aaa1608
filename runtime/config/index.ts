// The config layer: one YAML file, ${ENV} interpolation, strict JSON Schema validation with errors that name the
// file, line, column, key path and the likely intended key.
export { loadConfigFile, loadConfigText } from './load-yaml.js';
export { inlineConfig, type LoadedConfig } from './loaded-config.js';
export { validateSection } from './validate.js';
export { ConfigError, ConfigSchemaError, ConfigErrors, type ConfigProblem, type ConfigProblemCode } from './errors.js';
export { formatConfigError, formatProblem, formatProblems, type FormatOptions } from './format-problem.js';
export { strictSchema } from './strict-schema.js';
export { coreConfigSchema } from './core-schema.js';
export { composeSchema, type BuiltinSection } from './compose-schema.js';
export { configSchemaDialect } from './ajv-instance.js';
export { parseDuration, parseByteSize, tryParseDuration, tryParseByteSize } from './units.js';
export { parseListenAddress, tryParseListenAddress, type ListenAddress } from './listen-address.js';
export { configFormats, type ConfigFormat } from './formats.js';
export { interpolateString, type Env } from './interpolate.js';
export { formatKeyPath, type KeyPath } from './key-path.js';
export { suggestKey } from './suggest-key.js';
export type { Position, LocateTarget } from './locate.js';
