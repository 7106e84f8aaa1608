// piscina task module: governs a batch of raw exchanges into records, off the main thread. Rules that name a WASM
// policy module (`wasm:`) have it applied here, on the telemetry lane, one guest call per module and batch.
import { compilePolicy, type CompiledPolicy, type RouteDecision } from '../../policies/compile.js';
import type { PolicyConfig } from '../../policies/schema.js';
import { GovernanceError, GovernanceErrors } from './errors.js';
import { FieldRecorder } from '../fields/field-recorder.js';
import { FieldSampling } from '../fields/field-sampling.js';
import { governForStorage } from './govern.js';
import { pathOfRecord, regovernRecord } from './regovern-record.js';
import type { GovernResult, GovernTask, RawExchange, RegovernResult, RegovernTask, StorableRecord } from './types.js';
import { WasmPolicyCache } from './wasm-policy-cache.js';
import {
  applyWasmModules, governedJsonBody, governNarrowed, modulesFor, modulesInRuleOrder, UNAVAILABLE,
} from './wasm-rule-modules.js';

// Each task arrives as a structured clone, so identity never repeats across tasks; the serialised policy is the key.
// Policies change rarely (a reload), so a handful of entries is plenty.
const MAX_POLICIES = 4;
const byKey = new Map<string, CompiledPolicy>();
const byIdentity = new WeakMap<PolicyConfig, CompiledPolicy>();

function compiledFor(policy: PolicyConfig): CompiledPolicy {
  const same = byIdentity.get(policy);
  if (same) return same;
  // `service` does not affect governance; leaving it out lets a change of upstream reuse the compiled rules.
  const key = JSON.stringify(policy.rules ?? []);
  let compiled = byKey.get(key);
  if (!compiled) {
    compiled = compilePolicy({ rules: policy.rules ?? [] });
    if (byKey.size >= MAX_POLICIES) byKey.delete(byKey.keys().next().value as string);
    byKey.set(key, compiled);
  }
  byIdentity.set(policy, compiled);
  return compiled;
}

// One sandbox per module for this thread's life. When piscina destroys the thread (the runtime's stop, or an idle
// timeout), Node stops the sandbox workers with it: a worker's own workers never outlive it.
const wasmPolicies = new WasmPolicyCache();
const decodeJson = governedJsonBody();
// Per route, the exchanges this thread has observed: sampling's warm-up and counters outlive a batch.
const fieldSampling = new FieldSampling();
const fullObservation = new FieldSampling({ every: 1 });

function decisionOf(policy: CompiledPolicy, exchange: RawExchange): RouteDecision {
  try {
    return policy.decisionFor(exchange.ruleIndexes);
  } catch (err) {
    throw new GovernanceError(GovernanceErrors.TASK,
      `exchange ${exchange.id}: ${(err as Error).message}; the proxy and the worker must use the same policy`, { cause: err });
  }
}

/**
 * Governs each exchange with the decision for its rule indexes, narrowed by the WASM modules its rules name.
 * Output order matches input order. An exchange whose module failed keeps no bodies and says why in
 * `dropped_reason`; the failed calls are counted in `sandboxFailures`.
 */
export default async function governBatch(task: GovernTask): Promise<GovernResult> {
  if (!task || !Array.isArray(task.exchanges) || typeof task.policy !== 'object' || task.policy === null) {
    throw new GovernanceError(GovernanceErrors.TASK, 'governance task must be { policy, exchanges[] }');
  }
  const policy = compiledFor(task.policy);
  const decisions = task.exchanges.map((exchange) => decisionOf(policy, exchange));
  const order = modulesInRuleOrder(policy.rules);
  const outcomes = order.length === 0 ? undefined : await applyWasmModules(
    task.exchanges.map((exchange, i) => ({ exchange, decision: decisions[i], modules: modulesFor(policy.rules, exchange.ruleIndexes) })),
    order,
    (module) => wasmPolicies.get(module, task.policy.modules?.[module]),
    { decodeJson, onUnavailable: () => wasmPolicies.count(UNAVAILABLE) },
  );
  const records: StorableRecord[] = new Array(task.exchanges.length);
  // `true` samples each route once it is stable (counts are estimates); 'full' walks every exchange (exact counts).
  const fields = task.recordFields === true ? new FieldRecorder(undefined, fieldSampling)
    : task.recordFields === 'full' ? new FieldRecorder(undefined, fullObservation) : undefined;
  const options = { random: Math.random, fields };
  for (let i = 0; i < task.exchanges.length; i++) {
    const exchange = task.exchanges[i];
    records[i] = outcomes
      ? governNarrowed(exchange, outcomes[i], options)
      : governForStorage(exchange, decisions[i], options);
  }
  const result: GovernResult = { records, sandboxFailures: wasmPolicies.takeFailures() };
  return fields === undefined ? result : { ...result, ...fields.take() };
}

/** Stops this thread's WASM sandboxes (for callers that run governBatch in their own thread, such as tests). */
export function closeWasmPolicies(): Promise<void> {
  return wasmPolicies.close();
}

/**
 * Governs records a middleware sent with this policy, each by the decision for its own method and path (as the proxy
 * decides a request), WASM modules aside: the YAML rules are the floor (regovern-record.ts). Same order as input.
 */
export function regovernRecords(task: RegovernTask): RegovernResult {
  if (!task || !Array.isArray(task.records) || typeof task.policy !== 'object' || task.policy === null) {
    throw new GovernanceError(GovernanceErrors.TASK, 'regovern task must be { policy, records[] }');
  }
  const policy = compiledFor(task.policy as PolicyConfig);
  return { records: task.records.map((r, i) => regovernRecord(r, policy.decide(r.method, pathOfRecord(r.path)), task.bodyTexts?.[i])) };
}
