// piscina task module: governs a batch of raw exchanges into records, off the main thread.
import { compilePolicy, type CompiledPolicy } from '../../policies/compile.js';
import type { PolicyConfig } from '../../policies/schema.js';
import { RedactionError, RedactionErrorCode } from './errors.js';
import { governExchange } from './govern.js';
import type { GovernedRecord, GovernTask } from './types.js';

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

/** Governs each exchange with the decision for its rule indexes. Output order matches input order. */
export default function governBatch(task: GovernTask): GovernedRecord[] {
  if (!task || !Array.isArray(task.exchanges) || typeof task.policy !== 'object' || task.policy === null) {
    throw new RedactionError(RedactionErrorCode.badTask, 'governance task must be { policy, exchanges[] }');
  }
  const policy = compiledFor(task.policy);
  const out: GovernedRecord[] = new Array(task.exchanges.length);
  for (let i = 0; i < task.exchanges.length; i++) {
    const exchange = task.exchanges[i];
    let decision;
    try {
      decision = policy.decisionFor(exchange.ruleIndexes);
    } catch (err) {
      throw new RedactionError(RedactionErrorCode.badTask,
        `exchange ${exchange.id}: ${(err as Error).message}; the proxy and the worker must use the same policy`, { cause: err });
    }
    out[i] = governExchange(exchange, decision, { random: Math.random });
  }
  return out;
}
