// The WASM policy modules that rules name (`wasm:`), applied to a batch on the telemetry lane: each module to the
// exchanges its rules match, in rule order, one guest call per module and batch. A module's decision only narrows
// (policies/wasm-narrow.ts); a failed call fails its exchanges closed. Used by the governance worker and by
// `vigil policy test`.
import type { RouteDecision } from '../../policies/merge.js';
import type { RuleConfig } from '../../policies/schema.js';
import {
  applyWasmPolicy, type AppliedPolicy, type JsonBodyDecoder, type PolicyExchange,
} from '../../policies/wasm-apply.js';
import { failClosedDecision, failClosedReason } from '../../policies/wasm-narrow.js';
import type { WasmPolicy } from '../../policies/wasm-policy.js';
import { decodeBody, DEFAULT_MAX_DECODED_BYTES } from './decode-body.js';
import { governForStorage } from './govern.js';
import { maskGuestLabels } from './guest-labels.js';
import type { GovernOptions, RawExchange, StorableRecord } from './types.js';

/** One exchange after its modules: the narrowed (or failed-closed) decision, its labels, and why it failed. */
export interface ModulesOutcome {
  decision: RouteDecision;
  labels: Record<string, string>;
  /** One `dropped_reason` text per failed module, in the order they ran; empty when none failed. */
  failures: string[];
}

/** Why a module could not be called at all (not loadable, queue full, closed): not the guest's doing. */
export const UNAVAILABLE = 'unavailable';

/** Distinct module paths named by `rules`, in the order of the first rule naming each: the order they run in. */
export function modulesInRuleOrder(rules: readonly RuleConfig[]): string[] {
  const out: string[] = [];
  for (const rule of rules) if (rule.wasm !== undefined && !out.includes(rule.wasm)) out.push(rule.wasm);
  return out;
}

/** The modules that apply to a request matched by `ruleIndexes` (in rule order, each once). */
export function modulesFor(rules: readonly RuleConfig[], ruleIndexes: readonly number[]): string[] {
  const out: string[] = [];
  for (const i of ruleIndexes) {
    const module = rules[i]?.wasm;
    if (module !== undefined && !out.includes(module)) out.push(module);
  }
  return out;
}

/**
 * A JSON body decoder for policy views backed by the governance decoder: compressed, charset-declared and
 * header-less bodies are seen as the record will see them. Anything short of a complete JSON value offers no
 * body fields.
 */
export function governedJsonBody(maxDecodedBytes = DEFAULT_MAX_DECODED_BYTES): JsonBodyDecoder {
  return (bytes, headers, truncated) => {
    const body = decodeBody(bytes, headers, truncated, { jsonRequired: true, maxDecodedBytes });
    return body.kind === 'json' ? JSON.parse(body.text) as unknown : undefined;
  };
}

/**
 * Runs `order`'s modules over `items`, each on the items that list it, feeding each module's narrowed decision
 * and labels to the next. `policyFor` may reject (a module that cannot be loaded): its items fail closed, with
 * `unavailable(err)` as the reason text's cause. Never rejects for a guest failure or an unusable module.
 */
export async function applyWasmModules(
  items: readonly { exchange: PolicyExchange; decision: RouteDecision; modules: readonly string[] }[],
  order: readonly string[],
  policyFor: (module: string) => Promise<WasmPolicy>,
  options: { decodeJson?: JsonBodyDecoder; onUnavailable?: (module: string, err: unknown) => void } = {},
): Promise<ModulesOutcome[]> {
  const state: ModulesOutcome[] = items.map(({ exchange, decision }) => ({ decision, labels: exchange.labels, failures: [] }));
  for (const module of order) {
    const at: number[] = [];
    items.forEach((item, i) => { if (item.modules.includes(module)) at.push(i); });
    if (at.length === 0) continue;
    const batch = at.map((i) => ({ exchange: { ...items[i].exchange, labels: state[i].labels }, decision: state[i].decision }));
    let applied: AppliedPolicy[];
    try {
      applied = await applyWasmPolicy(await policyFor(module), batch, { decodeJson: options.decodeJson });
    } catch (err) {
      options.onUnavailable?.(module, err);
      applied = batch.map(({ exchange, decision }) => ({
        decision: failClosedDecision(decision), labels: exchange.labels, failure: failClosedReason(UNAVAILABLE),
      }));
    }
    at.forEach((i, k) => {
      const a = applied[k];
      state[i].decision = a.decision;
      state[i].labels = a.labels;
      if (a.failure !== undefined) state[i].failures.push(a.failure);
    });
  }
  return state;
}

const defaultJsonBody = governedJsonBody();

/**
 * Governs `exchange` as its modules left it: their decision and labels, and, when a module failed, the failure
 * first in `dropped_reason` (the bodies are already gone: the failed-closed decision does not capture them).
 * A label a module added that holds a value the record redacts holds the marker (guest-labels.ts).
 */
export function governNarrowed(exchange: RawExchange, outcome: ModulesOutcome, options: GovernOptions): StorableRecord {
  const narrowed = outcome.labels === exchange.labels ? exchange : { ...exchange, labels: outcome.labels };
  const record = governForStorage(narrowed, outcome.decision, options);
  if (narrowed !== exchange) {
    const decodeJson = options.maxDecodedBytes === undefined ? defaultJsonBody : governedJsonBody(options.maxDecodedBytes);
    record.labels = maskGuestLabels(record.labels, exchange.labels, exchange, outcome.decision, decodeJson);
  }
  if (outcome.failures.length > 0) {
    const failures = outcome.failures.join('; ');
    record.dropped_reason = record.dropped_reason === null ? failures : `${failures}; ${record.dropped_reason}`;
  }
  return record;
}
