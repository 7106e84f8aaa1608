// piscina task module: "try a request" (POST /api/gateway/policy/try) off the event loop. Governing a try of a
// megabyte (every value of both bodies through redaction and the detectors) takes seconds; on the main thread that
// would be seconds the gateway's traffic waits.
import { compilePolicy, type CompiledPolicy } from '../../policies/compile.js';
import type { TelemetryPolicy } from '../../gateway/govern/govern-task.js';
import type { RuleConfig } from '../../policies/schema.js';
import { tryRequest, type TryInput } from './try-request.js';

export interface TryTask {
  /** The version's worker JSON (`GatewayPolicy.workerJson`): its rules, each `wasm` path resolved. */
  policy: string;
  /** The rules as the config file writes them, for the module names a try reports. */
  written: RuleConfig[];
  input: TryInput;
}

// Policies change rarely (a reload): a handful of compiled versions per thread, by their JSON.
const MAX_POLICIES = 4;
const compiled = new Map<string, CompiledPolicy>();

function policyOf(json: string): CompiledPolicy {
  let policy = compiled.get(json);
  if (!policy) {
    // Tries get a compiled copy of their own: their paths never enter the traffic lane's decision caches.
    policy = compilePolicy({ rules: (JSON.parse(json) as TelemetryPolicy).rules as RuleConfig[] }, { cacheSize: 256 });
    if (compiled.size >= MAX_POLICIES) compiled.delete(compiled.keys().next().value as string);
    compiled.set(json, policy);
  }
  return policy;
}

/** The try's answer as JSON text: the main thread sends it on as it is, never parsing a record of megabytes. */
export default async function runTry(task: TryTask): Promise<string> {
  return JSON.stringify(await tryRequest(task.input, policyOf(task.policy), task.written));
}
