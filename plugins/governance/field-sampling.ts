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
import { FIELD_LIMITS, type FieldLocation } from '@vigil/plugin-sdk';
import { OBJECT } from './value-format.js';

export interface SamplingOptions {
  /** Exchanges of a route observed fully before sampling starts. */
  warmup?: number;
  /** One exchange in this many is walked once the route is stable. */
  every?: number;
  /** Exchanges observed fully again after a batch that found something new (default: `warmup`). */
  renew?: number;
}

export const DEFAULT_SAMPLING = Object.freeze({ warmup: 1_000, every: 16 });

/** A row of a batch as FieldRecorder holds it (its FieldNode). */
export interface SampledRow {
  readonly location: FieldLocation;
  readonly status: number;
  readonly name: string;
  readonly count: number;
  readonly kinds: readonly number[];
  readonly formats: readonly number[] | null;
  readonly parent: SampledRow | null;
  readonly isItem: boolean;
}

/** What this thread has seen of one row of a route. */
interface KnownRow {
  /** Kinds and formats seen, as bits. */
  bits: number;
  /** The parent row's key; null for a row that is not below `$`. */
  parent: string | null;
  location: FieldLocation;
  status: number;
  isItem: boolean;
  /** Times its container was present in batches where the row was not: added to its next `parents`. */
  pending: number;
}

const keyOf = (row: SampledRow) => `${row.location}\u0000${row.status}\u0000${row.name}`;

/** One route's counter and what this thread has seen of it. */
export class RouteSampling {
  /** Exchanges of the route seen on this thread. */
  private seen = 0;
  /** Exchanges before this one are observed fully. */
  private fullUntil: number;
  private readonly known = new Map<string, KnownRow>();

  constructor(private readonly options: Required<SamplingOptions>, private readonly maxRows: number) {
    this.fullUntil = options.warmup;
  }

  /** The weight of the next exchange: 1 observed fully, `every` walked for `every`, 0 not walked. */
  next(): number {
    const n = this.seen++;
    if (n < this.fullUntil) return 1;
    return (n - this.fullUntil) % this.options.every === 0 ? this.options.every : 0;
  }

  /**
   * At the end of a batch, its rows of this route (count > 0), and how to count the exchanges of the batch that
   * carried a container (`exchanges(location, status)` for a row not below `$`). Anything new (a row, a kind or a
   * format) observes the route fully for the next `renew` exchanges. Returns, per row, the parents to add: a batch
   * only holds rows seen in it, so the containers of a row in batches where it was absent would be lost, and its
   * presence ratio overstated (badly for a rare field, or once few exchanges per batch are walked); they are kept
   * here and added when the row is next seen. Bounded by the route's row cap: rows past it were not recorded either.
   */
  settle(rows: readonly SampledRow[], exchanges: (location: FieldLocation, status: number) => number): number[] {
    const inBatch = new Map<string, SampledRow>();
    const extra = new Array<number>(rows.length).fill(0);
    let novel = false;
    for (let i = 0; i < rows.length; i++) {
      const row = rows[i];
      const key = keyOf(row);
      inBatch.set(key, row);
      const bits = bitsOf(row);
      const old = this.known.get(key);
      if (old === undefined) {
        if (this.known.size >= this.maxRows) continue;
        this.known.set(key, {
          bits, parent: row.parent === null ? null : keyOf(row.parent), location: row.location, status: row.status,
          isItem: row.isItem, pending: 0,
        });
        novel = true;
        continue;
      }
      if ((old.bits & bits) !== bits) {
        old.bits |= bits;
        novel = true;
      }
      extra[i] = old.pending;
      old.pending = 0;
    }
    for (const [key, row] of this.known) {
      if (row.isItem || inBatch.has(key)) continue;
      row.pending += row.parent === null ? exchanges(row.location, row.status) : inBatch.get(row.parent)?.kinds[OBJECT] ?? 0;
    }
    if (novel) this.fullUntil = Math.max(this.fullUntil, this.seen + this.options.renew);
    return extra;
  }
}

function bitsOf(row: SampledRow): number {
  let bits = 0;
  for (let i = 0; i < row.kinds.length; i++) if (row.kinds[i] !== 0) bits |= 1 << i;
  if (row.formats !== null) for (let i = 0; i < row.formats.length; i++) if (row.formats[i] !== 0) bits |= 1 << (7 + i);
  return bits;
}

/** The routes of one worker thread (it outlives its batches), bounded like the routes a batch records. */
export class FieldSampling {
  private readonly options: Required<SamplingOptions>;
  private readonly routes = new Map<string, RouteSampling>();

  constructor(options: SamplingOptions = {}, private readonly limits: { routes: number; fieldsPerRoute: number } = FIELD_LIMITS) {
    const warmup = options.warmup ?? DEFAULT_SAMPLING.warmup;
    this.options = { warmup, every: Math.max(1, options.every ?? DEFAULT_SAMPLING.every), renew: options.renew ?? warmup };
  }

  route(key: string): RouteSampling {
    let route = this.routes.get(key);
    if (route === undefined) {
      // Cleared when full: every route warms up again, which costs CPU, never an observation.
      if (this.routes.size >= this.limits.routes) this.routes.clear();
      route = new RouteSampling(this.options, this.limits.fieldsPerRoute);
      this.routes.set(key, route);
    }
    return route;
  }
}
