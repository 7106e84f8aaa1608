// WASM policies loaded by one thread, one per module file, kept across batches (loading a module starts a
// sandbox worker: ~20 ms that must not be paid per batch). Failed guest calls are counted here until the batch's
// result takes them.
import type { SandboxFailureReason, WasmCallError } from '../../sandbox/wasm/errors.js';
import type { WasmPolicy, WasmPolicyOptions } from '../../policies/wasm-policy.js';

/** Wall-clock limit of one guest call (up to 256 views, ~5 ms for a typical policy): room for a loaded machine. */
export const POLICY_CALL_TIMEOUT_MS = 250;
/** A module that failed to load is not retried for this long: every batch would otherwise pay for the attempt. */
export const LOAD_RETRY_MS = 5_000;
/** Modules kept; beyond it the least recently used is closed (a reload can name new files). */
export const MAX_MODULES = 16;

type Options = Omit<WasmPolicyOptions, 'module' | 'onFailure'>;

interface Entry {
  policy: Promise<WasmPolicy>;
  /** The module's content digest the policy was given with, if any (`TelemetryPolicy.modules`). */
  digest?: string;
  /** Set when loading failed, to retry after LOAD_RETRY_MS. */
  failedAt?: number;
}

export class WasmPolicyCache {
  private readonly entries = new Map<string, Entry>();
  private failures: Record<string, number> = {};
  private closed = false;

  constructor(
    private readonly options: Options = {},
    private readonly load: (options: WasmPolicyOptions) => Promise<WasmPolicy> = async (o) =>
      (await import('../../policies/wasm-policy.js')).createWasmPolicy(o),
    private readonly now: () => number = Date.now,
  ) {}

  /**
   * The policy for `module` (an absolute path), loaded on first use. With `digest`, a module held under another
   * digest (rebuilt in place, then the config reloaded) is closed and loaded again. Rejects when the module cannot
   * be loaded.
   */
  get(module: string, digest?: string): Promise<WasmPolicy> {
    if (this.closed) return Promise.reject(new Error('the wasm policy cache is closed'));
    let entry = this.entries.get(module);
    if (entry && digest !== undefined && entry.digest !== digest) {
      this.entries.delete(module);
      // This thread runs one batch at a time, so no call of this batch uses the old module.
      entry.policy.then((p) => p.close(), () => {});
      entry = undefined;
    }
    if (entry && entry.failedAt !== undefined && this.now() - entry.failedAt >= LOAD_RETRY_MS) {
      this.entries.delete(module);
      entry = undefined;
    }
    if (entry) {
      // Most recently used last: eviction takes the first.
      this.entries.delete(module);
      this.entries.set(module, entry);
      return entry.policy;
    }
    const created: Entry = {
      policy: this.load({
        callTimeoutMs: POLICY_CALL_TIMEOUT_MS,
        ...this.options,
        module,
        onFailure: (reason: SandboxFailureReason, _err: WasmCallError) => this.count(reason),
      }),
      digest,
    };
    created.policy.catch(() => { created.failedAt = this.now(); });
    this.entries.set(module, created);
    this.evict();
    return created.policy;
  }

  /** Adds one failure under `reason` (guest failures are counted by the sandbox through onFailure). */
  count(reason: string): void {
    this.failures[reason] = (this.failures[reason] ?? 0) + 1;
  }

  /** Failures counted since the last call, by reason; resets the count. */
  takeFailures(): Record<string, number> {
    const out = this.failures;
    this.failures = {};
    return out;
  }

  /** Modules currently held (loaded, loading, or failed and waiting to retry). */
  get size(): number {
    return this.entries.size;
  }

  /** Closes every loaded policy (their sandbox workers stop). Later `get` calls reject. Safe to call twice. */
  async close(): Promise<void> {
    this.closed = true;
    const all = [...this.entries.values()];
    this.entries.clear();
    await Promise.allSettled(all.map(async (e) => (await e.policy).close()));
  }

  private evict(): void {
    while (this.entries.size > MAX_MODULES) {
      const [module, entry] = this.entries.entries().next().value as [string, Entry];
      this.entries.delete(module);
      entry.policy.then((p) => p.close(), () => {});
    }
  }
}
