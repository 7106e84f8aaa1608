/**
 * `client.wrapOpenAI(openai)`: records every `chat.completions.create`, `responses.create` and `embeddings.create` of
 * one openai client (v4 to v6, and the helpers built on them: `.stream()`, `.parse()`, `runTools()`), without changing
 * what the application sends, receives or catches.
 *
 * How it stays invisible: the client's `create` methods are replaced on the instance by functions that call the
 * original with the same `this` and arguments. The APIPromise openai returns is extended with openai's own
 * `_thenUnwrap` (what openai itself uses for `responses.create` and embeddings), which gives back an APIPromise that
 * still has `withResponse()` and `asResponse()`, parses nothing until the application awaits it, and resolves to the
 * very object openai parsed. Errors are observed on the request's own promise and reach the application unchanged.
 * Any failure inside this code is reported as VIGIL_ERR_CLIENT_INTERNAL and the call goes on untouched.
 */
import { performance } from 'node:perf_hooks';
import type { TraceAttributes, TraceInput } from './normalise-item.js';
import { describeError, describeRequest, describeResult, type CallRequest, type CallResult, type Operation } from './openai-calls.js';
import { toSafeJson } from './safe-json.js';
import { accumulatorFor, watchStream, type StreamEnd } from './stream-observer.js';

/** What the wrapper needs from the client. */
export interface Recorder {
  captureContent: boolean;
  scope(): TraceAttributes | undefined;
  record(input: TraceInput, scope: TraceAttributes | undefined): void;
  internal(err: unknown): void;
}

/** Marks a wrapped resource (and keeps its original method): wrapping twice records once. */
const WRAPPED = Symbol.for('vigil.llm-client.wrapped');

type Obj = Record<string | symbol, unknown>;
const isObj = (v: unknown): v is Obj => typeof v === 'object' && v !== null;

export function wrapOpenAI<T>(openai: T, recorder: Recorder): T {
  try {
    const o = openai as unknown as Obj;
    if (!isObj(o)) return openai;
    const chat = o.chat as Obj | undefined;
    patch(isObj(chat) ? chat.completions : undefined, 'chat.completions', recorder);
    patch(o.responses, 'responses', recorder);
    patch(o.embeddings, 'embeddings', recorder);
  } catch (err) {
    recorder.internal(err);
  }
  return openai;
}

function patch(resource: unknown, operation: Operation, recorder: Recorder): void {
  if (!isObj(resource) || typeof resource.create !== 'function' || resource[WRAPPED]) return;
  const original = resource.create as (...args: unknown[]) => unknown;
  const create = function create(this: unknown, ...args: unknown[]): unknown {
    return observeCall(operation, original, this, args, recorder);
  };
  Object.defineProperty(resource, 'create', { value: create, writable: true, configurable: true, enumerable: false });
  Object.defineProperty(resource, WRAPPED, { value: original, configurable: true });
}

function observeCall(operation: Operation, original: (...args: unknown[]) => unknown, self: unknown, args: unknown[], recorder: Recorder): unknown {
  let call: Call | undefined;
  try { call = new Call(operation, args[0], recorder); } catch (err) { recorder.internal(err); }
  let result: unknown;
  try {
    result = original.apply(self, args);
  } catch (err) {
    call?.fail(err);
    throw err;
  }
  if (!call) return result;
  try { return call.observe(result); } catch (err) { recorder.internal(err); return result; }
}

/** One call, from `create()` to its answer (or, for a stream, to its end). Records exactly one trace. */
class Call {
  private readonly startedAt = new Date();
  private readonly t0 = performance.now();
  private readonly scope: TraceAttributes | undefined;
  private readonly request: CallRequest;
  /** When the answer's headers arrived: a plain call's latency ends here, not when the application gets round to it. */
  private answeredAt: number | undefined;
  private firstChunkAt: number | undefined;
  private recorded = false;

  constructor(private readonly operation: Operation, body: unknown, private readonly recorder: Recorder) {
    this.scope = recorder.scope();
    this.request = describeRequest(operation, body);
    // Copied now: applications push the answer onto the same messages array right after the call.
    this.request.input = recorder.captureContent ? toSafeJson(this.request.input) : undefined;
    if (this.request.parameters) this.request.parameters = toSafeJson(this.request.parameters) as Record<string, unknown>;
  }

  observe(result: unknown): unknown {
    const p = result as Obj | undefined;
    const responsePromise = p?.responsePromise as Promise<unknown> | undefined;
    if (isObj(p) && typeof p._thenUnwrap === 'function' && typeof responsePromise?.then === 'function') {
      // A handler here marks the request's promise as handled: an application that never awaits a failing call
      // gets no unhandled rejection from it (it would have without the wrapper); it gets a recorded error instead.
      responsePromise.then(() => { this.answeredAt = performance.now(); }, (err: unknown) => this.fail(err));
      return (p._thenUnwrap as (f: (v: unknown) => unknown) => unknown)((value: unknown) => {
        this.succeed(value);
        return value;
      });
    }
    if (isObj(p) && typeof p.then === 'function') {
      // Not an APIPromise (an older or wrapped client): watch the same promise, hand back the same object.
      (p as unknown as PromiseLike<unknown>).then((v) => this.succeed(v), (err: unknown) => this.fail(err));
      return result;
    }
    this.succeed(result);
    return result;
  }

  private succeed(value: unknown): void {
    try {
      if (this.request.stream) {
        const acc = accumulatorFor(this.operation);
        const requestId = requestIdOf(value);
        if (acc && watchStream(value, {
          chunk: (chunk) => { this.firstChunkAt ??= performance.now(); acc.add(chunk); },
          end: (end: StreamEnd) => {
            const result = acc.result();
            if (end.how === 'failed') {
              const e = describeError(end.error);
              Object.assign(result, { status: e.status, error: e.error, metadata: { ...result.metadata, ...e.metadata } });
            }
            if (end.how === 'left') result.metadata = { ...result.metadata, stream_left_early: true };
            this.finish(result, performance.now(), requestId);
          },
        })) return;
      }
      this.finish(describeResult(this.operation, value), this.answeredAt ?? performance.now(), requestIdOf(value));
    } catch (err) {
      this.recorder.internal(err);
    }
  }

  fail(err: unknown): void {
    try { this.finish(describeError(err), performance.now()); } catch (e) { this.recorder.internal(e); }
  }

  private finish(result: CallResult, endedAt: number, requestId?: string): void {
    if (this.recorded) return;
    this.recorded = true;
    const { request, operation } = this;
    const metadata: Obj = { operation };
    if (request.stream) metadata.stream = true;
    if (request.parameters) metadata.parameters = request.parameters;
    if (this.firstChunkAt !== undefined) metadata.time_to_first_chunk_ms = round(this.firstChunkAt - this.t0);
    if (requestId) metadata.request_id = requestId;
    Object.assign(metadata, result.metadata);
    const capture = this.recorder.captureContent;
    this.recorder.record({
      model: result.model ?? request.model ?? 'unknown',
      name: this.scope?.name ?? `openai.${operation}`,
      provider: 'openai',
      status: result.status ?? 'ok',
      error: result.error,
      start_time: this.startedAt,
      latency_ms: round(Math.max(endedAt - this.t0, 0.001)),
      tokens: result.tokens,
      input: capture ? request.input : undefined,
      output: capture ? result.output : undefined,
      metadata: metadata as Record<string, unknown>,
    }, this.scope);
  }
}

/** Milliseconds to the microsecond: more digits are noise. */
const round = (ms: number): number => Math.round(ms * 1000) / 1000;

function requestIdOf(value: unknown): string | undefined {
  try {
    const id = isObj(value) ? value._request_id : undefined;
    return typeof id === 'string' ? id : undefined;
  } catch { return undefined; }
}
