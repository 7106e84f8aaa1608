// `vigil review`'s core: each request decided by both policies, and every point where the two decisions would store
// it differently counted per route. Only decisions are compared, never values: which parameters, headers and JSON
// paths the request holds, and its status, are all it takes (review-kinds.ts lists the points).
import { routeTemplate } from '../../../gateway/fields/api-fields.js';
import type { CompiledPolicy } from '../../../policies/compile.js';
import type { RouteDecision } from '../../../policies/merge.js';
import type { DetectorKind } from '../../../policies/detectors/types.js';
import { DetectionCache, ScanCollector, type Finding } from '../scan/scan-core.js';
import { DecisionPairs, type BodyPart, type PairDiff } from './decision-pairs.js';
import { coverageChanges } from './json-coverage.js';
import { recordView } from './record-view.js';
import { CHANGE_KINDS, type ChangeKind, type ChangePart, type ChangePoint, type Direction } from './review-kinds.js';
import type { ReviewInput } from './review-input.js';

/** One row of the report: a change on one route, and how many requests it touches. */
export interface ChangeRow extends ChangePoint {
  direction: Direction;
  /** Method and path template: `POST /api/users/{id}`. */
  route: string;
  requests: number;
}

/** Requests whose part could not be compared, because the stored record does not hold it. */
export interface NotCompared {
  route: string;
  part: BodyPart | 'request_header' | 'response_header';
  reason: string;
  requests: number;
}

/** A sensitive-looking value (as `vigil scan` finds them) and which policy stores it in the clear. */
export interface Exposures {
  /** Stored in the clear under both: not introduced by the change. */
  pre_existing: Finding[];
  /** Masked under base, in the clear under head. */
  introduced: Finding[];
  /** In the clear under base, masked (or not stored) under head. */
  fixed: Finding[];
}

/** Per kind: the distinct requests and routes its rows touch. */
export interface KindTotal {
  kind: ChangeKind;
  direction: Direction;
  routes: number;
  requests: number;
}

export interface ReviewResult {
  requests: number;
  routes: number;
  /** In the order of CHANGE_KINDS: weakening first. */
  kinds: KindTotal[];
  changes: ChangeRow[];
  /** Rows left out once MAX_ROWS distinct rows were counted (hostile or id-like keys), by kind. */
  rows_left_out: Partial<Record<ChangeKind, number>>;
  not_compared: NotCompared[];
  exposures: Exposures;
  /** Rules whose text differs between the policies but that no request in the traffic matched under either. */
  unexercised_rules: string[];
  weakening: number;
}

// Distinct rows kept: each is a route, part and field; JSON keys that are ids could otherwise grow the report without end.
const MAX_ROWS = 10_000;
const MAX_NOT_COMPARED = 1_000;

interface Counted { row: ChangeRow; last: number }

function isError(status: number | undefined): boolean {
  return status === 0 || (status !== undefined && status >= 500);
}

/** The chance that the bodies of a request with this status are kept. */
function keepRate(d: RouteDecision, status: number | undefined): number {
  return d.keepErrors && isError(status) ? 1 : d.sample;
}

function header(headers: Record<string, string | string[]> | null | undefined, name: string): string | undefined {
  if (!headers) return undefined;
  for (const k of Object.keys(headers)) if (k.toLowerCase() === name) return [headers[k]].flat()[0];
  return undefined;
}

/** Whether a stored record's absent body had one on the wire: its headers say so (unknown headers: assume it did). */
function hadBody(input: ReviewInput, part: BodyPart): boolean {
  const headers = part === 'request_body' ? input.headers : input.response_headers;
  if (part === 'response_body' && (input.status === 0 || input.status === 204 || input.status === 304 || input.method === 'HEAD')) return false;
  if (!headers) return true;
  const length = header(headers, 'content-length');
  if (length !== undefined) return Number(length) > 0;
  // Without a length, a request has a body only when chunked; a response may run to the connection's close.
  return part === 'response_body' || header(headers, 'transfer-encoding') !== undefined;
}

function whyMissing(input: ReviewInput, part: BodyPart): string {
  if (input.sampled === false) return 'body sampled out when stored';
  if (typeof input.dropped_reason === 'string' && input.dropped_reason.includes(part)) return 'body dropped when stored';
  return 'body not stored (restricted, or over the capture budget)';
}

const findingKey = (f: Finding) => `${f.route}\u0000${f.part}\u0000${f.field}\u0000${f.kind}`;

/** Collects the review over many requests; `result()` gives the rows, sorted weakening first. */
export class ReviewCollector {
  private readonly pairs: DecisionPairs;
  private readonly rows = new Map<string, Counted>();
  private readonly kinds = new Map<ChangeKind, { last: number; requests: number; routes: Set<string> }>();
  private readonly leftOut: Partial<Record<ChangeKind, number>> = {};
  private readonly missing = new Map<string, NotCompared>();
  private readonly routes = new Set<string>();
  private readonly matchedBase = new Set<number>();
  private readonly matchedHead = new Set<number>();
  private readonly exposures = { pre_existing: new Map<string, Finding>(), introduced: new Map<string, Finding>(), fixed: new Map<string, Finding>() };
  private readonly detections = new DetectionCache();
  requests = 0;

  constructor(private readonly base: CompiledPolicy, private readonly head: CompiledPolicy) {
    this.pairs = new DecisionPairs(base, head);
  }

  add(input: ReviewInput): void {
    const n = ++this.requests;
    const b = this.base.decide(input.method, input.path);
    const h = this.head.decide(input.method, input.path);
    for (const i of b.ruleIndexes) this.matchedBase.add(i);
    for (const i of h.ruleIndexes) this.matchedHead.add(i);
    const route = routeTemplate(input.method, input.path);
    this.routes.add(route);
    const diff = this.pairs.diff(b, h);
    this.scan(input, b, h, diff);
    if (diff.identical) return;
    for (const point of diff.always) this.count(route, point, n);
    if (diff.sampling) this.sampling(route, input, b, h, n);
    this.names(route, 'query', input.query, diff.queryStops, diff.queryStarts, n);
    if (diff.headerStops.size > 0 || diff.headerStarts.size > 0) {
      for (const [part, headers] of [['request_header', input.headers], ['response_header', input.response_headers]] as const) {
        if (headers) this.names(route, part, headers, diff.headerStops, diff.headerStarts, n);
        // No response (status 0) has no response headers to compare.
        else if (input.stored && !(part === 'response_header' && input.status === 0)) this.notCompared(route, part, 'headers not stored (restricted when stored)');
      }
    }
    for (const part of diff.jsonParts) this.json(route, part, input, b, h, n);
  }

  private count(route: string, point: ChangePoint, n: number): void {
    this.total(route, point.kind, n);
    const key = `${point.kind}\u0000${route}\u0000${point.part}\u0000${point.field}`;
    let c = this.rows.get(key);
    if (!c) {
      if (this.rows.size >= MAX_ROWS) { this.leftOut[point.kind] = (this.leftOut[point.kind] ?? 0) + 1; return; }
      c = { row: { ...point, direction: CHANGE_KINDS[point.kind].direction, route, requests: 0 }, last: 0 };
      this.rows.set(key, c);
    }
    // A request counts once per row, however many array elements hold the field.
    if (c.last !== n) { c.last = n; c.row.requests++; }
  }

  private total(route: string, kind: ChangeKind, n: number): void {
    let t = this.kinds.get(kind);
    if (!t) { t = { last: 0, requests: 0, routes: new Set() }; this.kinds.set(kind, t); }
    if (t.last !== n) { t.last = n; t.requests++; }
    t.routes.add(route);
  }

  private notCompared(route: string, part: NotCompared['part'], reason: string): void {
    const key = `${route}\u0000${part}\u0000${reason}`;
    const m = this.missing.get(key);
    if (m) m.requests++;
    else if (this.missing.size < MAX_NOT_COMPARED) this.missing.set(key, { route, part, reason, requests: 1 });
  }

  private names(route: string, part: ChangePart, values: Record<string, unknown> | null, stops: ReadonlySet<string>, starts: ReadonlySet<string>, n: number): void {
    if (!values || (stops.size === 0 && starts.size === 0)) return;
    for (const name of Object.keys(values)) {
      const lower = name.toLowerCase();
      const noun = part === 'query' ? 'query_param' : 'header';
      if (stops.has(lower)) this.count(route, { kind: `stops_redacting_${noun}`, part, field: name }, n);
      else if (starts.has(lower)) this.count(route, { kind: `starts_redacting_${noun}`, part, field: name }, n);
    }
  }

  private sampling(route: string, input: ReviewInput, b: RouteDecision, h: RouteDecision, n: number): void {
    const before = keepRate(b, input.status);
    const after = keepRate(h, input.status);
    if (before === after) return;
    const byErrors = isError(input.status) && b.keepErrors !== h.keepErrors;
    const field = byErrors ? `keep_errors ${b.keepErrors ? 'on' : 'off'} → ${h.keepErrors ? 'on' : 'off'} (status ${input.status})`
      : `sample ${b.sample} → ${h.sample}`;
    this.count(route, { kind: after > before ? 'keeps_more_bodies' : 'keeps_fewer_bodies', part: 'route', field }, n);
  }

  private json(route: string, part: BodyPart, input: ReviewInput, b: RouteDecision, h: RouteDecision, n: number): void {
    const body = input[part];
    if (body === null || body === undefined) {
      if (input.stored && hadBody(input, part)) this.notCompared(route, part, whyMissing(input, part));
      return;
    }
    // A body neither policy would ever keep for this request cannot expose anything.
    if (keepRate(b, input.status) <= 0 && keepRate(h, input.status) <= 0) return;
    const { stops, starts } = coverageChanges(body, b.jsonFields, h.jsonFields);
    for (const field of stops) this.count(route, { kind: 'stops_redacting_json_field', part, field }, n);
    for (const field of starts) this.count(route, { kind: 'starts_redacting_json_field', part, field }, n);
  }

  /**
   * The sensitive-looking values of one request, each filed by the policies that would store it in the clear. Parts
   * both views hold alike are scanned once, the others once per policy; a finding of a kind a policy's detectors
   * mask is one that policy does not store.
   */
  private scan(input: ReviewInput, b: RouteDecision, h: RouteDecision, diff: PairDiff): void {
    const alike = new ScanCollector(this.detections);
    alike.add(recordView(input, h, diff.alike));
    for (const f of alike.findings()) this.file(f, true, true, b, h);
    if (diff.viewsAlike) return;
    const before = new ScanCollector(this.detections);
    const after = new ScanCollector(this.detections);
    before.add(recordView(input, b, diff.differing));
    after.add(recordView(input, h, diff.differing));
    const was = new Map(before.findings().map((f) => [findingKey(f), f]));
    for (const f of after.findings()) {
      const key = findingKey(f);
      this.file(f, was.delete(key), true, b, h);
    }
    for (const f of was.values()) this.file(f, true, false, b, h);
  }

  /** Files a finding seen in the base's view, the head's, or both, unless the policy's detectors mask its kind. */
  private file(f: Finding, inBase: boolean, inHead: boolean, b: RouteDecision, h: RouteDecision): void {
    const clearBefore = inBase && !b.detect.has(f.kind as DetectorKind);
    const clearAfter = inHead && !h.detect.has(f.kind as DetectorKind);
    if (clearBefore && clearAfter) this.expose('pre_existing', f);
    else if (clearAfter) this.expose('introduced', f);
    else if (clearBefore) this.expose('fixed', f);
  }

  private expose(status: keyof Exposures, f: Finding): void {
    const key = findingKey(f);
    const m = this.exposures[status];
    const seen = m.get(key);
    if (seen) seen.records += f.records;
    else m.set(key, { ...f });
  }

  result(): ReviewResult {
    const order = Object.keys(CHANGE_KINDS);
    const changes = [...this.rows.values()].map((c) => c.row).sort((x, y) => order.indexOf(x.kind) - order.indexOf(y.kind)
      || y.requests - x.requests || x.route.localeCompare(y.route) || x.part.localeCompare(y.part) || x.field.localeCompare(y.field));
    const sorted = (m: Map<string, Finding>) => [...m.values()].sort((x, y) => y.records - x.records || findingKey(x).localeCompare(findingKey(y)));
    const kinds = (order as ChangeKind[]).filter((k) => this.kinds.has(k)).map((kind) => {
      const t = this.kinds.get(kind)!;
      return { kind, direction: CHANGE_KINDS[kind].direction, routes: t.routes.size, requests: t.requests };
    });
    return {
      requests: this.requests,
      routes: this.routes.size,
      kinds,
      changes,
      rows_left_out: this.leftOut,
      not_compared: [...this.missing.values()].sort((x, y) => y.requests - x.requests || x.route.localeCompare(y.route)),
      exposures: { pre_existing: sorted(this.exposures.pre_existing), introduced: sorted(this.exposures.introduced), fixed: sorted(this.exposures.fixed) },
      unexercised_rules: this.unexercised(),
      weakening: changes.filter((c) => c.direction === 'weakening').length
        + Object.entries(this.leftOut).filter(([k]) => CHANGE_KINDS[k as ChangeKind].direction === 'weakening').reduce((s, [, v]) => s + (v ?? 0), 0),
    };
  }

  /** Names of rules added, removed or changed that no request matched in either policy: the traffic says nothing of them. */
  private unexercised(): string[] {
    const text = (p: CompiledPolicy) => new Map(p.rules.map((r, i) => [r.name, { json: JSON.stringify(r), i }]));
    const before = text(this.base);
    const after = text(this.head);
    const out: string[] = [];
    for (const name of new Set([...before.keys(), ...after.keys()])) {
      const b = before.get(name);
      const a = after.get(name);
      if (b?.json === a?.json) continue;
      if ((b && this.matchedBase.has(b.i)) || (a && this.matchedHead.has(a.i))) continue;
      out.push(name);
    }
    return out.sort();
  }
}
