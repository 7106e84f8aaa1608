import { dirname, resolve } from 'node:path';
import { ConfigValueError, parseByteSize, type ConfigDocument } from '@vigil/plugin-sdk';
import type { TelemetryPolicy } from '../../gateway/govern/govern-task.js';
import { configFiles } from '../../runtime/cli/config-files.js';
import { formatKeyPath } from '../../runtime/config/index.js';
import type { CompiledPolicy } from '../../policies/compile.js';
import { rulesSchema, type RuleConfig } from '../../policies/schema.js';
import { checkRules as checkRuleSet } from '../../gateway/govern/check-rules.js';
import { gatewayPolicy } from '../../gateway/govern/policy-versions.js';
import { captureConfigSchema } from '../../gateway/records/capture-config.js';
import { MiddlewareError, MiddlewareErrors } from './errors.js';

/** What the middleware takes from a vigil config file. */
export interface MiddlewarePolicy {
  /** Absolute path of the file. */
  readonly file: string;
  /** Decisions, as the gateway's proxy makes them (cached per method and folded path). */
  readonly compiled: CompiledPolicy;
  /** The same rules as capture's governance workers receive them (wasm paths absolute, module digests). */
  readonly telemetry: TelemetryPolicy;
  /** `capture.max_body_bytes`: bytes of each body copied, as the gateway copies them. */
  readonly maxBodyBytes: number;
}

const DEFAULT_MAX_BODY = (captureConfigSchema.properties as Record<string, { default: string }>).max_body_bytes.default;

/**
 * Reads `file` with the runtime's config loader (`${ENV}` interpolation, strict schemas, file:line:column in every
 * problem) and checks the two sections the middleware uses exactly as `vigil run` checks them: `rules` with the
 * governance plugin's schema and checks (globs, JSON paths, labels, WASM modules), `capture` with capture's schema.
 * The other sections are `vigil run`'s, and `vigil validate` checks them. Throws a MiddlewareError (CONFIG) whose
 * message is what `vigil validate` prints.
 */
export function loadMiddlewarePolicy(file: string, env: NodeJS.ProcessEnv = process.env, cwd = process.cwd()): MiddlewarePolicy {
  const files = configFiles(cwd, env);
  try {
    const doc = files.load(file);
    const resolvePath = (p: string) => resolve(dirname(doc.file), p);
    if (doc.data.rules === undefined) {
      throw new MiddlewareError(MiddlewareErrors.CONFIG, `${doc.file}: no "rules" key; the middleware governs with the rules of a vigil config file`);
    }
    doc.validate(['rules'], rulesSchema, doc.data.rules);
    checkRules(doc, doc.data.rules as RuleConfig[], resolvePath);
    const capture = (doc.data.capture ?? {}) as { max_body_bytes?: string | number };
    if (doc.data.capture !== undefined) doc.validate(['capture'], captureConfigSchema, capture);
    const policy = gatewayPolicy(doc.data.rules as RuleConfig[], resolvePath);
    return {
      file: doc.file,
      compiled: policy.compiled,
      telemetry: JSON.parse(policy.workerJson) as TelemetryPolicy,
      maxBodyBytes: parseByteSize(capture.max_body_bytes ?? DEFAULT_MAX_BODY),
    };
  } catch (err) {
    if (err instanceof MiddlewareError) throw err;
    const described = files.describe(err);
    if (described !== undefined) throw new MiddlewareError(MiddlewareErrors.CONFIG, described, { cause: err });
    throw new MiddlewareError(MiddlewareErrors.CONFIG, `${file}: ${(err as Error).message}`, { cause: err });
  }
}

/** The governance plugin's own checks (`vigil validate` runs the same), placed in the file by key path. */
function checkRules(doc: ConfigDocument, rules: RuleConfig[], resolvePath: (p: string) => string): void {
  try {
    checkRuleSet(rules, resolvePath);
  } catch (err) {
    if (!(err instanceof ConfigValueError)) throw err;
    const path = ['rules', ...err.keyPath];
    const at = doc.locate(path);
    const where = at ? `${doc.file}:${at.line}:${at.column}` : doc.file;
    throw new MiddlewareError(MiddlewareErrors.CONFIG, `${where}: ${formatKeyPath(path)}: ${err.message}`, { cause: err });
  }
}
