import { fileDigests } from '@vigil/plugin-sdk';
import type { TelemetryPolicy } from './govern-task.js';
import { compilePolicy } from '../../policies/compile.js';
import type { GatewayPolicy, PolicySubscriber } from './policy-service.js';
import type { RuleConfig } from '../../policies/schema.js';
import { resolveWasmPaths, wasmFiles } from './wasm-modules.js';

/**
 * One version of the policy from the rules as the config file writes them: compiled here, once, and serialised once
 * for the workers, with each `wasm` path resolved (workers have no config file to resolve it against) and the
 * module's digest, so a module rebuilt in place is loaded again.
 */
export function gatewayPolicy(rules: readonly RuleConfig[], resolvePath: (path: string) => string): GatewayPolicy {
  const resolved = resolveWasmPaths(rules, resolvePath);
  const compiled = compilePolicy({ rules: resolved });
  const modules = wasmFiles(resolved, (path) => path);
  const telemetry: TelemetryPolicy = modules.length > 0 ? { rules: resolved, modules: fileDigests(modules) } : { rules: resolved };
  return { compiled, workerJson: JSON.stringify(telemetry) };
}

/** The version in force and the plugins that follow it. */
export class PolicyVersions {
  private readonly subscribers = new Set<PolicySubscriber>();

  constructor(private version: GatewayPolicy) {}

  get current(): GatewayPolicy {
    return this.version;
  }

  subscribe(subscriber: PolicySubscriber): () => void {
    this.subscribers.add(subscriber);
    return () => { this.subscribers.delete(subscriber); };
  }

  /** Every subscriber checks `next` before any takes it: one refusal (a throw) leaves every one on the current version. */
  replace(next: GatewayPolicy): void {
    for (const s of this.subscribers) s.check?.(next);
    this.version = next;
    for (const s of this.subscribers) s.apply(next);
  }
}
