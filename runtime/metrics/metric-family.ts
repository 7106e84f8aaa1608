import { metricValueError } from './errors.js';
import type { MetricType } from './metric-name-rules.js';
import { formatLabelPairs } from './text-format.js';

/** The value recorded instead of a label value beyond the cardinality cap. */
export const OVERFLOW_LABEL_VALUE = '__other__';

/** One time series of a family: its label values and their exposition text. */
export interface Series {
  readonly labelValues: readonly string[];
  /** `a="x",b="y"`, escaped once at creation so exposition only concatenates. */
  readonly pairs: string;
}

export interface FamilyDefinition {
  name: string;
  help: string;
  labelNames: readonly string[];
  maxValuesPerLabel: number;
  /** Who registered it, for conflict messages: `plugin "x"` or `the runtime`. */
  owner: string;
  onOverflow(metric: string, label: string): void;
}

type LabelsFn<S> = (this: MetricFamily<S & Series>, ...values: unknown[]) => S;

// The lookup index is a tree of Maps, one level per label, keyed by the values exactly as the caller passed them.
// A hit is one Map.get per label on strings whose hashes V8 has usually cached, and allocates nothing; a single
// Map on a joined key would build and hash a new string on every call, which costs more than the whole budget.
// The trailing parameter catches callers passing more values than there are label names.
function labels0<S>(this: MetricFamily<S & Series>, extra?: unknown): S {
  if (extra === undefined && this.root !== undefined) return this.root;
  return this.resolve([extra]);
}
function labels1<S>(this: MetricFamily<S & Series>, a: unknown, extra?: unknown): S {
  if (extra === undefined) {
    const s = this.index.get(a) as S | undefined;
    if (s !== undefined) return s;
  }
  return this.resolve(extra === undefined ? [a] : [a, extra]);
}
function labels2<S>(this: MetricFamily<S & Series>, a: unknown, b: unknown, extra?: unknown): S {
  if (extra === undefined) {
    const m = this.index.get(a) as Map<unknown, unknown> | undefined;
    if (m !== undefined) {
      const s = m.get(b) as S | undefined;
      if (s !== undefined) return s;
    }
  }
  return this.resolve(extra === undefined ? [a, b] : [a, b, extra]);
}
function labels3<S>(this: MetricFamily<S & Series>, a: unknown, b: unknown, c: unknown, extra?: unknown): S {
  if (extra === undefined) {
    const m1 = this.index.get(a) as Map<unknown, unknown> | undefined;
    if (m1 !== undefined) {
      const m2 = m1.get(b) as Map<unknown, unknown> | undefined;
      if (m2 !== undefined) {
        const s = m2.get(c) as S | undefined;
        if (s !== undefined) return s;
      }
    }
  }
  return this.resolve(extra === undefined ? [a, b, c] : [a, b, c, extra]);
}
function labels4<S>(this: MetricFamily<S & Series>, a: unknown, b: unknown, c: unknown, d: unknown, extra?: unknown): S {
  if (extra === undefined) {
    const m1 = this.index.get(a) as Map<unknown, unknown> | undefined;
    if (m1 !== undefined) {
      const m2 = m1.get(b) as Map<unknown, unknown> | undefined;
      if (m2 !== undefined) {
        const m3 = m2.get(c) as Map<unknown, unknown> | undefined;
        if (m3 !== undefined) {
          const s = m3.get(d) as S | undefined;
          if (s !== undefined) return s;
        }
      }
    }
  }
  return this.resolve(extra === undefined ? [a, b, c, d] : [a, b, c, d, extra]);
}
function labelsMany<S>(this: MetricFamily<S & Series>, ...values: unknown[]): S {
  const n = this.labelNames.length;
  if (values.length <= n) {
    let node: unknown = this.index;
    for (let i = 0; i < n && node !== undefined; i++) node = (node as Map<unknown, unknown>).get(values[i]);
    if (node !== undefined) return node as S;
  }
  return this.resolve(values);
}

const LABELS_BY_ARITY = [labels0, labels1, labels2, labels3, labels4];

/** A value that may stand for its string form in the index without letting the index grow past the cap. */
function aliasable(value: unknown): boolean {
  const t = typeof value;
  return t === 'number' || t === 'boolean' || t === 'bigint' || value === undefined || value === null;
}

/** Shared by counters, gauges and histograms: label binding, the cardinality cap and the series list. */
export abstract class MetricFamily<S extends Series> {
  abstract readonly type: MetricType;
  readonly name: string;
  readonly help: string;
  readonly labelNames: readonly string[];
  readonly maxValuesPerLabel: number;
  readonly owner: string;
  /** @internal Lookup tree used by `labels`; see the comment on `labels0`. */
  readonly index = new Map<unknown, unknown>();
  /** @internal The series of an unlabelled family, created up front so it is exposed as 0 before any update. */
  root: S | undefined;
  /** Every series, in creation order: what exposition walks. */
  protected readonly series: S[] = [];
  private readonly distinct: Set<string>[];
  private readonly onOverflow: (metric: string, label: string) => void;
  /** Label values in `labelNames` order; missing values are empty strings. Returns a cached series. */
  readonly labels: (...values: string[]) => S;

  constructor(definition: FamilyDefinition) {
    this.name = definition.name;
    this.help = definition.help;
    this.labelNames = [...definition.labelNames];
    this.maxValuesPerLabel = definition.maxValuesPerLabel;
    this.owner = definition.owner;
    this.onOverflow = definition.onOverflow;
    this.distinct = this.labelNames.map(() => new Set<string>());
    this.labels = (LABELS_BY_ARITY[this.labelNames.length] ?? labelsMany) as LabelsFn<S> as (...values: string[]) => S;
  }

  /** Call at the end of a subclass constructor, once its own fields exist. */
  protected init(): void {
    if (this.labelNames.length === 0) {
      this.root = this.createSeries([], '');
      this.series.push(this.root);
    }
  }

  protected abstract createSeries(labelValues: readonly string[], pairs: string): S;

  /** The series a labelled call without values updates (`counter.inc()` on a labelled counter). */
  protected unlabelled(): S {
    return this.root ?? this.labels();
  }

  /**
   * @internal Slow path of `labels`: stringify, apply the cardinality cap, find or create the series, and index the
   * caller's raw values so the next call with them is a hit. Values beyond the cap are not indexed: each such call
   * comes here and is counted, and the index stays bounded by the cap.
   */
  resolve(raw: readonly unknown[]): S {
    const n = this.labelNames.length;
    if (raw.length > n) {
      throw metricValueError(this.name, `got ${raw.length} label values for ${n} label names (${this.labelNames.join(', ') || 'none'})`);
    }
    const values: string[] = new Array<string>(n);
    let overflowed = false;
    for (let i = 0; i < n; i++) {
      const v = raw[i];
      let s = v === undefined || v === null ? '' : String(v);
      const seen = this.distinct[i];
      if (!seen.has(s)) {
        if (seen.size >= this.maxValuesPerLabel) {
          this.onOverflow(this.name, this.labelNames[i]);
          s = OVERFLOW_LABEL_VALUE;
          overflowed = true;
        } else {
          seen.add(s);
        }
      }
      values[i] = s;
    }
    let node = this.index;
    for (let i = 0; i < n; i++) {
      const last = i === n - 1;
      let next = node.get(values[i]);
      if (next === undefined) {
        if (last) {
          const series = this.createSeries(values, formatLabelPairs(this.labelNames, values));
          this.series.push(series);
          next = series;
        } else {
          next = new Map<unknown, unknown>();
        }
        node.set(values[i], next);
      }
      // Invariant: a key in the index always leads to the subtree of its string form, so an alias set here agrees
      // with the canonical path at every level.
      if (!overflowed && raw[i] !== values[i] && aliasable(raw[i])) node.set(raw[i], next);
      if (last) return next as S;
      node = next as Map<unknown, unknown>;
    }
    return this.root as S;
  }

  /** Appends this family's HELP, TYPE and samples to `out`. */
  abstract expose(out: string[]): void;

  /** `counter{route,method}`: how conflict messages describe a definition. */
  describe(): string {
    return `${this.type}{${this.labelNames.join(',')}}`;
  }
}
