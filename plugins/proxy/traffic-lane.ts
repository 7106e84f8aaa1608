import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { performance } from 'node:perf_hooks';
import { Pool } from 'undici';
import { ByteBudget, DEFAULT_LINGER, settledWithin, type Bus, type LingerOutcome, type Logger } from '@vigil/plugin-sdk';
import { BodyPace } from './body-pace.js';
import type { CopyBudget } from '../../gateway/exchange/bounded-copy.js';
import type { ClientBodyLimits } from './client-body.js';
import type { CompiledPolicy } from '../../policies/compile.js';
import type { ProxyOptions } from './config.js';
import { ProxyError, ProxyErrors, type ClientBodyBounds, type UpstreamFailure } from './errors.js';
import type { LabelDimensions } from './label-dimensions.js';
import { ProxiedExchange, type LaneContext } from './proxied-exchange.js';
import { upstreamRequestHead } from '../../gateway/exchange/request-headers.js';
import { upstreamTarget } from './request-target.js';
import type { TrafficMetrics } from './traffic-metrics.js';
import { UpstreamSlots } from './upstream-slots.js';

export interface TrafficLaneDeps {
  options: ProxyOptions;
  policy: CompiledPolicy;
  dimensions: LabelDimensions;
  metrics: TrafficMetrics;
  bus: Bus;
  maxBodyBytes: number;
  /** The telemetry lane's byte budget for capture copies. */
  copyBudget: CopyBudget;
  log: Logger;
  /** Counts and logs an unexpected throw (the plugin's `ctx.contain`). */
  report(err: unknown): void;
}

// One warning per failure code per interval: an unreachable upstream under load must not flood the log (the
// failures are all counted in vigil_proxy_failures_total).
const FAILURE_LOG_INTERVAL_MS = 10_000;
// After the drain bound, how long the upstream pool gets to close before its sockets are destroyed.
const POOL_CLOSE_MS = 2_000;

/**
 * The traffic lane: a node:http server in front of an undici pool to the upstream. Per request, the policy
 * decision comes first; everything else (headers for the upstream, capture copies, metrics) follows from it.
 */
export class TrafficLane implements LaneContext {
  readonly pool: Pool;
  readonly maxBodyBytes: number;
  readonly copyBudget: CopyBudget;
  readonly metrics: TrafficMetrics;
  readonly dimensions: LabelDimensions;
  readonly bus: Bus;
  readonly slots: UpstreamSlots;
  readonly bodyLimits: ClientBodyLimits;
  readonly sendPace: BodyPace;
  readonly bounds: ClientBodyBounds & { queueTimeoutMs: number };
  readonly linger = DEFAULT_LINGER;
  stopping = false;
  private policy: CompiledPolicy;
  private readonly options: ProxyOptions;
  private readonly log: Logger;
  private readonly reportError: (err: unknown) => void;
  private server: Server | null = null;
  private inFlight = 0;
  private drained: (() => void) | null = null;
  private stopped: Promise<void> | undefined;
  private readonly lastLogged = new Map<string, number>();

  constructor(deps: TrafficLaneDeps) {
    this.options = deps.options;
    this.policy = deps.policy;
    this.dimensions = deps.dimensions;
    this.metrics = deps.metrics;
    this.bus = deps.bus;
    this.maxBodyBytes = deps.maxBodyBytes;
    this.copyBudget = deps.copyBudget;
    this.log = deps.log;
    this.reportError = deps.report;
    const o = deps.options;
    this.slots = new UpstreamSlots(o.maxConnections, o.queueTimeoutMs);
    this.bodyLimits = {
      bufferBytes: o.requestBuffer,
      budget: new ByteBudget(o.requestBufferMemory),
      bufferTimeoutMs: o.requestBufferTimeoutMs,
      pace: new BodyPace(o.clientBodyTimeoutMs, o.clientMinRate, o.requestBufferTimeoutMs),
    };
    this.sendPace = new BodyPace(o.sendTimeoutMs, o.clientMinRate, 0);
    this.bounds = {
      clientBodyTimeoutMs: o.clientBodyTimeoutMs, sendTimeoutMs: o.sendTimeoutMs, clientMinRate: o.clientMinRate, requestBuffer: o.requestBuffer,
      requestBufferTimeoutMs: o.requestBufferTimeoutMs, queueTimeoutMs: o.queueTimeoutMs,
    };
    const budget = this.bodyLimits.budget;
    this.metrics.readLane({
      bufferedBytes: () => budget.held,
      connectionsInUse: () => this.slots.inUse,
      waitingForConnection: () => this.slots.waiting,
    });
    this.pool = new Pool(o.origin, {
      connections: o.maxConnections,
      headersTimeout: o.timeoutMs,
      bodyTimeout: o.timeoutMs,
      connect: { timeout: o.connectTimeoutMs, ...(o.servername ? { servername: o.servername } : {}) },
    });
  }

  /** Starts listening; rejects with VIGIL_ERR_PROXY_LISTEN when the address is taken or invalid. */
  async start(): Promise<void> {
    const server = createServer((req, res) => this.onRequest(req, res));
    server.on('error', (err) => this.log.error('proxy server error', { error: err }));
    const { host, port } = this.options.listen;
    await new Promise<void>((resolve, reject) => {
      const onError = (err: Error) => {
        reject(new ProxyError(ProxyErrors.LISTEN,
          `cannot listen on ${host ?? '*'}:${port} (service.listen): ${err.message}; choose a free port or stop what uses it`, { cause: err }));
      };
      server.once('error', onError);
      server.listen({ port, host }, () => {
        server.off('error', onError);
        resolve();
      });
    });
    this.server = server;
    this.log.info('gateway listening', { address: this.url, upstream: this.options.origin + this.options.basePath });
  }

  /**
   * Decides requests from now on by `policy` (a reload). Requests in flight finish under the policy they started
   * with. The label dimensions stay: the traffic metrics' label names are fixed while the process runs.
   */
  usePolicy(policy: CompiledPolicy): void {
    this.policy = policy;
  }

  /** Where the proxy listens, e.g. `http://127.0.0.1:8080` (empty before start). */
  get url(): string {
    const a = this.server?.address() as AddressInfo | null | undefined;
    if (!a) return '';
    const host = a.family === 'IPv6' ? `[${a.address}]` : a.address;
    return `http://${host}:${a.port}`;
  }

  private onRequest(req: IncomingMessage, res: ServerResponse): void {
    const startedAt = performance.now();
    // The decision comes before anything else is attached to the request: a restricted route allocates no buffers.
    let exchange: ProxiedExchange | undefined;
    try {
      const decision = this.policy.decide(req.method!, req.url!);
      const capture = (decision.captureRequestBody || decision.captureResponseBody || decision.captureHeaders) &&
        this.bus.hasSubscribers('gateway.exchange');
      // Node would add a Date header the upstream may not have sent; the upstream's own Date is forwarded.
      res.sendDate = false;
      if (this.stopping) res.shouldKeepAlive = false;
      this.inFlight++;
      exchange = new ProxiedExchange(this, req, res, decision, startedAt, capture);
      const head = upstreamRequestHead(req.rawHeaders, {
        clientAddress: req.socket.remoteAddress, proto: 'http', preserveHost: this.options.preserveHost,
      });
      exchange.dispatch(upstreamTarget(req.url!, this.options.basePath), head);
    } catch (err) {
      this.reportError(err);
      if (exchange) exchange.onError(err as Error);
      else if (!res.headersSent) { res.statusCode = 502; res.end(); }
    }
  }

  failed(failure: UpstreamFailure, err: unknown): void {
    this.metrics.failure(failure.code);
    const now = Date.now();
    const last = this.lastLogged.get(failure.code);
    if (last !== undefined && now - last < FAILURE_LOG_INTERVAL_MS) return;
    this.lastLogged.set(failure.code, now);
    this.log.warn(`proxy: ${failure.message}`, { code: failure.code, upstream: this.options.origin, error: err ?? undefined });
  }

  report(err: unknown): void {
    this.reportError(err);
  }

  lingered(outcome: LingerOutcome): void {
    this.metrics.lingered(outcome);
  }

  exchangeDone(): void {
    this.inFlight--;
    if (this.inFlight === 0 && this.drained) this.drained();
  }

  /**
   * Stops accepting connections, lets requests in flight finish within `drain_timeout`, then closes every client
   * connection and the upstream pool. Safe to call twice, and without start.
   */
  stop(): Promise<void> {
    this.stopped ??= this.shutdown();
    return this.stopped;
  }

  private async shutdown(): Promise<void> {
    this.stopping = true;
    const server = this.server;
    if (server) {
      const closed = new Promise<void>((resolve) => server.close(() => resolve()));
      server.closeIdleConnections();
      await this.waitForInFlight(this.options.drainTimeoutMs);
      // Requests still waiting for a connection or a body are answered now; their connections close below.
      this.slots.stop();
      this.bodyLimits.pace.stop();
      this.sendPace.stop();
      server.closeAllConnections();
      await closed;
    }
    if (!(await settledWithin(this.pool.close(), POOL_CLOSE_MS))) await this.pool.destroy().catch(() => {});
  }

  private waitForInFlight(timeoutMs: number): Promise<void> {
    if (this.inFlight === 0) return Promise.resolve();
    return new Promise<void>((resolve) => {
      const timer = setTimeout(done, timeoutMs);
      function done() {
        clearTimeout(timer);
        resolve();
      }
      this.drained = done;
    });
  }
}
