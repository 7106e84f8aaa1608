import { performance } from 'node:perf_hooks';
import { recordJson } from '../../gateway/records/governed-record.js';
import type { RawExchange } from '../../gateway/exchange/raw-exchange.js';
import type { TelemetryPolicy } from '../../gateway/govern/govern-task.js';
import type { CopyBudget } from '../../gateway/exchange/bounded-copy.js';
import governBatch from '../../gateway/govern/govern-worker.js';
import type { GovernTask } from '../../gateway/govern/types.js';
import type { ExchangeProcessor } from '../../gateway/lane-stages.js';

export interface InProcessGovernanceOptions {
  /** The rules as capture's workers receive them; one object for the process, so governance finds it compiled. */
  policy: TelemetryPolicy;
  /** Where the exchanges' copies were counted; given back once each is governed (or dropped). */
  budget: CopyBudget;
  /** Exchanges waiting to be governed before new ones are dropped. */
  maxPending: number;
  /** Most exchanges governed in one go (one WASM guest call per module and batch). */
  maxBatch: number;
  /** The governed records, as the JSON text capture stores, in order. */
  deliver(records: string[]): void;
  report(err: unknown): void;
}

/**
 * Governs finished exchanges in this process with capture's own worker task (`governBatch` of the governance
 * plugin: the same decisions by rule index, `governForStorage`, WASM narrowing), on the event loop, after the
 * responses are sent: the request path only copies. Raw exchanges never leave the process; only records do.
 */
export class InProcessGovernance implements ExchangeProcessor {
  private pending: RawExchange[] = [];
  private running: Promise<void> | null = null;
  private scheduled = false;
  /** Exchanges refused because `maxPending` were waiting. */
  dropped = 0;
  /** Exchanges whose governance threw (no record: nothing ungoverned is ever shipped). */
  failed = 0;
  /** Milliseconds spent governing (wall time on the event loop, WASM guest calls included). */
  governMs = 0;
  /** WASM policy calls that failed, by reason (their records failed closed). */
  readonly sandboxFailures: Record<string, number> = {};

  constructor(private readonly options: InProcessGovernanceOptions) {}

  get queued(): number {
    return this.pending.length;
  }

  /** Queues an exchange; false (and its bytes given back) when the queue is full. */
  push(exchange: RawExchange): boolean {
    if (this.pending.length >= this.options.maxPending) {
      this.letGo(exchange);
      this.dropped++;
      return false;
    }
    this.pending.push(exchange);
    if (!this.scheduled && this.running === null) {
      this.scheduled = true;
      // After the current I/O callbacks: the response that finished this exchange is on its way first.
      setImmediate(() => { this.scheduled = false; this.start(); });
    }
    return true;
  }

  /** Resolves once every exchange queued so far is governed and delivered. */
  async flush(): Promise<void> {
    while (this.running !== null || this.pending.length > 0 || this.scheduled) {
      if (this.running === null && !this.scheduled) this.start();
      await (this.running ?? new Promise((r) => setImmediate(r)));
    }
  }

  private start(): void {
    if (this.running !== null || this.pending.length === 0) return;
    this.running = this.drain().finally(() => { this.running = null; });
  }

  private async drain(): Promise<void> {
    while (this.pending.length > 0) {
      const batch = this.pending.splice(0, this.options.maxBatch);
      const started = performance.now();
      try {
        const result = await governBatch({ policy: this.options.policy as GovernTask['policy'], exchanges: batch });
        for (const [reason, n] of Object.entries(result.sandboxFailures)) this.sandboxFailures[reason] = (this.sandboxFailures[reason] ?? 0) + n;
        this.options.deliver(result.records.map((r) => recordJson(r)));
      } catch (err) {
        this.failed += batch.length;
        this.options.report(err);
      } finally {
        this.governMs += performance.now() - started;
        for (const e of batch) this.letGo(e);
      }
    }
  }

  private letGo(e: RawExchange): void {
    if (e.heldBytes) this.options.budget.give(e.heldBytes);
    e.heldBytes = 0;
  }
}
