// One `vigil test` case through the code the gateway runs: the proxy's decision, the exchange it would publish, and
// the record the workers would store. `vigil test`, `vigil policy test` and the dashboard's "try a request"
// (POST /api/gateway/policy/try) all go through here, so what they show is what the gateway does.
import type { CompiledPolicy } from '../../policies/compile.js';
import type { RouteDecision } from '../../policies/merge.js';
import { governExchange, toGovernedRecord } from '../../gateway/govern/govern.js';
import { caseExchange } from './test-case-exchange.js';
import type { TestCase } from './test-cases-schema.js';
import type { GovernedRecord, RawExchange } from '../../gateway/govern/types.js';
import { governNarrowed, type ModulesOutcome } from '../../gateway/govern/wasm-rule-modules.js';

/**
 * Narrows a case's YAML decision before the case is governed: `vigil policy test` applies WASM policies here.
 * `errors` fail the case (a policy that fails in a test is a bug to fix, even though the runtime fails closed).
 */
export type CaseNarrower = (exchange: RawExchange, decision: RouteDecision) => Promise<ModulesOutcome & { errors?: string[] }>;

/** What became of one case: the exchange the proxy would publish, its decision, and the record as stored. */
export interface GovernedCase {
  exchange: RawExchange;
  /** The YAML decision (before any WASM narrowing). */
  decision: RouteDecision;
  /** Exactly the record capture would store and exporters would receive (through its stored JSON). */
  record: GovernedRecord;
  /** Guest failures of the narrowing, when there is one. */
  errors: string[];
}

/**
 * Decides, builds the exchange and governs it, with the sampling roll the case names (default 0: bodies are kept
 * whenever the rate is above 0). Nothing is stored, published or exported.
 */
export async function governCase(testCase: TestCase, policy: CompiledPolicy, id: string, narrow?: CaseNarrower): Promise<GovernedCase> {
  const { exchange, decision } = caseExchange(testCase, policy, id);
  const roll = testCase.sample_roll ?? 0;
  const narrowed = narrow ? await narrow(exchange, decision) : undefined;
  const record = narrowed
    ? toGovernedRecord(governNarrowed(exchange, narrowed, { random: () => roll }))
    : governExchange(exchange, decision, { random: () => roll });
  return { exchange, decision, record, errors: narrowed?.errors ?? [] };
}
