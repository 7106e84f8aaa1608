// One live stream for the whole app (GET /api/ui/stream, server-sent events): pages subscribe to topics, the stream
// carries the union of them. It is closed while the tab is hidden and opened again when it shows (Page
// Visibility), so a tab in the background costs the server nothing.

/** What the stream is doing, for the shell's live indicator. */
export type StreamStatus = 'idle' | 'connecting' | 'live' | 'paused' | 'retrying';

/** The part of EventSource the stream uses (injectable for tests). */
export interface EventSourceLike {
  readonly readyState: number;
  onopen: ((this: never, ev: Event) => unknown) | null;
  onerror: ((this: never, ev: Event) => unknown) | null;
  addEventListener(type: string, listener: (event: MessageEvent) => void): void;
  close(): void;
}

/** The part of `document` the stream watches. */
export interface VisibilitySource {
  readonly hidden: boolean;
  addEventListener(type: 'visibilitychange', listener: () => void): void;
}

export interface LiveStreamDeps {
  createSource(url: string): EventSourceLike;
  visibility: VisibilitySource;
  /** Runs `fn` after `ms`; returns a cancel function. */
  schedule(fn: () => void, ms: number): () => void;
  onStatus?(status: StreamStatus): void;
  /** The server closed the stream for good (a 401, or it is gone): the app checks the session. */
  onRefused?(): void;
}

/** EventSource's readyState when it has given up (it retries by itself otherwise). */
const CLOSED = 2;
/** Retry delays after the server refused the stream, in ms: 2 s doubling to 30 s. */
const RETRY_MIN_MS = 2000;
const RETRY_MAX_MS = 30_000;

/** The stream's URL for a set of topics, sorted so the same set is the same URL. */
export const streamUrl = (topics: readonly string[]): string => `/api/ui/stream?topics=${[...topics].sort().join(',')}`;

export class LiveStream {
  private readonly handlers = new Map<string, Set<(data: unknown) => void>>();
  private source: EventSourceLike | undefined;
  private sourceUrl = '';
  private syncQueued = false;
  private retries = 0;
  private cancelRetry: (() => void) | undefined;
  private current: StreamStatus = 'idle';

  constructor(private readonly deps: LiveStreamDeps) {
    deps.visibility.addEventListener('visibilitychange', () => this.sync());
  }

  get status(): StreamStatus {
    return this.current;
  }

  /** The URL the stream is open on, or '' (tests and diagnostics). */
  get url(): string {
    return this.source ? this.sourceUrl : '';
  }

  /** Calls `handler` with each event's data on `topic` while subscribed. Returns the unsubscribe function. */
  subscribe(topic: string, handler: (data: unknown) => void): () => void {
    let set = this.handlers.get(topic);
    if (!set) this.handlers.set(topic, (set = new Set()));
    set.add(handler);
    this.queueSync();
    return () => {
      const s = this.handlers.get(topic);
      if (!s?.delete(handler)) return;
      if (s.size === 0) this.handlers.delete(topic);
      this.queueSync();
    };
  }

  /** Several subscriptions made together (a page mounting) open one stream, not one per topic. */
  private queueSync(): void {
    if (this.syncQueued) return;
    this.syncQueued = true;
    queueMicrotask(() => {
      this.syncQueued = false;
      this.sync();
    });
  }

  private setStatus(status: StreamStatus): void {
    if (status === this.current) return;
    this.current = status;
    this.deps.onStatus?.(status);
  }

  private sync(): void {
    const topics = [...this.handlers.keys()];
    if (topics.length === 0 || this.deps.visibility.hidden) {
      this.close();
      this.cancelRetry?.();
      this.cancelRetry = undefined;
      this.setStatus(topics.length ? 'paused' : 'idle');
      return;
    }
    const url = streamUrl(topics);
    if (this.source && this.sourceUrl === url) return;
    if (this.cancelRetry) return;
    this.open(url, topics);
  }

  private open(url: string, topics: string[]): void {
    this.close();
    const source = this.deps.createSource(url);
    this.source = source;
    this.sourceUrl = url;
    this.setStatus('connecting');
    for (const topic of topics) source.addEventListener(topic, (event) => this.dispatch(topic, event.data));
    source.onopen = () => {
      this.retries = 0;
      this.setStatus('live');
    };
    source.onerror = () => {
      if (source !== this.source) return;
      if (source.readyState !== CLOSED) {
        // The browser reconnects by itself (the server's `retry:` delay).
        this.setStatus('connecting');
        return;
      }
      this.close();
      this.setStatus('retrying');
      this.deps.onRefused?.();
      const delay = Math.min(RETRY_MAX_MS, RETRY_MIN_MS * 2 ** this.retries++);
      this.cancelRetry = this.deps.schedule(() => {
        this.cancelRetry = undefined;
        this.sync();
      }, delay);
    };
  }

  private close(): void {
    if (!this.source) return;
    this.source.onopen = null;
    this.source.onerror = null;
    this.source.close();
    this.source = undefined;
    this.sourceUrl = '';
  }

  private dispatch(topic: string, raw: unknown): void {
    let data: unknown;
    try {
      data = typeof raw === 'string' ? JSON.parse(raw) : raw;
    } catch {
      return;
    }
    for (const handler of [...(this.handlers.get(topic) ?? [])]) {
      try {
        handler(data);
      } catch (err) {
        // One page's handler failing must not starve the others of the event.
        queueMicrotask(() => { throw err; });
      }
    }
  }
}

/**
 * Runs `fn` every `ms` while the tab is visible, and once at once when it shows again after a hidden spell that
 * missed a run. Returns the stop function. This is the only way the dashboard polls.
 */
export function whileVisible(visibility: VisibilitySource & { removeEventListener?(type: 'visibilitychange', listener: () => void): void },
  fn: () => void, ms: number, timers: { setInterval(fn: () => void, ms: number): unknown; clearInterval(id: unknown): void; now(): number }): () => void {
  let last = timers.now();
  let id: unknown;
  const tick = (): void => {
    last = timers.now();
    fn();
  };
  const start = (): void => {
    if (id === undefined && !visibility.hidden) id = timers.setInterval(tick, ms);
  };
  const stop = (): void => {
    if (id !== undefined) timers.clearInterval(id);
    id = undefined;
  };
  const onVisibility = (): void => {
    if (visibility.hidden) return stop();
    if (timers.now() - last >= ms) tick();
    start();
  };
  visibility.addEventListener('visibilitychange', onVisibility);
  start();
  return () => {
    stop();
    visibility.removeEventListener?.('visibilitychange', onVisibility);
  };
}
