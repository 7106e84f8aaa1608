import type { IncomingMessage, ServerResponse } from 'node:http';
import { performance } from 'node:perf_hooks';
import { lingeringClose, type Bus, type LingerLimits, type LingerOutcome } from '@vigil/plugin-sdk';
import type { Dispatcher } from 'undici';
import type { RouteDecision } from '../../policies/merge.js';
import { extractLabels } from '../../policies/extract-labels.js';
import { BoundedCopy, type CopyBudget } from '../../gateway/exchange/bounded-copy.js';
import { rawExchange } from '../../gateway/exchange/raw-exchange.js';
import type { BodyPace, SlowBody } from './body-pace.js';
import { ClientBody, type ClientBodyEvents, type ClientBodyLimits } from './client-body.js';
import { ClientReading } from './client-reading.js';
import {
  buffersFullFailure, clientTimeoutFailure, describeUpstreamError, errorBody, ProxyErrors, queueTimeoutFailure,
  slowReaderFailure, upstreamFailure, type ClientBodyBounds, type UpstreamFailure,
} from './errors.js';
import type { LabelDimensions } from './label-dimensions.js';
import type { UpstreamRequestHead } from '../../gateway/exchange/request-headers.js';
import { downstreamResponseHead, mayHaveBody, reasonPhrase } from '../../gateway/exchange/response-headers.js';
import type { TrafficMetrics } from './traffic-metrics.js';
import { UpstreamBody } from './upstream-body.js';
import type { SlotTicket, SlotWaiter, UpstreamSlots } from './upstream-slots.js';

/** What one exchange needs from the lane that runs it. */
export interface LaneContext {
  readonly pool: Dispatcher;
  readonly maxBodyBytes: number;
  /** The telemetry lane's byte budget, which every capture copy is taken from. */
  readonly copyBudget: CopyBudget;
  readonly metrics: TrafficMetrics;
  readonly dimensions: LabelDimensions;
  readonly bus: Bus;
  readonly stopping: boolean;
  /** The upstream connections, and the bounded wait for one. */
  readonly slots: UpstreamSlots;
  /** How request bodies are buffered and paced. */
  readonly bodyLimits: ClientBodyLimits;
  /** How clients reading a response are paced while the upstream connection waits on them. */
  readonly sendPace: BodyPace;
  /** The bounds behind the 408 and 503 answers, for their messages. */
  readonly bounds: ClientBodyBounds & { queueTimeoutMs: number };
  /** Counts and logs a request the gateway answered with its own error (or cut). */
  failed(failure: UpstreamFailure, err: unknown): void;
  /** Bounds of the read-and-discard after an answer given before the request body was read. */
  readonly linger: LingerLimits;
  /** Counts how a lingering close ended. */
  lingered(outcome: LingerOutcome): void;
  /** Counts and logs a bug: something threw that should not have. */
  report(err: unknown): void;
  /** Called exactly once per exchange, when it is over. */
  exchangeDone(): void;
}

const NO_LABELS: Readonly<Record<string, string>> = Object.freeze({});
/** What the client saw when it closed the connection before any response: nginx's "client closed request". */
const CLIENT_CLOSED_STATUS = 499;
const CLIENT_ABORTED = 'client_aborted';

class ClientAbortedError extends Error {
  readonly code = CLIENT_ABORTED;
  constructor() {
    super('the client closed the connection');
  }
}

/** Why the gateway gave up on the upstream request itself (the answer is already given; this is for undici). */
class GaveUpError extends Error {
  constructor(readonly code: string) {
    super(`the gateway gave up on the request (${code})`);
  }
}

/**
 * One request through the traffic lane, and the undici handler of its upstream request. The request body is read
 * first (`ClientBody`: whole into a bounded buffer when it fits, else streamed), then an upstream connection is
 * waited for (`UpstreamSlots`, bounded), then the request is sent. Response chunks go from the upstream to
 * `res.write` with backpressure. Capture only ever reads what passes, into bounded copies that exist solely for
 * the parts the decision captures (`capture` is false on a route that captures nothing, and then no copy, id or
 * record is ever made).
 */
export class ProxiedExchange implements Dispatcher.DispatchHandler, SlotWaiter, ClientBodyEvents {
  private abortUpstream: ((err?: Error) => void) | null = null;
  private resumeUpstream: (() => void) | null = null;
  private status = 0;
  private done = false;
  private requestCopy: BoundedCopy | null = null;
  private responseCopy: BoundedCopy | null = null;
  private responseHeaders: string[] | null = null;
  /** The upstream's response ended as its framing says (its copy is whole up to the capture limit). */
  private responseEnded = false;
  private error: string | undefined;
  private readonly time: number;
  private body: ClientBody | null = null;
  /** The client's reading, watched from the first write that had to wait for it (null until then). */
  private reading: ClientReading | null = null;
  /** Response body bytes handed to `res.write`. */
  private written = 0;
  private ticket: SlotTicket | null = null;
  private holdsSlot = false;
  private target = '';
  private head: UpstreamRequestHead | null = null;
  /** What goes upstream as the body: the buffered bytes, the request stream, or nothing. */
  private upstreamBody: Uint8Array | IncomingMessage | null = null;

  constructor(
    private readonly lane: LaneContext,
    private readonly req: IncomingMessage,
    private readonly res: ServerResponse,
    private readonly decision: RouteDecision,
    private readonly startedAt: number,
    private readonly capture: boolean,
  ) {
    this.time = capture ? Date.now() : 0;
  }

  /** Reads the request body, then sends the request upstream (`target` null: it cannot be forwarded, answered 400). */
  dispatch(target: string | null, head: UpstreamRequestHead): void {
    const { req, res } = this;
    this.head = head;
    res.on('close', () => this.clientClosed());
    if (target === null) {
      this.fail(upstreamFailure(ProxyErrors.BAD_REQUEST, `request-target ${JSON.stringify(req.url)} cannot be forwarded to an origin server`), null);
      return;
    }
    this.target = target;
    if (!head.hasBody) {
      this.waitForConnection(null);
      return;
    }
    this.body = new ClientBody(req, head.contentLength, this.lane.bodyLimits, this);
    this.body.start();
  }

  // ---- the request body (ClientBodyEvents) ----

  whole(bytes: Uint8Array): void {
    if (this.capture && this.decision.captureRequestBody) {
      // A view of the buffered bytes, not a second copy.
      this.requestCopy = new BoundedCopy(this.lane.maxBodyBytes, bytes.byteLength, this.lane.copyBudget);
      this.requestCopy.keep(bytes);
      this.lane.metrics.bodyCopy('request_body');
    }
    this.waitForConnection(bytes);
  }

  streaming(): void {
    if (this.capture && this.decision.captureRequestBody) {
      const copy = new BoundedCopy(this.lane.maxBodyBytes, this.head!.contentLength, this.lane.copyBudget);
      this.requestCopy = copy;
      this.lane.metrics.bodyCopy('request_body');
      // The stream is paused: the upstream client resumes it when it writes, and both listeners then see every
      // chunk, in order, with undici's backpressure in charge.
      this.req.on('data', (chunk: Buffer) => copy.push(chunk));
    }
    this.waitForConnection(this.req);
  }

  refused(): void {
    this.fail(buffersFullFailure(), null);
  }

  tooSlow(why: SlowBody): void {
    this.fail(clientTimeoutFailure(why, this.lane.bounds), null);
  }

  // ---- the upstream connection (SlotWaiter) ----

  private waitForConnection(body: Uint8Array | IncomingMessage | null): void {
    this.upstreamBody = body;
    this.ticket = this.lane.slots.acquire(this);
  }

  granted(): void {
    this.ticket = null;
    this.holdsSlot = true;
    if (this.done) {
      this.releaseSlot();
      return;
    }
    const { req } = this;
    // A streamed body goes through a stream of its own, which undici may destroy without destroying the request.
    const body = this.upstreamBody === req ? new UpstreamBody(req) : this.upstreamBody;
    this.upstreamBody = null;
    // undici reports a request it refuses through onError, which releases the slot.
    this.lane.pool.dispatch({ path: this.target, method: req.method as Dispatcher.HttpMethod, headers: this.head!.headers, body }, this);
  }

  timedOut(): void {
    this.ticket = null;
    this.fail(queueTimeoutFailure(this.lane.bounds.queueTimeoutMs), null);
  }

  private releaseSlot(): void {
    if (!this.holdsSlot) return;
    this.holdsSlot = false;
    this.lane.slots.release();
  }

  // ---- the upstream request (undici's DispatchHandler) ----

  onConnect(abort: (err?: Error) => void): void {
    this.abortUpstream = abort;
    if (this.done) abort(new GaveUpError(this.error ?? CLIENT_ABORTED));
  }

  /** The whole request body is on the upstream socket: the buffer it came from is no longer counted. */
  onRequestSent(): void {
    if (this.body?.ended) this.body.stop();
  }

  onHeaders(statusCode: number, rawHeaders: Buffer[], resume: () => void, statusText: string): boolean {
    // Informational responses (102, 103) are not relayed: Node cannot write an arbitrary 1xx, and they are advisory.
    if (statusCode < 200 || this.done) return true;
    const head = downstreamResponseHead(rawHeaders);
    this.resumeUpstream = resume;
    if (this.capture) {
      if (this.decision.captureHeaders) this.responseHeaders = head.headers;
      if (this.decision.captureResponseBody && mayHaveBody(this.req.method, statusCode)) {
        this.responseCopy = new BoundedCopy(this.lane.maxBodyBytes, head.contentLength, this.lane.copyBudget);
        this.lane.metrics.bodyCopy('response_body');
      }
    }
    if (this.lane.stopping) this.res.shouldKeepAlive = false;
    this.res.writeHead(statusCode, reasonPhrase(statusText), head.headers);
    this.status = statusCode;
    return true;
  }

  onData(chunk: Buffer): boolean {
    if (this.done) return false;
    this.responseCopy?.push(chunk);
    this.written += chunk.byteLength;
    if (this.reading !== null) this.reading.written = this.written;
    if (this.res.write(chunk)) return true;
    this.res.once('drain', () => this.resumeUpstream?.());
    // Only from here on does the upstream connection wait for the client: a response the client takes as fast as it
    // comes is never watched, which spares most exchanges the watch (bench/gateway-cpu.ts).
    if (this.reading === null && !this.lane.sendPace.disabled) this.watchReading();
    return false;
  }

  private watchReading(): void {
    const reading = new ClientReading(this.res, (why) => this.fail(slowReaderFailure(why, this.lane.bounds), null));
    reading.written = this.written;
    this.reading = reading;
    this.lane.sendPace.watch(reading, performance.now());
  }

  onComplete(): void {
    this.releaseSlot();
    if (this.done) return;
    this.responseEnded = true;
    // The upstream answered before it read the whole body (an early 413): the client may still be sending it.
    if (this.body !== null && !this.body.ended) this.linger();
    this.res.end();
    this.finish();
  }

  onError(err: Error): void {
    this.releaseSlot();
    if (this.done) return;
    try {
      this.fail(describeUpstreamError(err), err);
    } catch (bug) {
      this.lane.report(bug);
      this.res.destroy();
      this.finish();
    }
  }

  // ---- endings ----

  private fail(failure: UpstreamFailure, err: unknown): void {
    this.lane.failed(failure, err);
    this.error = failure.code;
    const res = this.res;
    if (res.headersSent) {
      // The status line is gone: cutting the connection is the only way to tell the client the body is incomplete.
      res.destroy();
    } else {
      const body = errorBody(failure);
      this.status = failure.status;
      if (this.lane.stopping) res.shouldKeepAlive = false;
      // A request body not read to its end: the client may still be sending it; the answer must reach it all the same.
      if (this.head?.hasBody === true && this.body?.ended !== true) this.linger();
      const headers: Record<string, string | number> = { 'content-type': 'application/json; charset=utf-8', 'content-length': Buffer.byteLength(body) };
      if (failure.retryAfter !== undefined) headers['retry-after'] = failure.retryAfter;
      res.writeHead(failure.status, headers);
      res.end(body);
    }
    this.finish();
    // The answer is given: an upstream request in flight is of no use any more (onConnect aborts one not yet sent).
    this.abortUpstream?.(new GaveUpError(failure.code));
  }

  /** Reads and drops the rest of the request body, bounded, before the connection closes (lingering-close.ts). */
  private linger(): void {
    lingeringClose(this.req, this.res, this.lane.linger, (outcome) => this.lane.lingered(outcome));
  }

  private clientClosed(): void {
    if (this.done) return;
    this.error = CLIENT_ABORTED;
    this.finish();
    this.abortUpstream?.(new ClientAbortedError());
  }

  /** Once per exchange, whichever way it ends (completed, failed, or the client left). */
  private finish(): void {
    if (this.done) return;
    this.done = true;
    this.ticket?.cancel();
    this.ticket = null;
    this.upstreamBody = null;
    if (this.reading !== null) this.lane.sendPace.unwatch(this.reading);
    if (this.body !== null) {
      // A body cut off while it was being buffered is captured as far as it came (flagged incomplete below).
      const prefix = this.body.bufferedPrefix();
      if (prefix !== null && prefix.byteLength > 0 && this.requestCopy === null && this.capture && this.decision.captureRequestBody) {
        this.requestCopy = new BoundedCopy(this.lane.maxBodyBytes, prefix.byteLength, this.lane.copyBudget);
        this.requestCopy.keep(prefix);
        this.lane.metrics.bodyCopy('request_body');
      }
      this.body.stop();
    }
    try {
      const { decision, req, lane } = this;
      const seconds = (performance.now() - this.startedAt) / 1000;
      // The last matching rule's glob, from the decision itself: a reload may have swapped the lane's rules since.
      const route = decision.routes[decision.routes.length - 1] ?? 'unmatched';
      const status = this.status === 0 ? CLIENT_CLOSED_STATUS : this.status;
      // Label headers are read once: for the metric dimensions and, when captured, for the exchange.
      const labels = this.capture || lane.dimensions.names.length > 0 ? extractLabels(decision, req.rawHeaders) : NO_LABELS;
      lane.metrics.observe(route, req.method!, status, lane.dimensions.valuesOf(labels), seconds);
      if (this.capture) this.publish(seconds * 1000, labels);
    } catch (bug) {
      this.lane.report(bug);
      // Whatever was not published must not hold the lane's budget.
      this.requestCopy?.release();
      this.responseCopy?.release();
    }
    this.lane.exchangeDone();
  }

  private publish(durationMs: number, labels: Record<string, string>): void {
    const exchange = rawExchange({
      decision: this.decision, time: this.time, method: this.req.method!, target: this.req.url!, labels,
      requestHeaders: this.req.rawHeaders, responseHeaders: this.responseHeaders, status: this.status, durationMs,
      requestCopy: this.requestCopy, responseCopy: this.responseCopy,
      requestEnded: this.body?.ended === true, responseEnded: this.responseEnded, error: this.error,
    });
    this.requestCopy = null;
    this.responseCopy = null;
    // The bytes held travel with the exchange: the telemetry lane gives them back (and zeroes heldBytes) when done
    // with it, or when its queue drops it. Published to no one, they come back here.
    if (this.lane.bus.publish('gateway.exchange', exchange) === 0 && exchange.heldBytes! > 0) {
      this.lane.copyBudget.give(exchange.heldBytes!);
      exchange.heldBytes = 0;
    }
  }
}
