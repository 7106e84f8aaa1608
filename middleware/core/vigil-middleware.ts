import type { IncomingMessage, ServerResponse } from 'node:http';
import { ByteBudget } from '@vigil/plugin-sdk';
import type { RawExchange } from '../../gateway/exchange/raw-exchange.js';
import { InProcessGovernance } from './in-process-governance.js';
import { intercept, type InterceptionLane } from './interception.js';
import { loadMiddlewarePolicy, type MiddlewarePolicy } from './load-policy.js';
import { resolveOptions, type VigilMiddlewareOptions } from './options.js';
import { RecordShipper, type ShipperStats } from './record-shipper.js';

/** Counters of one middleware instance. */
export interface VigilMiddlewareStats extends ShipperStats {
  /** Exchanges captured (a route that captures nothing is never counted). */
  captured: number;
  /** Exchanges refused because `maxPending` waited for governance. */
  governanceDropped: number;
  /** Exchanges whose governance threw (no record is shipped for them). */
  governanceFailed: number;
  /** Bytes of body copies held now (at most `queueBytes`). */
  heldBytes: number;
  /** Milliseconds the event loop spent governing, after the responses (the request path only decides and copies). */
  governMs: number;
}

// One line per kind of problem per interval: an agent that is down must not flood the app's log.
const LOG_INTERVAL_MS = 10_000;

/**
 * What @vigil/express and @vigil/koa share: the policy, the one interception path, in-process governance and the
 * shipping of records. A framework adapter only hands it each request's Node `req` and `res`.
 */
export class VigilMiddleware implements InterceptionLane {
  readonly policy: MiddlewarePolicy['compiled'];
  readonly maxBodyBytes: number;
  readonly budget: ByteBudget;
  private readonly governance: InProcessGovernance;
  private readonly shipper: RecordShipper;
  private readonly onError: (err: Error) => void;
  private readonly lastLogged = new Map<string, number>();
  private captured = 0;
  private closed = false;

  /** Loads and checks the config file and the options; throws a MiddlewareError (CONFIG or OPTIONS) naming the problem. */
  constructor(options: VigilMiddlewareOptions) {
    const o = resolveOptions(options);
    const loaded = loadMiddlewarePolicy(o.configPath, o.env);
    this.policy = loaded.compiled;
    this.maxBodyBytes = loaded.maxBodyBytes;
    this.budget = new ByteBudget(o.queueBytes);
    this.onError = options.onError ?? ((err) => this.logOnce(err));
    this.shipper = new RecordShipper({
      url: o.ingestUrl, token: o.token, maxQueue: o.maxQueue, maxBatch: o.batchSize, maxBatchBytes: 4 * 1024 * 1024,
      flushIntervalMs: o.flushIntervalMs, timeoutMs: o.timeoutMs, minBackoffMs: o.minBackoffMs, maxBackoffMs: o.maxBackoffMs,
      report: (err) => this.onError(err),
    });
    this.governance = new InProcessGovernance({
      policy: loaded.telemetry, budget: this.budget, maxPending: o.maxPending, maxBatch: 512,
      deliver: (records) => this.shipper.push(records),
      report: (err) => this.report(err),
    });
  }

  /** The one interception path: call it first for each request, before anything reads the request. */
  observe(req: IncomingMessage, res: ServerResponse): void {
    if (this.closed) return;
    try {
      intercept(this, req, res);
    } catch (err) {
      this.report(err);
    }
  }

  publish(exchange: RawExchange): void {
    this.captured++;
    this.governance.push(exchange);
  }

  report(err: unknown): void {
    this.onError(err instanceof Error ? err : new Error(String(err)));
  }

  stats(): VigilMiddlewareStats {
    return {
      ...this.shipper.stats(), captured: this.captured, governanceDropped: this.governance.dropped,
      governanceFailed: this.governance.failed, heldBytes: this.budget.held, governMs: this.governance.governMs,
    };
  }

  /** Governs what was captured and sends it, retrying until delivered or `deadlineMs` passed; never rejects. */
  async flush(deadlineMs = 10_000): Promise<void> {
    await this.governance.flush();
    await this.shipper.flush(deadlineMs);
  }

  /** Stops capturing, then flushes within `deadlineMs`. Safe to call twice. */
  async close(deadlineMs = 5_000): Promise<void> {
    this.closed = true;
    await this.governance.flush();
    await this.shipper.close(deadlineMs);
  }

  private logOnce(err: Error): void {
    const kind = err.message.replace(/\d+/g, '#').slice(0, 80);
    const now = Date.now();
    if ((this.lastLogged.get(kind) ?? -Infinity) + LOG_INTERVAL_MS > now) return;
    this.lastLogged.set(kind, now);
    console.warn(`[vigil] ${err.message}`);
  }
}
