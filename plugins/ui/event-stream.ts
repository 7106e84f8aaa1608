// The dashboard's live stream: server-sent events to each open page, filtered by the topics it asked for. A page
// that reads slowly loses events (counted) instead of growing this process's memory; the server never waits for it.
import { Readable } from 'node:stream';
import type { Counter, Gauge } from '@vigil/plugin-sdk';

/** Topic names: lower case, digits, `.`, `_`, `-`; what an SSE `event:` field carries safely. */
export const TOPIC = /^[a-z][a-z0-9._-]{0,63}$/;
/** Bytes a page may leave unread before its events are dropped. */
const MAX_UNREAD_BYTES = 256 * 1024;
/** How long a browser waits before reconnecting a stream that broke, in ms (the `retry:` field). */
const RECONNECT_MS = 3000;

export interface EventStreamOptions {
  heartbeatMs: number;
  maxStreams: number;
  /** The first stream opened (start relaying), the last one closed (stop). */
  onFirst(): void;
  onLast(): void;
  open: Gauge;
  /** `vigil_ui_stream_events_total{outcome}`: sent, dropped (a slow page), invalid (bad topic or data). */
  events: Counter;
}

interface Client {
  topics: ReadonlySet<string>;
  body: Readable;
  /** Forgets the page (once): its stream ended or the plugin stops. */
  remove(): void;
}

export class EventStream {
  private readonly clients = new Set<Client>();
  /** Open pages per topic, and who wants to know when a topic gains its first page or loses its last. */
  private readonly watchers = new Map<string, number>();
  private readonly watchListeners = new Map<string, Set<(watched: boolean) => void>>();
  private readonly sent;
  private readonly dropped;
  private readonly invalid;
  private heartbeat: NodeJS.Timeout | undefined;
  private closed = false;

  constructor(private readonly o: EventStreamOptions) {
    this.sent = o.events.labels('sent');
    this.dropped = o.events.labels('dropped');
    this.invalid = o.events.labels('invalid');
  }

  get size(): number {
    return this.clients.size;
  }

  get max(): number {
    return this.o.maxStreams;
  }

  /** New limits from a config reload: open streams stay; the bound applies to the next ones. */
  setLimits(limits: { heartbeatMs: number; maxStreams: number }): void {
    this.o.maxStreams = limits.maxStreams;
    if (limits.heartbeatMs === this.o.heartbeatMs) return;
    this.o.heartbeatMs = limits.heartbeatMs;
    if (this.heartbeat) {
      clearInterval(this.heartbeat);
      this.heartbeat = setInterval(() => this.ping(), this.o.heartbeatMs).unref();
    }
  }

  /**
   * Calls `listener(true)` when the first open page subscribes to `topic` and `listener(false)` when the last one
   * leaves, so a publisher collects only while someone watches; once at once with the current state. The listener
   * must not throw (the ui plugin wraps it in ctx.contain). Returns a function that stops the calls.
   */
  watch(topic: string, listener: (watched: boolean) => void): () => void {
    let set = this.watchListeners.get(topic);
    if (!set) this.watchListeners.set(topic, (set = new Set()));
    set.add(listener);
    listener((this.watchers.get(topic) ?? 0) > 0);
    return () => { set.delete(listener); };
  }

  /** Open pages subscribed to `topic`. */
  watching(topic: string): number {
    return this.watchers.get(topic) ?? 0;
  }

  private countWatchers(topics: ReadonlySet<string>, step: 1 | -1): void {
    for (const topic of topics) {
      const n = (this.watchers.get(topic) ?? 0) + step;
      if (n > 0) this.watchers.set(topic, n);
      else this.watchers.delete(topic);
      // Only the edges matter: 0 -> 1 starts a publisher, 1 -> 0 stops it.
      if ((step === 1 && n === 1) || (step === -1 && n === 0)) {
        for (const listener of this.watchListeners.get(topic) ?? []) listener(n > 0);
      }
    }
  }

  get full(): boolean {
    return this.clients.size >= this.o.maxStreams;
  }

  /**
   * A stream for one page: the body of its response. It ends when the page goes (`gone` fires: its request
   * closed) or the plugin stops.
   */
  open(topics: ReadonlySet<string>, gone: (listener: () => void) => void): Readable {
    const body = new Readable({ read() {} });
    const client: Client = { topics, body, remove: () => {} };
    if (this.closed) {
      body.push(null);
      return body;
    }
    this.clients.add(client);
    this.o.open.set(this.clients.size);
    // The first bytes flush the response headers, so the page's EventSource opens at once.
    body.push(`retry: ${RECONNECT_MS}\n: ok\n\n`);
    let done = false;
    const remove = (): void => {
      if (done) return;
      done = true;
      this.clients.delete(client);
      this.o.open.set(this.clients.size);
      this.countWatchers(topics, -1);
      if (this.clients.size === 0) this.o.onLast();
    };
    client.remove = remove;
    gone(remove);
    body.once('close', remove);
    if (this.clients.size === 1) this.o.onFirst();
    this.countWatchers(topics, 1);
    this.heartbeat ??= setInterval(() => this.ping(), this.o.heartbeatMs).unref();
    return body;
  }

  /** Sends `data` as one `topic` event to every page subscribed to it. Never throws, never waits. */
  publish(topic: string, data: unknown): void {
    if (typeof topic !== 'string' || !TOPIC.test(topic)) {
      this.invalid.inc();
      return;
    }
    let json: string | undefined;
    try {
      json = JSON.stringify(data ?? null);
    } catch {
      json = undefined;
    }
    if (json === undefined) {
      this.invalid.inc();
      return;
    }
    // JSON text never holds a raw line break, so one `data:` line carries it whole.
    const frame = `event: ${topic}\ndata: ${json}\n\n`;
    for (const client of this.clients) {
      if (!client.topics.has(topic)) continue;
      if (client.body.readableLength > MAX_UNREAD_BYTES) {
        this.dropped.inc();
        continue;
      }
      client.body.push(frame);
      this.sent.inc();
    }
  }

  /** A comment line: keeps proxies from closing an idle stream, and finds pages that went away. */
  private ping(): void {
    for (const client of this.clients) if (client.body.readableLength <= MAX_UNREAD_BYTES) client.body.push(': ping\n\n');
    if (this.clients.size === 0 && this.heartbeat) {
      clearInterval(this.heartbeat);
      this.heartbeat = undefined;
    }
  }

  /** Ends every stream (the responses complete) and refuses new ones. Safe to call twice. */
  close(): void {
    this.closed = true;
    if (this.heartbeat) clearInterval(this.heartbeat);
    this.heartbeat = undefined;
    for (const client of [...this.clients]) {
      client.body.push(null);
      // Counted out now, not when the response finishes: watchers of a topic learn at once that nobody watches.
      client.remove();
    }
  }
}
