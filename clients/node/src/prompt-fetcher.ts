/**
 * `getPrompt()`: prompts fetched from Vigil by name and label (or version), kept in memory and served
 * stale-while-revalidate. A fresh copy (younger than `cacheTtlMs`) is answered without a request; an older one is
 * answered at once while one background request (with If-None-Match, so an unchanged prompt costs a 304) refreshes
 * it. When Vigil cannot be asked, the last copy keeps being answered; without one, the application's fallback.
 */
import { ClientErrors, VigilClientError } from './errors.js';
import { fallbackPrompt, makePrompt, type ChatEntry, type PromptVersion, type VigilPrompt } from './prompt-text.js';

export interface GetPromptOptions {
  /** The label to fetch (default `production`); `latest` is the newest version. Not with `version`. */
  label?: string;
  /** A version number instead of a label. */
  version?: number;
  /** How long a fetched copy is answered without asking Vigil; after it, it is answered while it refreshes. Default 60,000 ms; 0 asks every time. */
  cacheTtlMs?: number;
  /** Answered (`isFallback: true`) when Vigil cannot be asked and nothing is cached: a text, or chat messages. */
  fallback?: string | ChatEntry[];
  /** The fetch's deadline. Default 5,000 ms. */
  timeoutMs?: number;
}

interface Entry { prompt: VigilPrompt; etag: string | null; fetchedAt: number; refreshing?: Promise<void> }

/** Copies kept: names × labels an application fetches are few; past this the oldest copy goes. */
const MAX_ENTRIES = 1_000;
const DEFAULT_TTL_MS = 60_000;
const DEFAULT_TIMEOUT_MS = 5_000;

export class PromptFetcher {
  private readonly cache = new Map<string, Entry>();
  private readonly inFlight = new Map<string, Promise<Entry>>();

  constructor(
    private readonly base: URL | undefined,
    private readonly projectKey: string | undefined,
    private readonly report: (err: VigilClientError) => void,
    private readonly now: () => number = Date.now,
  ) {}

  async get(name: string, options: GetPromptOptions = {}): Promise<VigilPrompt> {
    if (options.version !== undefined && options.label !== undefined) {
      throw new VigilClientError(ClientErrors.PROMPT_UNAVAILABLE, `getPrompt("${name}"): ask for a label or a version, not both`);
    }
    const key = options.version !== undefined ? `${name}\u0000version:${options.version}` : `${name}\u0000label:${options.label ?? 'production'}`;
    const ttl = typeof options.cacheTtlMs === 'number' && options.cacheTtlMs >= 0 ? options.cacheTtlMs : DEFAULT_TTL_MS;
    const entry = this.cache.get(key);
    if (entry && ttl > 0) {
      if (this.now() - entry.fetchedAt >= ttl && !entry.refreshing) {
        entry.refreshing = this.fetchOnce(key, name, options, entry).then(() => {}, (err: VigilClientError) => this.report(err))
          .finally(() => { entry.refreshing = undefined; });
      }
      return entry.prompt;
    }
    try {
      return (await this.fetchOnce(key, name, options, entry)).prompt;
    } catch (err) {
      const failure = err as VigilClientError;
      if (entry) { this.report(failure); return entry.prompt; }
      if (options.fallback !== undefined) { this.report(failure); return fallbackPrompt(name, options.fallback, options.label); }
      throw failure;
    }
  }

  /** One request per key at a time: callers that arrive while it runs share it. */
  private fetchOnce(key: string, name: string, options: GetPromptOptions, entry: Entry | undefined): Promise<Entry> {
    let running = this.inFlight.get(key);
    if (!running) {
      running = this.fetch(key, name, options, entry).finally(() => this.inFlight.delete(key));
      this.inFlight.set(key, running);
    }
    return running;
  }

  private async fetch(key: string, name: string, options: GetPromptOptions, entry: Entry | undefined): Promise<Entry> {
    const unavailable = (why: string, status?: number) =>
      new VigilClientError(ClientErrors.PROMPT_UNAVAILABLE, `getPrompt("${name}"${options.version !== undefined ? `, version ${options.version}` : `, label ${options.label ?? 'production'}`}): ${why}`, 0, status);
    if (!this.base || !this.projectKey) throw unavailable('the client has no usable url or project key');
    const url = new URL(`api/v1/prompts/${encodeURIComponent(name)}`, this.base);
    if (options.version !== undefined) url.searchParams.set('version', String(options.version));
    else if (options.label !== undefined) url.searchParams.set('label', options.label);
    const headers: Record<string, string> = { 'X-Service-Project-Key': this.projectKey, accept: 'application/json' };
    if (entry?.etag) headers['If-None-Match'] = entry.etag;
    let res: Response;
    try {
      res = await fetch(url, { headers, signal: AbortSignal.timeout(options.timeoutMs ?? DEFAULT_TIMEOUT_MS) });
    } catch (err) {
      throw unavailable(`Vigil could not be reached at ${url.origin} (${(err as Error).message})`);
    }
    if (res.status === 304 && entry) {
      entry.fetchedAt = this.now();
      return entry;
    }
    const body = await res.json().catch(() => null) as (PromptVersion & { error?: { code: string; message: string } }) | null;
    if (res.status !== 200 || !body || body.error) {
      throw unavailable(`Vigil answered ${res.status}${body?.error ? ` ${body.error.code}: ${body.error.message}` : ''}`, res.status);
    }
    const fresh: Entry = { prompt: makePrompt(body, false), etag: res.headers.get('etag'), fetchedAt: this.now() };
    this.cache.delete(key);
    if (this.cache.size >= MAX_ENTRIES) this.cache.delete(this.cache.keys().next().value!);
    this.cache.set(key, fresh);
    return fresh;
  }
}

/** The control plane's base for `endpoint` (the ingest URL, `…/v1/traces`). */
export function controlPlaneBase(endpoint: URL | undefined): URL | undefined {
  return endpoint ? new URL(endpoint.href.replace(/v1\/traces$/, '')) : undefined;
}
