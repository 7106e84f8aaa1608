import type { Counter, CounterChild, HistogramChild, LingerOutcome, Metrics } from '@vigil/plugin-sdk';
import { TRAFFIC_DIMENSIONS } from '../../policies/compile.js';

/** Seconds; fine at the low end, where a proxied request on a local network lives. */
const DURATION_BUCKETS = [0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30, 60];
const STATUS_CLASSES = ['1xx', '1xx', '2xx', '3xx', '4xx', '5xx'];

export type BodyPart = 'request_body' | 'response_body';

interface SeriesPair { count: CounterChild; duration: HistogramChild }

/** The traffic lane's state that its gauges show. */
export interface LaneGauges {
  bufferedBytes(): number;
  connectionsInUse(): number;
  waitingForConnection(): number;
}

/** `200` → `2xx`. Anything outside 100..599 counts with its nearest class. */
export function statusClass(status: number): string {
  const c = Math.floor(status / 100);
  return STATUS_CLASSES[c < 1 ? 1 : c > 5 ? 5 : c];
}

/**
 * The traffic lane's metrics. Request series are labelled route, method, status class and the policy's label
 * dimensions; the metrics layer caps each label's values (beyond the cap: `__other__`, counted in
 * `vigil_metrics_label_overflow_total`). Without policy labels, each (route, method, status class) binds its
 * children once and keeps them here, so an observation is two Map lookups and two updates.
 */
export class TrafficMetrics {
  private readonly requests;
  private readonly durations;
  private readonly bodyCopies: Record<BodyPart, CounterChild>;
  private readonly failures;
  private readonly lingering: Counter;
  private readonly bound = new Map<string, Map<string, (SeriesPair | undefined)[]>>();
  private readonly labelled: boolean;

  /** What the lane's gauges read when /metrics is scraped (set by the lane once it runs). */
  private lane: LaneGauges | null = null;

  constructor(metrics: Metrics, dimensions: readonly string[]) {
    const labelNames = [...TRAFFIC_DIMENSIONS, ...dimensions];
    this.labelled = dimensions.length > 0;
    this.requests = metrics.counter('vigil_http_requests_total', {
      help: 'Requests proxied by the gateway, by route (last matching rule glob), method, status class and policy labels.',
      labelNames,
    });
    this.durations = metrics.histogram('vigil_http_request_duration_seconds', {
      help: 'Time from a proxied request\'s arrival to the end of its response, in seconds.',
      labelNames,
      buckets: DURATION_BUCKETS,
    });
    const copies = metrics.counter('vigil_proxy_body_copies_total', {
      help: 'Bounded body copies (tee buffers) the traffic lane allocated for capture, by body part.',
      labelNames: ['part'],
    });
    this.bodyCopies = { request_body: copies.labels('request_body'), response_body: copies.labels('response_body') };
    this.failures = metrics.counter('vigil_proxy_failures_total', {
      help: 'Requests the gateway answered with its own error (upstream unreachable, timed out, client too slow, no connection free, …), by error code.',
      labelNames: ['code'],
    });
    this.lingering = metrics.counter('vigil_proxy_lingering_closes_total', {
      help: 'Connections read to their end after an answer given before the request body was read (a 503, a 408, an '
        + 'upstream\'s early 413), by how that ended: drained, client_closed, time_limit or byte_limit.',
      labelNames: ['outcome'],
    });
    metrics.gauge('vigil_proxy_request_buffer_bytes', {
      help: 'Bytes the request buffers hold now (service.request_buffer_memory bounds them).',
      collect: (g) => g.set(this.lane?.bufferedBytes() ?? 0),
    });
    metrics.gauge('vigil_proxy_upstream_connections_in_use', {
      help: 'Requests holding an upstream connection now (service.max_connections bounds them).',
      collect: (g) => g.set(this.lane?.connectionsInUse() ?? 0),
    });
    metrics.gauge('vigil_proxy_upstream_queue', {
      help: 'Requests waiting for a free upstream connection now (each for at most service.queue_timeout).',
      collect: (g) => g.set(this.lane?.waitingForConnection() ?? 0),
    });
  }

  /** Where the gauges read from. */
  readLane(lane: LaneGauges): void {
    this.lane = lane;
  }

  /** One finished request. `dimensions` holds the policy label values (null when the policy has none). */
  observe(route: string, method: string, status: number, dimensions: readonly string[] | null, seconds: number): void {
    if (this.labelled && dimensions !== null) {
      const cls = statusClass(status);
      this.requests.labels(route, method, cls, ...dimensions).inc();
      this.durations.labels(route, method, cls, ...dimensions).observe(seconds);
      return;
    }
    const pair = this.pair(route, method, status);
    pair.count.inc();
    pair.duration.observe(seconds);
  }

  bodyCopy(part: BodyPart): void {
    this.bodyCopies[part].inc();
  }

  failure(code: string): void {
    this.failures.labels(code).inc();
  }

  lingered(outcome: LingerOutcome): void {
    this.lingering.labels(outcome).inc();
  }

  private pair(route: string, method: string, status: number): SeriesPair {
    let byMethod = this.bound.get(route);
    if (byMethod === undefined) this.bound.set(route, (byMethod = new Map()));
    let byClass = byMethod.get(method);
    if (byClass === undefined) byMethod.set(method, (byClass = new Array(6)));
    const c = Math.floor(status / 100);
    const slot = c < 1 ? 1 : c > 5 ? 5 : c;
    let pair = byClass[slot];
    if (pair === undefined) {
      const cls = STATUS_CLASSES[slot];
      pair = { count: this.requests.labels(route, method, cls), duration: this.durations.labels(route, method, cls) };
      byClass[slot] = pair;
    }
    return pair;
  }
}
