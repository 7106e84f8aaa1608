import type { CompiledPolicy } from '../../policies/compile.js';
import type { Detectors } from '../../policies/detectors/types.js';
import type { JsonGovernance } from '../../policies/govern-json.js';

/** One version of the gateway's policy, as the governance plugin hands it out: compiled once on this thread. */
export interface GatewayPolicy {
  /** Decisions for the traffic lane (cached per method and folded path). */
  readonly compiled: CompiledPolicy;
  /**
   * The same rules for the governance workers, as the JSON of a `TelemetryPolicy` (each `wasm` path absolute, with
   * the digest of each module read when this version was made). Made once per version; worker tasks carry it as
   * it is, and each thread compiles it once.
   */
  readonly workerJson: string;
}

/** A plugin that follows the policy. On a reload every `check` runs before any `apply`. */
export interface PolicySubscriber {
  /** Throws, with a message that says what needs a restart, to refuse `next`; nothing is applied anywhere then. */
  check?(next: GatewayPolicy): void;
  /** Takes `next`; requests already in flight keep the version they started with. */
  apply(next: GatewayPolicy): void;
}

/**
 * The `policy` service of the governance plugin, the one owner of the gateway's `rules`: the proxy decides with it,
 * capture's workers govern with it, and the LLM platform redacts with its `governJson`.
 */
export interface PolicyService {
  /** The version in force. */
  readonly current: GatewayPolicy;
  /** Follows reloads of the rules; returns the unsubscribe function. */
  subscribe(subscriber: PolicySubscriber): () => void;
  /** `value` governed by `rules` (JSON paths and detectors), never changed in place. */
  governJson(value: unknown, rules: JsonGovernance): unknown;
  readonly detectors: Detectors;
}

declare module '@vigil/plugin-sdk' {
  interface Services {
    policy: PolicyService;
  }
}
