import type { CompiledJsonPath } from './compile-json-path.js';
import type { DetectorKind } from './detectors/types.js';
import type { RuleConfig } from './schema.js';

/** What the policy says about one request: the merge of every rule that matches it. Shared and cached: never mutate. */
export interface RouteDecision {
  /** Matching rules, in file order. */
  readonly ruleIndexes: readonly number[];
  /** Their names. */
  readonly matchedRules: readonly string[];
  /** Their `match.path` globs, without repeats, each in the place of the last rule that has it. */
  readonly routes: readonly string[];
  readonly captureRequestBody: boolean;
  readonly captureResponseBody: boolean;
  readonly captureHeaders: boolean;
  /** Lower-case header names. */
  readonly redactHeaders: ReadonlySet<string>;
  /** Lower-case query parameter names (matched case-insensitively). */
  readonly redactQuery: ReadonlySet<string>;
  readonly jsonFields: readonly CompiledJsonPath[];
  /** Detector kinds masked wherever they appear in the record; empty for most routes. */
  readonly detect: ReadonlySet<DetectorKind>;
  /** Header names lower-case. One entry per label name. */
  readonly labels: readonly { name: string; header: string }[];
  /** Fraction of exchanges whose bodies are kept: the last matching rule that sets it wins; default 1. */
  readonly sample: number;
  /** True if any matching rule sets it. */
  readonly keepErrors: boolean;
  /** From the last matching rule that sets one. */
  readonly meterTokens: CompiledJsonPath | null;
}

/** A rule with its expressions compiled once. */
export interface CompiledRuleParts {
  readonly config: RuleConfig;
  readonly jsonFields: readonly CompiledJsonPath[];
  readonly meterTokens: CompiledJsonPath | null;
  readonly labels: readonly { name: string; header: string }[];
}

/**
 * Folds the matching rules, top to bottom:
 * - `restrict` only narrows: a part restricted by any matching rule is not captured, whatever comes later;
 * - redactions (headers, query parameters, JSON fields, detectors) and labels accumulate; a label name set by two rules takes
 *   the later rule's source (one dimension cannot have two values);
 * - `sample` and `meter.tokens` come from the last matching rule that sets them; `keep_errors` is true if any sets it.
 * No matching rule: everything is captured, nothing is redacted, every body is kept.
 */
export function mergeRules(rules: readonly CompiledRuleParts[], indexes: readonly number[]): RouteDecision {
  let captureRequestBody = true;
  let captureResponseBody = true;
  let captureHeaders = true;
  const redactHeaders = new Set<string>();
  const redactQuery = new Set<string>();
  const jsonFields = new Map<string, CompiledJsonPath>();
  const detect = new Set<DetectorKind>();
  const labels = new Map<string, string>();
  let sample = 1;
  let keepErrors = false;
  let meterTokens: CompiledJsonPath | null = null;
  const routes: string[] = [];

  for (const index of indexes) {
    const rule = rules[index];
    const c = rule.config;
    for (const part of c.restrict ?? []) {
      if (part === 'request_body') captureRequestBody = false;
      else if (part === 'response_body') captureResponseBody = false;
      else if (part === 'headers') captureHeaders = false;
    }
    for (const h of c.redact?.headers ?? []) redactHeaders.add(h.toLowerCase());
    for (const q of c.redact?.query_params ?? []) redactQuery.add(q.toLowerCase());
    for (const p of rule.jsonFields) if (!jsonFields.has(p.expression)) jsonFields.set(p.expression, p);
    for (const kind of c.redact?.detect ?? []) detect.add(kind);
    for (const l of rule.labels) {
      labels.delete(l.name); // re-inserted last: the winning source also takes the later position
      labels.set(l.name, l.header);
    }
    if (c.sample !== undefined) sample = c.sample;
    if (c.keep_errors === true) keepErrors = true;
    if (rule.meterTokens) meterTokens = rule.meterTokens;
    // A repeated glob moves to its last rule's place, so the last route is the last matching rule's glob: the
    // `route` of the traffic metrics and the one records are filed under agree.
    const seen = routes.indexOf(c.match.path);
    if (seen >= 0) routes.splice(seen, 1);
    routes.push(c.match.path);
  }

  return Object.freeze({
    ruleIndexes: Object.freeze([...indexes]),
    matchedRules: Object.freeze(indexes.map((i) => rules[i].config.name)),
    routes: Object.freeze(routes),
    captureRequestBody,
    captureResponseBody,
    captureHeaders,
    redactHeaders,
    redactQuery,
    jsonFields: Object.freeze([...jsonFields.values()]),
    detect,
    labels: Object.freeze([...labels].map(([name, header]) => Object.freeze({ name, header }))),
    sample,
    keepErrors,
    meterTokens,
  });
}
