/**
 * `createClient(options)`: the one object an application holds. It turns traces (from `wrapOpenAI` or `trace()`)
 * into encoded items, hands them to the delivery loop, and answers for the client's promises: no method throws into
 * the application, `flush()` and `shutdown()` never reject, and a misconfigured client records nothing and says why
 * once.
 */
import { ClientErrors, VigilClientError } from './errors.js';
import { Delivery } from './delivery.js';
import { encodeItem } from './encode-item.js';
import { registerExitFlush, unregisterExitFlush } from './exit-flush.js';
import { normaliseItem, type TraceAttributes, type TraceInput } from './normalise-item.js';
import { resolveOptions, type ClientOptions } from './options.js';
import { createTransport } from './post-batch.js';
import { controlPlaneBase, PromptFetcher, type GetPromptOptions } from './prompt-fetcher.js';
import type { VigilPrompt } from './prompt-text.js';
import { TraceBuffer } from './trace-buffer.js';
import type { PromptTemplateRef } from './trace-item.js';
import { TraceScope } from './trace-scope.js';
import { wrapOpenAI } from './wrap-openai.js';

export interface ClientStats {
  /** Items Vigil accepted. */
  sent: number;
  /** Items the client gave up on (buffer full, refused batch, retries exhausted, not delivered at shutdown, invalid). */
  dropped: number;
  /** Items Vigil rejected one by one (counted, never retried). */
  rejected: number;
  /** Attempts after a batch's first. */
  retries: number;
  /** Items held now, waiting or in flight. */
  buffered: number;
  /** Bytes of item JSON held now. */
  bufferedBytes: number;
}

export interface VigilClient {
  /** Records a trace by hand; returns its id (a UUID), or undefined when it had no model and was dropped. */
  trace(input: TraceInput): string | undefined;
  /** Records every chat.completions / responses / embeddings call of this openai client; returns the same client. */
  wrapOpenAI<T>(openai: T): T;
  /** The same as wrapOpenAI. */
  wrap<T>(openai: T): T;
  /** Runs fn; traces made inside it (wrapped calls included, across awaits) carry these attributes. Returns fn's result. */
  withTrace<R>(attributes: TraceAttributes, fn: () => R): R;
  /** withTrace for the prompt template alone: `withPrompt({ name, raw, variables }, () => openai.chat.completions.create(…))`. */
  withPrompt<R>(template: PromptTemplateRef, fn: () => R): R;
  /** Sends everything recorded so far; true when it all settled within the deadline (default shutdownTimeoutMs). */
  flush(options?: { timeoutMs?: number }): Promise<boolean>;
  /** Flushes, then stops: what could not be sent by the deadline is dropped and counted; later traces are dropped. */
  shutdown(options?: { timeoutMs?: number }): Promise<void>;
  stats(): ClientStats;
  /**
   * A prompt kept in Vigil, by name and label (default `production`) or version, cached (stale-while-revalidate);
   * when Vigil cannot be asked: the cached copy, else `fallback` (`isFallback: true`); rejects only with neither.
   * Run calls inside `withPrompt(prompt.template(variables), fn)` to count their traces to the version.
   */
  getPrompt(name: string, options?: GetPromptOptions): Promise<VigilPrompt>;
}

const WARN_EVERY_MS = 60_000;

/** The default onError: a process warning, at most once a minute per code, so a dead server cannot flood stderr. */
function warnOncePerMinute(): (err: VigilClientError) => void {
  const last = new Map<string, number>();
  return (err) => {
    const now = Date.now();
    if (now - (last.get(err.code) ?? -Infinity) < WARN_EVERY_MS) return;
    last.set(err.code, now);
    process.emitWarning(`${err.code}: ${err.message}`, { type: 'VigilClientWarning', code: err.code });
  };
}

export function createClient(options: ClientOptions = {}): VigilClient {
  const o = resolveOptions(options);
  const onError = typeof options?.onError === 'function' ? options.onError : warnOncePerMinute();
  const report = (err: VigilClientError): void => {
    try { onError(err); } catch { /* onError is the application's; its failure is not ours to raise */ }
  };
  const internal = (err: unknown): void =>
    report(new VigilClientError(ClientErrors.INTERNAL, `${(err as Error)?.stack ?? String(err)}`));

  const scope = new TraceScope();
  const prompts = new PromptFetcher(controlPlaneBase(o.endpoint), o.projectKey, report);
  const buffer = new TraceBuffer(o.maxBufferItems, o.maxBufferBytes);
  let invalid = 0;
  let disabledDrops = 0;
  const delivery = o.unusable
    ? undefined
    : new Delivery(buffer, createTransport({ endpoint: o.endpoint!, projectKey: o.projectKey!, timeoutMs: o.timeoutMs, gzipMinBytes: o.gzipMinBytes }), o, report);
  if (o.unusable) {
    const err = new VigilClientError(ClientErrors.CONFIG, `@vigil/llm-client records nothing: ${o.unusable}`);
    // Next tick: an onError that refers to the client finds it assigned.
    process.nextTick(() => report(err));
  }

  let shutdownPromise: Promise<void> | undefined;
  /** Set when a flush at exit could not deliver: the next beforeExit must not start another one. */
  let exitGaveUp = false;

  function record(input: TraceInput, attributes: TraceAttributes | undefined): string | undefined {
    try {
      const item = normaliseItem(input, attributes);
      if (!item) {
        invalid++;
        report(new VigilClientError(ClientErrors.INVALID_ITEM, 'a trace without a model (a non-empty string) was dropped', 1));
        return undefined;
      }
      if (!delivery) {
        disabledDrops++;
        return item.id;
      }
      delivery.enqueue(encodeItem(item, o.maxItemBytes));
      return item.id;
    } catch (err) {
      internal(err);
      return undefined;
    }
  }

  const recorder = {
    captureContent: o.captureContent,
    scope: () => scope.current(),
    record: (input: TraceInput, attributes: TraceAttributes | undefined) => { record(input, attributes); },
    internal,
  };

  const exitHook = {
    flushOnExit(): Promise<void> | void {
      if (!delivery || exitGaveUp || shutdownPromise || buffer.items === 0) return;
      return delivery.flush(o.shutdownTimeoutMs).then((done) => {
        if (done) return;
        exitGaveUp = true;
        return delivery.stop();
      });
    },
  };

  const client: VigilClient = {
    trace: (input) => record(input, scope.current()),
    wrapOpenAI: (openai) => wrapOpenAI(openai, recorder),
    wrap: (openai) => wrapOpenAI(openai, recorder),
    withTrace: (attributes, fn) => scope.run(attributes, fn),
    withPrompt: (template, fn) => scope.run({ prompt_template: template }, fn),

    async flush(opts) {
      if (!delivery) return true;
      try { return await delivery.flush(timeoutOf(opts, o.shutdownTimeoutMs)); } catch (err) { internal(err); return false; }
    },

    shutdown(opts) {
      shutdownPromise ??= (async () => {
        unregisterExitFlush(exitHook);
        if (!delivery) return;
        try {
          await delivery.flush(timeoutOf(opts, o.shutdownTimeoutMs));
        } catch (err) {
          internal(err);
        }
        await delivery.stop();
      })();
      return shutdownPromise;
    },

    getPrompt: (name, opts) => prompts.get(name, opts),

    stats() {
      const c = delivery?.counts ?? { sent: 0, dropped: 0, rejected: 0, retries: 0 };
      return {
        sent: c.sent,
        dropped: c.dropped + invalid + disabledDrops,
        rejected: c.rejected,
        retries: c.retries,
        buffered: buffer.items,
        bufferedBytes: buffer.bytes,
      };
    },
  };
  if (delivery && o.flushOnExit) registerExitFlush(exitHook);
  return client;
}

function timeoutOf(opts: { timeoutMs?: number } | undefined, fallback: number): number {
  const t = opts?.timeoutMs;
  return typeof t === 'number' && Number.isFinite(t) && t >= 0 ? t : fallback;
}
