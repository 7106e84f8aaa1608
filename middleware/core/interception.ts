import type { IncomingMessage, ServerResponse } from 'node:http';
import { performance } from 'node:perf_hooks';
import type { RawExchange } from '../../gateway/exchange/raw-exchange.js';
import type { CompiledPolicy, RouteDecision } from '../../policies/compile.js';
import { extractLabels } from '../../policies/extract-labels.js';
import { BoundedCopy, type CopyBudget } from '../../gateway/exchange/bounded-copy.js';
import { rawExchange } from '../../gateway/exchange/raw-exchange.js';
import { mayHaveBody } from '../../gateway/exchange/response-headers.js';
import { sentResponseHeaders } from './sent-headers.js';

/** What an interception needs from the middleware that runs it. */
export interface InterceptionLane {
  /** The policy requests are decided by (the gateway's `decide`). */
  readonly policy: CompiledPolicy;
  /** `capture.max_body_bytes`. */
  readonly maxBodyBytes: number;
  /** Bytes of body copies held at once, from the first chunk copied until governance is done with them. */
  readonly budget: CopyBudget;
  /** Hands a finished exchange to governance (which gives its `heldBytes` back). */
  publish(exchange: RawExchange): void;
  /** Something threw that should not have: counted and logged, never thrown into the app. */
  report(err: unknown): void;
}

const CLIENT_ABORTED = 'client_aborted';
/** How long a finished response waits for the rest of a request body Node is still reading (then: incomplete). */
const REQUEST_END_WAIT_MS = 1_000;

/**
 * The one interception code path of @vigil/express and @vigil/koa: both hand it Node's request and response. The
 * policy decision comes first, before anything is attached: a route that captures nothing returns here having
 * allocated nothing. Otherwise the bytes the app reads and writes are copied as they pass (bounded, as the gateway
 * copies them), and when the exchange is over it is published as the same `RawExchange` the gateway's proxy builds.
 */
export function intercept(lane: InterceptionLane, req: IncomingMessage, res: ServerResponse): void {
  let decision: RouteDecision;
  // Express rewrites `req.url` inside mounted routers; the target as received is what the gateway decides on.
  const target = (req as { originalUrl?: string }).originalUrl ?? req.url ?? '/';
  try {
    decision = lane.policy.decide(req.method ?? 'GET', target);
  } catch (err) {
    lane.report(err);
    return;
  }
  if (!decision.captureRequestBody && !decision.captureResponseBody && !decision.captureHeaders) return;
  new Interception(lane, req, res, decision, target).attach();
}

/**
 * One captured exchange. It watches without taking part: the request's chunks are seen as the request emits them to
 * whoever reads it (its `emit`, so flowing mode and backpressure stay the app's), the response's as the app hands
 * them to `write` and `end`. Every chunk is copied synchronously into a bounded buffer; none is held or changed.
 */
class Interception {
  private readonly time = Date.now();
  private readonly startedAt = performance.now();
  private requestCopy: BoundedCopy | null = null;
  private responseCopy: BoundedCopy | null = null;
  private requestEnded = false;
  private responseEnded = false;
  private error: string | undefined;
  private done = false;

  constructor(
    private readonly lane: InterceptionLane,
    private readonly req: IncomingMessage,
    private readonly res: ServerResponse,
    private readonly decision: RouteDecision,
    private readonly target: string,
  ) {}

  attach(): void {
    const { res, decision } = this;
    if (decision.captureRequestBody) this.watchRequest();
    if (decision.captureResponseBody) this.watchResponse();
    res.once('finish', () => {
      this.responseEnded = true;
      this.afterResponse();
    });
    res.once('close', () => {
      if (this.responseEnded) return;
      this.error = CLIENT_ABORTED;
      this.finish();
    });
  }

  private watchRequest(): void {
    const req = this.req;
    const emit = req.emit;
    req.emit = ((event: string | symbol, ...args: unknown[]) => {
      if (event === 'data') this.requestChunk(args[0]);
      else if (event === 'end') this.requestEnded = true;
      return emit.call(req, event, ...args);
    }) as typeof req.emit;
  }

  private watchResponse(): void {
    const res = this.res;
    const write = res.write;
    const end = res.end;
    res.write = ((...args: unknown[]) => {
      this.responseChunk(args[0], args[1]);
      return (write as (...a: unknown[]) => boolean).apply(res, args);
    }) as typeof res.write;
    // Node's `end` writes its chunk itself, never through `write`: each chunk is seen once.
    res.end = ((...args: unknown[]) => {
      this.responseChunk(args[0], args[1]);
      return (end as (...a: unknown[]) => ServerResponse).apply(res, args);
    }) as typeof res.end;
  }

  private requestChunk(chunk: unknown): void {
    if (this.done) return;
    const bytes = toBytes(chunk, this.req.readableEncoding ?? undefined);
    if (bytes === null) return;
    this.requestCopy ??= new BoundedCopy(this.lane.maxBodyBytes, declaredLength(this.req.headers['content-length']), this.lane.budget);
    this.requestCopy.push(bytes);
  }

  private responseChunk(chunk: unknown, encoding: unknown): void {
    if (this.done || this.responseEnded) return;
    if (!mayHaveBody(this.req.method, this.res.statusCode)) return;
    const bytes = toBytes(chunk, typeof encoding === 'string' ? encoding as BufferEncoding : undefined);
    if (bytes === null) return;
    this.responseCopy ??= new BoundedCopy(this.lane.maxBodyBytes, declaredLength(this.res.getHeader('content-length')), this.lane.budget);
    this.responseCopy.push(bytes);
  }

  /**
   * The response is complete. A request body not read to its end yet (the app never read it, and Node reads it off
   * now to reuse the connection) is waited for, briefly, so the copy holds what the gateway would have seen.
   */
  private afterResponse(): void {
    const req = this.req;
    if (!this.decision.captureRequestBody || this.requestEnded || req.destroyed || this.nothingLeftToRead()) {
      this.finish();
      return;
    }
    const timer = setTimeout(() => this.finish(), REQUEST_END_WAIT_MS);
    timer.unref();
    const done = () => { clearTimeout(timer); this.finish(); };
    req.once('end', () => setImmediate(done));
    req.once('close', done);
  }

  /** The parser has the whole request and nothing of it waits unread (a request without a body, mostly). */
  private nothingLeftToRead(): boolean {
    return this.req.complete && this.req.readableLength === 0;
  }

  /** Once per exchange, whichever way it ends. Never throws into the app. */
  private finish(): void {
    if (this.done) return;
    this.done = true;
    try {
      this.publish();
    } catch (err) {
      this.requestCopy?.release();
      this.responseCopy?.release();
      this.lane.report(err);
    }
  }

  /** The exchange the gateway's proxy would publish (the same rawExchange), from what the app received and sent. */
  private publish(): void {
    const { req, res } = this;
    const exchange = rawExchange({
      decision: this.decision, time: this.time, method: req.method ?? 'GET', target: this.target,
      labels: extractLabels(this.decision, req.rawHeaders), requestHeaders: req.rawHeaders,
      responseHeaders: this.decision.captureHeaders ? sentResponseHeaders(res) : null,
      status: res.headersSent ? res.statusCode : 0, durationMs: performance.now() - this.startedAt,
      requestCopy: this.requestCopy, responseCopy: this.responseCopy,
      requestEnded: this.requestEnded || this.nothingLeftToRead(), responseEnded: this.responseEnded, error: this.error,
    });
    this.requestCopy = null;
    this.responseCopy = null;
    this.lane.publish(exchange);
  }
}

/** A chunk as bytes: Buffers and typed arrays as they are, strings in their encoding; anything else is no chunk. */
function toBytes(chunk: unknown, encoding: BufferEncoding | undefined): Uint8Array | null {
  if (chunk instanceof Uint8Array) return chunk;
  if (typeof chunk === 'string') return chunk === '' ? null : Buffer.from(chunk, encoding ?? 'utf8');
  return null;
}

/** A declared Content-Length, or -1 (unknown, or not a length). */
function declaredLength(value: unknown): number {
  const n = typeof value === 'number' ? value : typeof value === 'string' ? Number(value) : NaN;
  return Number.isSafeInteger(n) && n >= 0 ? n : -1;
}
