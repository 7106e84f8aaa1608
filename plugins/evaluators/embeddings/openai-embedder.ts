import { tagVector } from './cosine.js';
import { EmbeddingError } from './embedding-error.js';
import type { Embedder, Embedding, EmbeddingProvider } from './types.js';

export interface OpenAIEmbedderOptions {
  /** Per request, per attempt (ms). */
  timeoutMs?: number;
  /** Attempts per request, the first included, for 429, 5xx, timeouts and network failures. */
  attempts?: number;
  /** First backoff (ms), doubled per attempt with jitter, when the provider sends no Retry-After. */
  backoffMs?: number;
  /** A Retry-After longer than this (ms) is not waited for: the call fails as retryable, carrying the delay. */
  maxRetryAfterMs?: number;
  /** Inputs per request (OpenAI accepts 2,048; a smaller batch keeps one request's tokens well under its limit). */
  batchSize?: number;
}

const DEFAULTS: Required<OpenAIEmbedderOptions> = { timeoutMs: 30_000, attempts: 4, backoffMs: 500, maxRetryAfterMs: 60_000, batchSize: 128 };

/** Milliseconds from `retry-after-ms` (OpenAI's) or `Retry-After` (seconds or an HTTP date); undefined if absent. */
export function retryAfterMs(headers: Headers, now = Date.now()): number | undefined {
  const ms = headers.get('retry-after-ms');
  if (ms !== null && /^\d+(\.\d+)?$/.test(ms.trim())) return Number(ms.trim());
  const value = headers.get('retry-after')?.trim();
  if (!value) return undefined;
  if (/^\d+(\.\d+)?$/.test(value)) return Number(value) * 1000;
  // An HTTP date names its weekday and month; Date.parse alone would read '-5' as a year.
  const at = /[a-z]/i.test(value) ? Date.parse(value) : Number.NaN;
  return Number.isNaN(at) ? undefined : Math.max(0, at - now);
}

/** Waits `ms`, or rejects as soon as `signal` fires. */
function sleep(ms: number, signal?: AbortSignal): Promise<void> {
  return new Promise((resolve, reject) => {
    if (signal?.aborted) { reject(aborted()); return; }
    const timer = setTimeout(() => { signal?.removeEventListener('abort', onAbort); resolve(); }, ms);
    const onAbort = (): void => { clearTimeout(timer); reject(aborted()); };
    signal?.addEventListener('abort', onAbort, { once: true });
  });
}

function aborted(): EmbeddingError {
  return new EmbeddingError('aborted', 'embedding aborted by the caller');
}

/** A base64 embedding: little-endian float32s, as OpenAI sends them for `encoding_format: "base64"`. */
function decodeBase64(text: string): Float32Array {
  const bytes = Buffer.from(text, 'base64');
  if (bytes.length % 4 !== 0) throw new Error(`a base64 embedding of ${bytes.length} bytes is not float32s`);
  const out = new Float32Array(bytes.length / 4);
  for (let i = 0; i < out.length; i++) out[i] = bytes.readFloatLE(i * 4);
  return out;
}

/**
 * Splits a request's token count over its texts in proportion to their lengths (largest remainder, so the parts add
 * up to the total exactly): the provider reports usage per request, and a result records the tokens of its text.
 */
export function apportion(total: number, texts: readonly string[]): number[] {
  const lengths = texts.map((t) => Math.max(1, t.length));
  const sum = lengths.reduce((a, b) => a + b, 0);
  const exact = lengths.map((l) => (total * l) / sum);
  const parts = exact.map(Math.floor);
  let left = total - parts.reduce((a, b) => a + b, 0);
  const order = exact.map((x, i) => [x - Math.floor(x), i] as const).sort((a, b) => b[0] - a[0]);
  for (let k = 0; left > 0; k = (k + 1) % order.length, left--) parts[order[k][1]]++;
  return parts;
}

/**
 * An OpenAI-compatible `POST {base_url}/embeddings` client. It asks for base64 (as the openai SDK does; a quarter of
 * the JSON) and reads floats too, since some compatible servers ignore `encoding_format`. 429, 5xx, timeouts and
 * network failures are retried with backoff, honouring Retry-After; anything else fails at once. The caller's
 * signal aborts the request and any wait.
 */
export class OpenAIEmbedder implements Embedder {
  readonly method = 'openai' as const;
  readonly model: string;
  private readonly url: string;
  private readonly options: Required<OpenAIEmbedderOptions>;

  constructor(private readonly provider: EmbeddingProvider, options: OpenAIEmbedderOptions = {}) {
    let base: URL;
    try {
      base = new URL(provider.base_url);
    } catch {
      throw new EmbeddingError('rejected', `embeddings provider: base_url ${JSON.stringify(provider.base_url)} is not a URL`);
    }
    if (base.protocol !== 'http:' && base.protocol !== 'https:') {
      throw new EmbeddingError('rejected', `embeddings provider: base_url must be http(s), not ${base.protocol}`);
    }
    if (!provider.model) throw new EmbeddingError('rejected', 'embeddings provider: model is empty');
    this.url = `${base.href.replace(/\/+$/, '')}/embeddings`;
    this.model = provider.model;
    this.options = { ...DEFAULTS, ...options };
  }

  async embed(texts: string[], signal?: AbortSignal): Promise<Embedding[]> {
    const out: Embedding[] = [];
    for (let i = 0; i < texts.length; i += this.options.batchSize) {
      out.push(...(await this.request(texts.slice(i, i + this.options.batchSize), signal)));
    }
    return out;
  }

  private async request(texts: string[], signal?: AbortSignal): Promise<Embedding[]> {
    // OpenAI refuses an empty string; one space embeds as near-nothing and keeps the positions.
    const body = JSON.stringify({ model: this.model, input: texts.map((t) => (t === '' ? ' ' : t)), encoding_format: 'base64' });
    const headers: Record<string, string> = { 'content-type': 'application/json', accept: 'application/json' };
    if (this.provider.api_key) headers.authorization = `Bearer ${this.provider.api_key}`;
    let last: EmbeddingError | undefined;
    for (let attempt = 1; attempt <= this.options.attempts; attempt++) {
      if (signal?.aborted) throw aborted();
      if (last) {
        const backoff = this.options.backoffMs * 2 ** (attempt - 2) * (0.5 + Math.random() / 2);
        await sleep(last.retryAfterMs ?? backoff, signal);
      }
      const deadline = AbortSignal.timeout(this.options.timeoutMs);
      let response: Response;
      let text: string;
      try {
        response = await fetch(this.url, { method: 'POST', headers, body, signal: signal ? AbortSignal.any([signal, deadline]) : deadline });
        text = await response.text();
      } catch (err) {
        if (signal?.aborted) throw aborted();
        last = deadline.aborted
          ? new EmbeddingError('timeout', `${this.url} did not answer within ${this.options.timeoutMs} ms`, { retryable: true })
          : new EmbeddingError('unavailable', `${this.url}: ${(err as Error).message}${causeOf(err)}`, { retryable: true, cause: err });
        continue;
      }
      if (response.ok) return this.parse(text, texts);
      const detail = errorMessage(text);
      if (response.status === 429 || response.status >= 500) {
        const wait = retryAfterMs(response.headers);
        last = new EmbeddingError(response.status === 429 ? 'rate_limited' : 'unavailable',
          `${this.url} answered ${response.status}${detail}`, { retryable: true, status: response.status, retryAfterMs: wait });
        if (wait !== undefined && wait > this.options.maxRetryAfterMs) break;
        continue;
      }
      throw new EmbeddingError('rejected', `${this.url} answered ${response.status}${detail}`, { status: response.status });
    }
    throw new EmbeddingError(last!.reason, `${last!.message} (after ${this.options.attempts} attempts or a Retry-After over ${this.options.maxRetryAfterMs} ms)`, {
      retryable: true, status: last!.status, retryAfterMs: last!.retryAfterMs,
    });
  }

  private parse(text: string, texts: string[]): Embedding[] {
    const bad = (what: string): EmbeddingError => new EmbeddingError('bad_response', `${this.url}: ${what}`);
    let body: { data?: unknown; usage?: { prompt_tokens?: unknown; total_tokens?: unknown } };
    try {
      body = JSON.parse(text);
    } catch {
      throw bad('the answer is not JSON');
    }
    if (!Array.isArray(body?.data) || body.data.length !== texts.length) {
      throw bad(`expected ${texts.length} embeddings, got ${Array.isArray(body?.data) ? body.data.length : 'no data list'}`);
    }
    const vectors: Float32Array[] = new Array(texts.length);
    let dims = 0;
    for (const [position, item] of (body.data as { index?: unknown; embedding?: unknown }[]).entries()) {
      const index = typeof item?.index === 'number' ? item.index : position;
      if (!Number.isInteger(index) || index < 0 || index >= texts.length || vectors[index]) throw bad(`embedding index ${String(item?.index)} is out of place`);
      let vector: Float32Array;
      if (typeof item.embedding === 'string') {
        try { vector = decodeBase64(item.embedding); } catch (err) { throw bad((err as Error).message); }
      } else if (Array.isArray(item.embedding) && item.embedding.every((x) => typeof x === 'number')) {
        vector = Float32Array.from(item.embedding as number[]);
      } else {
        throw bad(`embedding ${index} is neither a float list nor base64`);
      }
      if (vector.length === 0 || vector.some((x) => !Number.isFinite(x))) throw bad(`embedding ${index} is empty or not finite`);
      if (dims !== 0 && vector.length !== dims) throw bad('embeddings of different dimensions in one answer');
      dims = vector.length;
      vectors[index] = vector;
    }
    const usage = body.usage?.prompt_tokens ?? body.usage?.total_tokens;
    const tokens = typeof usage === 'number' && usage >= 0 ? apportion(Math.round(usage), texts) : texts.map(() => 0);
    return vectors.map((vector, i) => ({ vector: tagVector(vector, this.method, this.model), method: this.method, model: this.model, tokens: tokens[i] }));
  }
}

function causeOf(err: unknown): string {
  const cause = (err as { cause?: { code?: string; message?: string } }).cause;
  return cause ? ` (${cause.code ?? cause.message})` : '';
}

/** The provider's own words, from OpenAI's `{ error: { message } }`, or the start of the body. */
function errorMessage(text: string): string {
  try {
    const message = (JSON.parse(text) as { error?: { message?: unknown } })?.error?.message;
    if (typeof message === 'string' && message) return `: ${message.slice(0, 300)}`;
  } catch { /* not JSON */ }
  return text.trim() ? `: ${text.trim().slice(0, 300)}` : '';
}
