// Adaptive per-route observation sampling for field recording (capture `record_fields: true`): walking every value of
// every body doubles governance's CPU (bench/field-recording.ts), while a route's fields, kinds and formats are
// known after its first few hundred exchanges. So, per route and worker thread:
// - the first `warmup` exchanges are observed fully (every value walked, counted once);
// - after a batch whose observations held something this thread had not seen on the route (a row, a kind or a
//   format), the next `renew` exchanges are observed fully again;
// - otherwise one exchange in `every` is walked, by a counter (never a random draw), and counts `every` times: counts,
//   parents, kinds, formats and redactions are unbiased estimates, and presence ratios (count / parents) hold.
// Every exchange still counts in its route's `exchange` row, exactly. The guarantee for a field: it is recorded when it
// is in a walked exchange; so whenever it is in `every` consecutive exchanges of its route on one worker thread.
// A field in fewer may be missed. `record_fields: full` is `every: 1`: every exchange walked, counts exact.
//
// The thread also keeps each route's rows (FieldRecorder's nodes) from batch to batch: a walked exchange finds its
// fields where the last batch left them instead of building them again, and a row absent from a batch still gets
// the parents of that batch (added when it is next seen), so a rare field's presence ratio is not overstated.
import { FIELD_LIMITS } from './api-fields.js';

export interface SamplingOptions {
  /** Exchanges of a route observed fully before sampling starts. */
  warmup?: number;
  /** One exchange in this many is walked once the route is stable. */
  every?: number;
  /** Exchanges observed fully again after a batch that found something new (default: `warmup`). */
  renew?: number;
}

export const DEFAULT_SAMPLING = Object.freeze({ warmup: 1_000, every: 16 });

/** One route's counter on this thread. */
export class RouteSampling {
  /** Exchanges of the route seen on this thread. */
  private seen = 0;
  /** Exchanges before this one are observed fully. */
  private fullUntil: number;

  constructor(private readonly options: Required<SamplingOptions>) {
    this.fullUntil = options.warmup;
  }

  /** The weight of the next exchange: 1 observed fully, `every` walked for `every`, 0 not walked. */
  next(): number {
    const n = this.seen++;
    if (n < this.fullUntil) return 1;
    return (n - this.fullUntil) % this.options.every === 0 ? this.options.every : 0;
  }

  /** A batch found something new on the route: observe it fully for the next `renew` exchanges. */
  renew(): void {
    this.fullUntil = Math.max(this.fullUntil, this.seen + this.options.renew);
  }
}

/** The routes of one worker thread (it outlives its batches), bounded like the routes a batch records. */
export class FieldSampling<T = unknown> {
  private readonly options: Required<SamplingOptions>;
  private readonly routes = new Map<string, T>();

  constructor(options: SamplingOptions = {}, private readonly limits: { routes: number } = FIELD_LIMITS) {
    const warmup = options.warmup ?? DEFAULT_SAMPLING.warmup;
    this.options = { warmup, every: Math.max(1, options.every ?? DEFAULT_SAMPLING.every), renew: options.renew ?? warmup };
  }

  /** Drops a route's state: its next exchange starts it again, warm-up included. */
  forget(key: string): void {
    this.routes.delete(key);
  }

  /** The route's state on this thread, made by `make` with a new counter the first time. */
  route(key: string, make: (sampling: RouteSampling) => T): T {
    let route = this.routes.get(key);
    if (route === undefined) {
      // Cleared when full: every route warms up again, which costs CPU, never an observation.
      if (this.routes.size >= this.limits.routes) this.routes.clear();
      route = make(new RouteSampling(this.options));
      this.routes.set(key, route);
    }
    return route;
  }
}
