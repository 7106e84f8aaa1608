import { compileGlob, type PathMatcher } from './compile-glob.js';
import { compileJsonPath, type CompiledJsonPath } from './compile-json-path.js';
import { DecisionCache } from './decision-cache.js';
import { PolicyError, PolicyErrors } from './errors.js';
import { mergeRules, type CompiledRuleParts, type RouteDecision } from './merge.js';
import { pathReadings, receivedPath } from './fold-path.js';
import type { PolicyConfig, RuleConfig } from './schema.js';
import { validateRules } from './validate.js';

export type { RouteDecision } from './merge.js';

export interface CompiledPolicy {
  readonly rules: readonly RuleConfig[];
  /**
   * Hot path of the traffic lane. `target` is the raw request-target (may hold a query). Rules are matched against
   * every reading of its folded path (fold-path.ts); cached per method and path.
   */
  decide(method: string, target: string): RouteDecision;
  /** The merged decision for a set of matching rule indexes (used by workers, which get indexes, not objects). */
  decisionFor(ruleIndexes: readonly number[]): RouteDecision;
  /** Received paths in the decision cache (never above `cacheSize`). */
  readonly cachedRoutes: number;
}

export interface CompileOptions {
  /** Distinct method+path decisions kept, by received path and by folded path each; default 10,000. */
  cacheSize?: number;
}

interface CompiledRule extends CompiledRuleParts {
  readonly matcher: PathMatcher;
  /** Upper-case methods, or null for all. */
  readonly methods: ReadonlySet<string> | null;
}

/**
 * Dimensions every traffic metric has. A rule's labels become further dimensions of the same metrics, so a label may
 * not reuse these names.
 */
export const TRAFFIC_DIMENSIONS = ['route', 'method', 'status_class'] as const;

const DEFAULT_CACHE_SIZE = 10_000;
// Distinct sets of matching rules are few (they are combinations the policy's globs actually produce); the bound
// only guards against a caller passing arbitrary index lists.
const MAX_MEMOISED_SETS = 4_096;

/**
 * Validates and compiles a policy's rules (`service` plays no part in governance and is not read). Throws a
 * `PolicyError` (`VIGIL_ERR_POLICY_*`) naming the rule position on any problem: schema violations, duplicate rule
 * names, bad globs or JSON paths.
 */
export function compilePolicy(config: PolicyConfig, options: CompileOptions = {}): CompiledPolicy {
  const ruleConfigs = config.rules ?? [];
  validateRules(ruleConfigs);
  checkUniqueNames(ruleConfigs);
  const rules = ruleConfigs.map(compileRule);

  const memo = new Map<string, RouteDecision>();
  const decisionFor = (indexes: readonly number[]): RouteDecision => {
    const key = indexes.join(',');
    let d = memo.get(key);
    if (d !== undefined) return d;
    for (const i of indexes) {
      if (!Number.isInteger(i) || i < 0 || i >= rules.length) {
        throw new RangeError(`decisionFor: rule index ${i} is not in this policy (it has ${rules.length} rules)`);
      }
    }
    d = mergeRules(rules, indexes);
    if (memo.size < MAX_MEMOISED_SETS) memo.set(key, d);
    return d;
  };

  // Hits are served by the path as received: no folding, no allocation. A miss folds, and the folded cache gives
  // every spelling of a route the one decision computed for it (and keeps a flood of spellings from costing a
  // rule scan each). Both are keyed per method.
  const byReceived = new DecisionCache<RouteDecision>(options.cacheSize ?? DEFAULT_CACHE_SIZE);
  const byFolded = new DecisionCache<RouteDecision>(options.cacheSize ?? DEFAULT_CACHE_SIZE);
  const resolve = (method: string, readings: readonly string[] | null): RouteDecision => {
    const upper = method.toUpperCase();
    const indexes: number[] = [];
    for (let i = 0; i < rules.length; i++) {
      const r = rules[i];
      if (r.methods !== null && !r.methods.has(upper)) continue;
      // An ambiguous path (no readings) meets every rule: governance only narrows.
      if (readings === null || readings.some((p) => r.matcher.test(p))) indexes.push(i);
    }
    return decisionFor(indexes);
  };

  return {
    rules: Object.freeze([...ruleConfigs]),
    decide(method: string, target: string): RouteDecision {
      // The query never fills the cache: it varies per request and plays no part in matching.
      const path = receivedPath(target);
      const hit = byReceived.get(method, path);
      if (hit !== undefined) return hit;
      const readings = pathReadings(path);
      // Readings are printable ASCII and start with "/": "\n" joins them safely, and "" is the ambiguous path's key.
      const key = readings === null ? '' : readings.length === 1 ? readings[0] : readings.join('\n');
      let decision = byFolded.get(method, key);
      if (decision === undefined) {
        decision = resolve(method, readings);
        byFolded.set(method, key, decision);
      }
      byReceived.set(method, path, decision);
      return decision;
    },
    decisionFor,
    get cachedRoutes() {
      return byReceived.size;
    },
  };
}

function checkUniqueNames(rules: readonly RuleConfig[]): void {
  const seen = new Map<string, number>();
  rules.forEach((rule, i) => {
    const first = seen.get(rule.name);
    if (first !== undefined) {
      throw new PolicyError(PolicyErrors.DUPLICATE_RULE, `rules[${i}].name`,
        `rule name "${rule.name}" is already used by rules[${first}]; rule names must be unique ` +
        `(they identify rules in matched_rules), so rename rules[${first}] or rules[${i}]`);
    }
    seen.set(rule.name, i);
  });
}

function compileRule(config: RuleConfig, i: number): CompiledRule {
  const at = `rules[${i}]`;
  const jsonFields: CompiledJsonPath[] = (config.redact?.json_fields ?? [])
    .map((e, j) => compileJsonPath(e, `${at}.redact.json_fields[${j}]`));
  const meterTokens = config.meter?.tokens === undefined ? null : compileJsonPath(config.meter.tokens, `${at}.meter.tokens`);
  const labels = Object.entries(config.labels ?? {}).map(([name, source]) => {
    const m = /^header:(.+)$/.exec(source);
    if (!m) {
      throw new PolicyError(PolicyErrors.LABEL, `${at}.labels.${name}`,
        `source ${JSON.stringify(source)} is not supported; write "header:<Header-Name>"`);
    }
    if ((TRAFFIC_DIMENSIONS as readonly string[]).includes(name)) {
      throw new PolicyError(PolicyErrors.LABEL, `${at}.labels.${name}`,
        `"${name}" is a built-in dimension of the traffic metrics (${TRAFFIC_DIMENSIONS.join(', ')}); ` +
        `give the label another name, e.g. "${name}_label"`);
    }
    return { name, header: m[1].trim().toLowerCase() };
  });
  return {
    config,
    matcher: compileGlob(config.match.path, `${at}.match.path`),
    methods: config.match.methods ? new Set(config.match.methods.map((m) => m.toUpperCase())) : null,
    jsonFields,
    meterTokens,
    labels,
  };
}
