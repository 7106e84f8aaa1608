// The governance policy language: schema, the path fold, globs, JSON paths, merge and decide.
export { rulesSchema, serviceSchema, policySchema, DEFAULT_LISTEN } from './schema.js';
export type { RuleConfig, ServiceConfig, PolicyConfig, RestrictPart } from './schema.js';
export { validatePolicy, validateRules, describeSchemaErrors, keyPath } from './validate.js';
export { foldPath, pathReadings, receivedPath } from './fold-path.js';
export { compileGlob } from './compile-glob.js';
export type { PathMatcher } from './compile-glob.js';
export {
  compileJsonPath, redactJsonPath, redactJsonPaths, readJsonPathNumber, REDACTED,
} from './compile-json-path.js';
export type { CompiledJsonPath, JsonPathSegment } from './compile-json-path.js';
export { compilePolicy } from './compile.js';
export type { CompiledPolicy, CompileOptions } from './compile.js';
export type { RouteDecision } from './merge.js';
export { extractLabels } from './extract-labels.js';
export { PolicyError, PolicyErrors } from './errors.js';
