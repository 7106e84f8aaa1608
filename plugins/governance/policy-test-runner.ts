// The case runner behind `vigil policy test`: the `vigil test` cases, with WASM policies applied the way the
// governance worker applies them (rule order, narrowing only, fail closed), one case at a time.
import { dirname, resolve } from 'node:path';
import type { CompiledPolicy } from '../../policies/compile.js';
import type { WasmPolicy } from '../../policies/wasm-policy.js';
import { WasmCallError, WasmModuleError } from '../../sandbox/wasm/errors.js';
import type { CommandIo } from '@vigil/plugin-sdk';
import type { PolicyView } from '../../policies/wasm-view.js';
import type { WasmDecision } from '../../policies/wasm-decision.js';
import type { CaseNarrower } from './govern-case.js';
import { display, InputProblem, runTestCases } from './test-command.js';
import { WasmPolicyCache } from '../../gateway/govern/wasm-policy-cache.js';
import {
  applyWasmModules, governedJsonBody, modulesFor, modulesInRuleOrder,
} from '../../gateway/govern/wasm-rule-modules.js';

/** The WASM policy as `vigil policy test` hands it to the case runner: views in, one decision per view out. */
export type DecideViews = (views: PolicyView[]) => Promise<WasmDecision[]>;

export interface PolicyCaseInput {
  /** Absolute path of the policy file (service + rules). */
  config: string;
  /** Absolute paths of the `vigil test` cases files. */
  cases: string[];
  io: CommandIo;
  /** Limits for the modules the runner loads itself (those the policy file's rules name). */
  limits: { maxMemoryPages?: number; callTimeoutMs: number };
}

/**
 * INTEGRATION POINT (`vigil policy test`): runs the `vigil test` cases against the policy file exactly as `vigil
 * test` does, except that each case's YAML decision is first narrowed by the WASM policy. Per case:
 *
 *     const { exchange, decision } = caseExchange(testCase, policy, id);          // plugins/governance
 *     const [wasm] = await decide([exchangeView(exchange, decision)]);              // policies/wasm-apply.ts
 *     const narrowed = narrow(decision, exchange.labels, wasm);                     // policies/wasm-narrow.ts
 *     const record = governExchange({ ...exchange, labels: narrowed.labels }, narrowed.decision, …);
 *
 * `decide` rejects with a WasmCallError when the guest fails; report that case as failed with the error's message.
 * Without `-wasm`, `decide` is undefined: the runner applies the modules the policy file's rules name (`wasm:`),
 * each to the cases its rule matches, loaded with `input.limits`.
 * Resolves with the exit code (0 all passed, 1 a case failed, 2 bad input), like `vigil test`.
 */
export type PolicyCaseRunner = (input: PolicyCaseInput, decide: DecideViews | undefined) => Promise<number>;

/** The `-wasm` module as a policy: `decide` rejects for a failed call, which covers every view of it. */
function policyOfDecide(decide: DecideViews): WasmPolicy {
  return {
    decide: (views) => decide([...views]),
    async decideSettled(views) {
      try {
        return await decide([...views]);
      } catch (err) {
        if (err instanceof WasmCallError) return views.map(() => err);
        throw err;
      }
    },
    close: async () => {},
  };
}

/** `policy`, with the message of each failed guest call added to `errors`. */
function reportingFailures(policy: WasmPolicy, errors: string[]): WasmPolicy {
  return {
    decide: (views) => policy.decide(views),
    async decideSettled(views) {
      const outcomes = await policy.decideSettled(views);
      const failed = outcomes.find((o): o is WasmCallError => o instanceof Error);
      if (failed) errors.push(failed.message);
      return outcomes;
    },
    close: () => policy.close(),
  };
}

/**
 * Runs the cases with, when `decide` is given (`-wasm`), that module applied to every case; otherwise with the
 * modules the policy file's rules name, resolved against the policy file, each applied to the cases its rule
 * matches. A module that cannot be loaded is bad input (exit 2); a guest failure fails its case.
 */
export async function runPolicyCases(input: PolicyCaseInput, decide: DecideViews | undefined): Promise<number> {
  const cache = new WasmPolicyCache(input.limits);
  const decodeJson = governedJsonBody();
  const narrowing = async (policy: CompiledPolicy): Promise<CaseNarrower> => {
    const base = dirname(input.config);
    const rules = policy.rules.map((r) => (r.wasm === undefined ? r : { ...r, wasm: resolve(base, r.wasm) }));
    const order = decide ? ['-wasm'] : modulesInRuleOrder(rules);
    if (order.length === 0) {
      throw new InputProblem(`${display(input.config, input.io.cwd)}: no rule names a WASM module (\`wasm: ./policy.wasm\`); ` +
        'name one on a rule, or give -wasm POLICY.wasm');
    }
    const policies = new Map<string, WasmPolicy>();
    const errors: string[] = [];
    if (decide) policies.set('-wasm', reportingFailures(policyOfDecide(decide), errors));
    for (const module of decide ? [] : order) {
      try {
        policies.set(module, reportingFailures(await cache.get(module), errors));
      } catch (err) {
        if (!(err instanceof WasmModuleError)) throw err;
        const at = rules.findIndex((r) => r.wasm === module);
        throw new InputProblem(`${display(input.config, input.io.cwd)}: rules[${at}].wasm: ${err.message}`);
      }
    }
    return async (exchange, decision) => {
      errors.length = 0;
      const [outcome] = await applyWasmModules(
        [{ exchange, decision, modules: decide ? order : modulesFor(rules, decision.ruleIndexes) }],
        order,
        async (module) => policies.get(module)!,
        { decodeJson, onUnavailable: (_module, err) => errors.push((err as Error).message) },
      );
      return { ...outcome, errors: [...errors] };
    };
  };
  try {
    return await runTestCases({ config: input.config, cases: input.cases, io: input.io }, narrowing);
  } finally {
    await cache.close();
  }
}
