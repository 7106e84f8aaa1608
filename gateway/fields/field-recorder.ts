// Field observations of one batch (gateway/fields/api-fields.ts): which fields each route uses, with their types,
// formats and presence, taken while the exchange is governed (before redaction) and holding no value. The JSON
// bodies are observed by the scan that validates and redacts them (policies/json-text.ts), not by a second parse.
import { classifySegment, FIELD_LIMITS, type FieldLocation, type FieldObservation, type FieldOverflow, type JsonKind, type RouteTemplate, type ValueFormat } from './api-fields.js';
import { redactText } from '../../policies/detectors/index.js';
import type { DetectorKind } from '../../policies/detectors/types.js';
import type { JsonObserver, ObservedNode } from '../../policies/json-text.js';
import type { RouteDecision } from '../../policies/merge.js';
import type { FieldSampling, RouteSampling } from './field-sampling.js';
import { decodeComponent } from '../govern/query-record.js';
import { templateOf } from './route-templates.js';
import type { RawExchange } from '../govern/types.js';
import {
  FORMAT_NAMES, formatOf, formatOfRange, INTEGER, INTEGER_FORMAT, KIND_NAMES, NO_FORMAT, OBJECT, STRING, textKind,
} from './value-format.js';


/** A plain JSON path segment (`.name`); anything else is written `['name']`. */
/** Members of one object found by a walk; more go in a Map. */
const MAX_WALKED_MEMBERS = 24;

const PLAIN_KEY = /^[A-Za-z_$][A-Za-z0-9_$-]*$/;

function keySegment(key: string): string {
  return PLAIN_KEY.test(key) ? `.${key}` : `['${key.replace(/[\\']/g, (c) => `\\${c}`)}']`;
}

class FieldNode {
  count = 0;
  redacted = 0;
  firstSeen = Infinity;
  lastSeen = -Infinity;
  readonly kinds = [0, 0, 0, 0, 0, 0, 0];
  formats: number[] | null = null;
  /** The JSON member's key ('' for other nodes). */
  key = '';
  /** JSON members, in the order first seen (only keys that are words: value-like keys share `star`). */
  members: FieldNode[] | null = null;
  /** Where the next member's search starts: after the last one found. */
  cursor = 0;
  /** The members by key, once there are too many to walk. */
  children: Map<string, FieldNode> | null = null;
  star: FieldNode | null = null;
  item: FieldNode | null = null;

  constructor(
    readonly location: FieldLocation,
    readonly status: number,
    readonly name: string,
    /** The JSON node this one is a member or an element of; null for `$` and every non-JSON row. */
    readonly parent: FieldNode | null,
    readonly depth: number,
    readonly isItem: boolean,
  ) {}

  /** Kinds and formats seen on this thread, as bits (kept from batch to batch with sampling: a new one renews). */
  known = 0;
  /** Times its container was present in batches where this row was not (with sampling): added to its next parents. */
  pending = 0;

  addFormat(format: number, weight: number): void {
    if (format === NO_FORMAT) return;
    (this.formats ??= [0, 0, 0, 0, 0, 0, 0, 0])[format] += weight;
  }

  /** The kinds and formats of this batch, as bits. */
  bits(): number {
    let bits = 0;
    for (let i = 0; i < this.kinds.length; i++) if (this.kinds[i] !== 0) bits |= 1 << i;
    if (this.formats !== null) for (let i = 0; i < this.formats.length; i++) if (this.formats[i] !== 0) bits |= 1 << (7 + i);
    return bits;
  }

  /** Counts back to none, for the next batch (the node and its place in the tree stay). */
  reset(): void {
    this.count = 0;
    this.redacted = 0;
    this.firstSeen = Infinity;
    this.lastSeen = -Infinity;
    this.kinds.fill(0);
    this.formats = null;
  }

}

/** Rows that are not below `$` (exchange, path, query, headers, body roots), by status, then name. */
type RowTable = Map<number, Map<string, FieldNode>>;

class RouteFields {
  /** Per location: no key string is built per row and exchange. */
  readonly rows: Partial<Record<FieldLocation, RowTable>> = {};
  readonly nodes: FieldNode[] = [];
  exchanges = 0;
  /** A row was made in this batch (with sampling: something new, the route is observed fully again). */
  grew = false;
  constructor(readonly route: string, readonly sampling: RouteSampling | null) {}
}

/**
 * One batch's observations, merged per route, location, status and name, within `FIELD_LIMITS`; what the limits
 * leave out is counted in `overflow`. Feed it exchange by exchange: `begin`, then `exchangeFields`, then a body's
 * `bodyRoot` as the root its JSON scan observes from (it is the scan's `JsonObserver`).
 */
export class FieldRecorder implements JsonObserver {
  private readonly routes = new Map<string, RouteFields>();
  private readonly overflow: FieldOverflow = { route: 0, total: 0 };
  private current: RouteFields | null = null;
  private now = 0;
  /** The detectors of the exchange's decision: a value they would mask counts as redacted. */
  private detect: readonly DetectorKind[] = [];
  /** What each observation of the current exchange counts for: 1, or K when it is the one walked in K. */
  private weight = 1;

  /**
   * `sampling`: the worker thread's per-route sampling (field-sampling.ts), whose counts are estimates past warm-up;
   * null observes every exchange fully (`record_fields: full`), counts exact.
   */
  constructor(
    private readonly limits: { fieldsPerRoute: number; routes: number; depth: number } = FIELD_LIMITS,
    private readonly sampling: FieldSampling | null = null,
  ) {}

  /**
   * Starts an exchange: counts it in its route's `exchange` row, and says whether its fields are observed (false
   * when its route is over the route cap, or when sampling does not walk this one).
   */
  begin(exchange: RawExchange, decision: RouteDecision): boolean {
    const template = templateOf(exchange.path);
    const key = `${exchange.method.toUpperCase()} ${template.path}`;
    let route = this.routes.get(key);
    if (route === undefined) {
      if (this.routes.size >= this.limits.routes) {
        this.overflow.total++;
        this.current = null;
        return false;
      }
      // With sampling, the thread's rows of the route, kept from the last batch (field-sampling.ts).
      // (A FieldSampling's routes are only ever made here.)
      route = this.sampling === null ? new RouteFields(key, null) : this.sampling.route(key, (s) => new RouteFields(key, s)) as RouteFields;
      this.routes.set(key, route);
    }
    this.current = route;
    this.now = exchange.time;
    route.exchanges++;
    this.weight = 1;
    const row = this.row('exchange', exchange.status, '');
    if (row) this.touch(row);
    // Not walked: the exchange is counted above, and nothing else of it is looked at (not even its body decoded).
    this.weight = route.sampling === null ? 1 : route.sampling.next();
    if (this.weight === 0) {
      this.current = null;
      return false;
    }
    this.detect = detectorsOf(decision);
    this.pathParams(exchange.path, template);
    return true;
  }

  /** The query parameters and (when the decision captures them) the headers of the current exchange. */
  exchangeFields(exchange: RawExchange, decision: RouteDecision): void {
    if (this.current === null) return;
    this.query(exchange.target, decision.redactQuery);
    if (!decision.captureHeaders) return;
    if (exchange.requestHeaders) this.headers(exchange.requestHeaders, 'request_header', 0, decision.redactHeaders);
    if (exchange.responseHeaders) this.headers(exchange.responseHeaders, 'response_header', exchange.status, decision.redactHeaders);
  }

  /** The node of a body's `$`, for its JSON scan; null when not observed. */
  bodyRoot(location: 'request_body' | 'response_body', status: number): ObservedNode | null {
    return this.current === null ? null : this.row(location, status, '$');
  }

  /** The batch's observations, one per route, location, status and name, and what the caps left out. */
  take(): { fields: FieldObservation[]; fieldOverflow: FieldOverflow } {
    const fields: FieldObservation[] = [];
    for (const route of this.routes.values()) {
      const kept = route.sampling !== null;
      for (const node of route.nodes) {
        if (node.count === 0) {
          // Kept for its next batch: this batch's containers without it still count in its parents.
          if (kept && !node.isItem) node.pending += this.parentsOf(route, node);
          continue;
        }
        const parents = this.parentsOf(route, node) + node.pending;
        node.pending = 0;
        fields.push({
          route: route.route, location: node.location, status: node.status, name: node.name, count: node.count,
          parents, kinds: named(node.kinds, KIND_NAMES) as Partial<Record<JsonKind, number>>,
          formats: node.formats ? named(node.formats, FORMAT_NAMES) as Partial<Record<ValueFormat, number>> : {},
          redacted: node.redacted, firstSeen: node.firstSeen, lastSeen: node.lastSeen,
        });
      }
      if (!kept) continue;
      // Parents read other rows' counts: reset only once every row is out.
      let novel = route.grew;
      for (const node of route.nodes) {
        if (node.count === 0) continue;
        const bits = node.bits();
        if ((node.known & bits) !== bits) {
          node.known |= bits;
          novel = true;
        }
        node.reset();
      }
      if (novel) route.sampling!.renew();
      route.exchanges = 0;
      route.grew = false;
      // A route at its row cap would keep its first rows for the thread's life and never record a new field: it
      // starts again from nothing, as every batch did before rows were kept (full observation while it warms up).
      if (route.nodes.length >= this.limits.fieldsPerRoute) this.sampling!.forget(route.route);
    }
    return { fields, fieldOverflow: { ...this.overflow } };
  }

  // ---- JsonObserver ----

  key(parent: ObservedNode, text: string, from: number, to: number, decoded: string | null): ObservedNode | null {
    const p = parent as FieldNode;
    if (p.depth >= this.limits.depth) return null;
    const list = p.members;
    if (list !== null && p.children === null) {
      // Objects of one route mostly hold their keys in one order: the member after the last one found comes first,
      // and the key is compared where it stands in the text, never sliced.
      const n = list.length;
      const length = to - from;
      for (let k = 0, i = p.cursor; k < n; k++, i = i + 1 === n ? 0 : i + 1) {
        const c = list[i];
        if (decoded === null ? c.key.length === length && text.startsWith(c.key, from) : c.key === decoded) {
          p.cursor = i + 1 === n ? 0 : i + 1;
          return c;
        }
      }
    }
    const key = decoded ?? text.slice(from, to);
    const known = p.children?.get(key);
    if (known !== undefined) return known;
    // A key that is a value (an id, an email, a date: a map keyed by them) is never a name: all such keys of one
    // object are one field, `*`.
    if (classifySegment(key).param) {
      return p.star ??= this.node(p.location, p.status, `${p.name}.*`, p, false);
    }
    const child = this.node(p.location, p.status, p.name + keySegment(key), p, false);
    if (child === null) return null;
    child.key = key;
    (p.members ??= []).push(child);
    // Past a few dozen members a Map finds them faster than the walk above.
    if (p.children !== null || p.members.length > MAX_WALKED_MEMBERS) {
      p.children ??= new Map(p.members.map((m) => [m.key, m]));
      p.children.set(key, child);
    }
    return child;
  }

  item(parent: ObservedNode): ObservedNode | null {
    const p = parent as FieldNode;
    if (p.depth >= this.limits.depth) return null;
    return p.item ??= this.node(p.location, p.status, `${p.name}[*]`, p, true);
  }

  value(node: ObservedNode, kind: number, redacted: boolean): void {
    const n = node as FieldNode;
    n.kinds[kind] += this.weight;
    if (redacted) n.redacted += this.weight;
    this.touch(n);
  }

  string(node: ObservedNode, text: string, from: number, to: number, escaped: boolean, redacted: boolean): void {
    const n = node as FieldNode;
    n.kinds[STRING] += this.weight;
    this.touch(n);
    if (!escaped && this.detect.length === 0) {
      n.addFormat(formatOfRange(text, from, to), this.weight);
      if (redacted) n.redacted += this.weight;
      return;
    }
    const value = escaped ? JSON.parse(text.slice(from - 1, to + 1)) as string : text.slice(from, to);
    n.addFormat(formatOf(value), this.weight);
    if (redacted || this.masked(value)) n.redacted += this.weight;
  }

  // ---- the rest of an exchange ----

  private pathParams(path: string, template: RouteTemplate): void {
    if (template.params.length === 0) return;
    // Detectors mask the record's path: a parameter they would mask counts as redacted.
    const segments = this.detect.length === 0 ? null : path.split('/');
    const names = segments === null ? null : template.path.split('/');
    for (const param of template.params) {
      const row = this.row('path', 0, param.name);
      if (row === null) continue;
      this.touch(row);
      row.kinds[param.format === 'integer' ? INTEGER : STRING] += this.weight;
      if (param.format !== 'id') row.addFormat(param.format === 'integer' ? INTEGER_FORMAT : FORMAT_NAMES.indexOf(param.format), this.weight);
      if (segments !== null && names !== null) {
        const at = names.indexOf(`{${param.name}}`);
        const value = at >= 0 && param.name !== 'rest' ? segments[at] ?? '' : '';
        if (value !== '' && this.masked(value)) row.redacted += this.weight;
      }
    }
  }

  private query(target: string, redact: ReadonlySet<string>): void {
    const q = target.indexOf('?');
    if (q === -1) return;
    const hash = target.indexOf('#', q);
    const query = target.slice(q + 1, hash === -1 ? undefined : hash);
    if (query === '') return;
    for (const pair of query.split('&')) {
      if (pair === '') continue;
      const eq = pair.indexOf('=');
      const name = decodeComponent(eq === -1 ? pair : pair.slice(0, eq));
      const value = eq === -1 ? '' : decodeComponent(pair.slice(eq + 1));
      this.textField('query', 0, isWord(name) ? name : '*', value, redact.size !== 0 && redact.has(name.toLowerCase()));
    }
  }

  private headers(raw: readonly string[], location: 'request_header' | 'response_header', status: number, redact: ReadonlySet<string>): void {
    for (let i = 0; i + 1 < raw.length; i += 2) {
      const name = lowerName(raw[i]);
      this.textField(location, status, name, raw[i + 1], redact.size !== 0 && redact.has(name));
    }
  }

  private textField(location: FieldLocation, status: number, name: string, value: string, redacted: boolean): void {
    const row = this.row(location, status, name);
    if (row === null) return;
    this.touch(row);
    const kind = textKind(value);
    row.kinds[kind] += this.weight;
    if (kind === STRING) row.addFormat(formatOf(value), this.weight);
    if (redacted || this.masked(value)) row.redacted += this.weight;
  }

  private masked(value: string): boolean {
    return this.detect.length !== 0 && redactText(value, this.detect) !== value;
  }

  private touch(n: FieldNode): void {
    n.count += this.weight;
    if (this.now < n.firstSeen) n.firstSeen = this.now;
    if (this.now > n.lastSeen) n.lastSeen = this.now;
  }

  /** The current route's row that is not below `$`, made when new (null when the route is full). */
  private row(location: FieldLocation, status: number, name: string): FieldNode | null {
    const route = this.current!;
    const table = route.rows[location] ??= new Map();
    let names = table.get(status);
    if (names === undefined) table.set(status, (names = new Map()));
    const known = names.get(name);
    if (known !== undefined) return known;
    const node = this.node(location, status, name, null, false);
    if (node !== null) names.set(name, node);
    return node;
  }

  private node(location: FieldLocation, status: number, name: string, parent: FieldNode | null, isItem: boolean): FieldNode | null {
    const route = this.current!;
    if (route.nodes.length >= this.limits.fieldsPerRoute) {
      this.overflow.route++;
      return null;
    }
    const node = new FieldNode(location, status, name, parent, parent === null ? 0 : parent.depth + 1, isItem);
    route.nodes.push(node);
    route.grew = true;
    return node;
  }

  /** Times the node's container was present (FieldObservation.parents). */
  private parentsOf(route: RouteFields, node: FieldNode): number {
    if (node.isItem) return node.count;
    if (node.parent !== null) return node.parent.kinds[OBJECT];
    if (node.location === 'response_header' || node.location === 'response_body') {
      return route.rows.exchange?.get(node.status)?.get('')?.count ?? 0;
    }
    return route.exchanges;
  }
}

/** Header names lowercased, and query parameter names known to be words: names repeat, values are never kept. */
const NAME_CACHE_MAX = 2_048;
const lowerNames = new Map<string, string>();
const words = new Set<string>();

function lowerName(name: string): string {
  let lower = lowerNames.get(name);
  if (lower === undefined) {
    lower = name.toLowerCase();
    if (lowerNames.size >= NAME_CACHE_MAX) lowerNames.clear();
    lowerNames.set(name, lower);
  }
  return lower;
}

/** Not a value (classifySegment): a name to keep as it is. */
function isWord(name: string): boolean {
  if (words.has(name)) return true;
  if (classifySegment(name).param) return false;
  if (words.size >= NAME_CACHE_MAX) words.clear();
  words.add(name);
  return true;
}

const NO_DETECTORS: readonly DetectorKind[] = [];
const detectorLists = new WeakMap<ReadonlySet<DetectorKind>, readonly DetectorKind[]>();

/** The decision's detectors as a list, made once per decision (decisions are cached and shared). */
function detectorsOf(decision: RouteDecision): readonly DetectorKind[] {
  if (decision.detect.size === 0) return NO_DETECTORS;
  let list = detectorLists.get(decision.detect);
  if (list === undefined) detectorLists.set(decision.detect, (list = [...decision.detect]));
  return list;
}

function named(counts: readonly number[], names: readonly string[]): Record<string, number> {
  const out: Record<string, number> = {};
  for (let i = 0; i < counts.length; i++) if (counts[i] !== 0) out[names[i]] = counts[i];
  return out;
}
