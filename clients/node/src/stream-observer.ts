/**
 * Observes an openai stream while the application reads it. The Stream object the application receives is the one
 * openai made; only its iterator is wrapped (the `iterator` field that `for await`, `tee()` and `toReadableStream()`
 * all read), so every chunk reaches the application as the very object openai parsed, errors are rethrown as they
 * are, and breaking out early still aborts the request. The trace is recorded when the stream ends, fails or is left.
 */
import { chatTokens, describeResponse, type CallResult, type Operation } from './openai-calls.js';

type Obj = Record<string, unknown>;
const isObj = (v: unknown): v is Obj => typeof v === 'object' && v !== null;

/** Folds a stream's chunks into what a non-streamed call would have returned. */
export interface StreamAccumulator {
  add(chunk: unknown): void;
  result(): CallResult;
}

interface ChoiceState {
  role?: string;
  content: string;
  refusal: string;
  toolCalls: Map<number, { id?: string; type?: string; function: { name: string; arguments: string } }>;
  finishReason?: string;
}

/** Chat completion chunks: content by choice, tool-call arguments by index, usage from the last chunk when asked for. */
export function chatAccumulator(): StreamAccumulator {
  let model: string | undefined;
  let usage: unknown;
  const choices = new Map<number, ChoiceState>();
  return {
    add(chunk) {
      if (!isObj(chunk)) return;
      if (typeof chunk.model === 'string') model = chunk.model;
      if (isObj(chunk.usage)) usage = chunk.usage;
      for (const c of Array.isArray(chunk.choices) ? chunk.choices : []) {
        if (!isObj(c)) continue;
        const index = typeof c.index === 'number' ? c.index : 0;
        let state = choices.get(index);
        if (!state) choices.set(index, state = { content: '', refusal: '', toolCalls: new Map() });
        if (typeof c.finish_reason === 'string') state.finishReason = c.finish_reason;
        const delta = isObj(c.delta) ? c.delta : {};
        if (typeof delta.role === 'string') state.role = delta.role;
        if (typeof delta.content === 'string') state.content += delta.content;
        if (typeof delta.refusal === 'string') state.refusal += delta.refusal;
        for (const t of Array.isArray(delta.tool_calls) ? delta.tool_calls : []) {
          if (!isObj(t)) continue;
          const ti = typeof t.index === 'number' ? t.index : 0;
          let call = state.toolCalls.get(ti);
          if (!call) state.toolCalls.set(ti, call = { function: { name: '', arguments: '' } });
          if (typeof t.id === 'string') call.id = t.id;
          if (typeof t.type === 'string') call.type = t.type;
          const fn = isObj(t.function) ? t.function : {};
          if (typeof fn.name === 'string') call.function.name += fn.name;
          if (typeof fn.arguments === 'string') call.function.arguments += fn.arguments;
        }
      }
    },
    result() {
      const ordered = [...choices.entries()].sort((a, b) => a[0] - b[0]).map(([, s]) => s);
      const messages = ordered.map((s) => {
        const message: Obj = { role: s.role ?? 'assistant', content: s.content || (s.toolCalls.size || s.refusal ? null : '') };
        if (s.refusal) message.refusal = s.refusal;
        if (s.toolCalls.size) message.tool_calls = [...s.toolCalls.entries()].sort((a, b) => a[0] - b[0]).map(([, c]) => c);
        return message;
      });
      const reasons = ordered.map((s) => s.finishReason).filter((r) => r !== undefined);
      const tokens = chatTokens(usage);
      const metadata: Obj = {};
      if (reasons.length) metadata.finish_reason = reasons.length === 1 ? reasons[0] : reasons;
      // Token counts come only with stream_options.include_usage; a trace without them says so rather than guess.
      if (!tokens) metadata.usage_missing = true;
      return { model, tokens, output: messages.length === 1 ? messages[0] : messages, metadata };
    },
  };
}

/** Responses API events: the final `response.completed` (or failed, incomplete) carries everything; deltas are a fallback. */
export function responsesAccumulator(): StreamAccumulator {
  let final: Obj | undefined;
  let model: string | undefined;
  let text = '';
  let error: string | undefined;
  return {
    add(event) {
      if (!isObj(event)) return;
      const response = isObj(event.response) ? event.response : undefined;
      if (response && typeof response.model === 'string') model = response.model;
      if (event.type === 'response.completed' || event.type === 'response.failed' || event.type === 'response.incomplete') final = response;
      else if (event.type === 'response.output_text.delta' && typeof event.delta === 'string') text += event.delta;
      else if (event.type === 'error') error = typeof event.message === 'string' ? event.message : 'the stream reported an error';
    },
    result() {
      if (final) {
        const r = describeResponse(final);
        // A completed response built from events has no output_text helper: join the text the deltas carried.
        if (Array.isArray(r.output) && text && (final.output as unknown[] | undefined)?.every((o) => isObj(o) && o.type === 'message')) r.output = text;
        return r;
      }
      return { model, output: text || undefined, status: error ? 'error' : undefined, error, metadata: { usage_missing: true } };
    },
  };
}

export function accumulatorFor(operation: Operation): StreamAccumulator | undefined {
  if (operation === 'chat.completions') return chatAccumulator();
  if (operation === 'responses') return responsesAccumulator();
  return undefined;
}

/** How a stream ended, for the trace: read to the end, left early by the application, or failed. */
export type StreamEnd = { how: 'done' } | { how: 'left' } | { how: 'failed'; error: unknown };

export interface StreamWatch {
  chunk(value: unknown): void;
  end(end: StreamEnd): void;
}

/** Wraps one async iterator: the same results, the same errors, the same return(); `watch` sees each of them. */
export function watchIterator<T>(it: AsyncIterator<T>, watch: StreamWatch): AsyncIterableIterator<T> {
  const guarded = (fn: () => void): void => { try { fn(); } catch { /* the stream belongs to the application */ } };
  const settle = (p: Promise<IteratorResult<T>>): Promise<IteratorResult<T>> => p.then(
    (r) => { guarded(() => (r.done ? watch.end({ how: 'done' }) : watch.chunk(r.value))); return r; },
    (error: unknown) => { guarded(() => watch.end({ how: 'failed', error })); throw error; },
  );
  const wrapped: AsyncIterableIterator<T> = {
    next: (...args: [] | [unknown]) => settle(it.next(...args)),
    [Symbol.asyncIterator]() { return wrapped; },
  };
  if (typeof it.return === 'function') {
    wrapped.return = (value?: unknown) => {
      guarded(() => watch.end({ how: 'left' }));
      return it.return!(value as T);
    };
  }
  if (typeof it.throw === 'function') wrapped.throw = (e?: unknown) => settle(it.throw!(e));
  return wrapped;
}

/**
 * Observes `stream` in place and returns true, or returns false when it is not a stream this client knows how to
 * watch. openai's Stream keeps its iterator factory in the `iterator` field (v4 to v6); only the first iteration is
 * watched, as openai allows only one.
 */
export function watchStream(stream: unknown, watch: StreamWatch): boolean {
  if (!isObj(stream)) return false;
  const factory = stream.iterator;
  if (typeof factory !== 'function' || typeof (stream as { [Symbol.asyncIterator]?: unknown })[Symbol.asyncIterator] !== 'function') return false;
  let watched = false;
  stream.iterator = function iterator(this: unknown, ...args: unknown[]) {
    const it = factory.apply(this, args) as AsyncIterator<unknown>;
    if (watched) return it;
    watched = true;
    return watchIterator(it, watch);
  };
  return true;
}
