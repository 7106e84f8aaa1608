// What two policies' decisions for one request disagree about, worked out once per pair of decisions (decisions are
// cached and shared per route by `compilePolicy`, so a review of a million requests compares a few hundred pairs).
import type { CompiledPolicy } from '../../../policies/compile.js';
import type { RouteDecision } from '../../../policies/merge.js';
import type { NameFilter, ViewParts } from './record-view.js';
import type { ChangePoint } from './review-kinds.js';

export type BodyPart = 'request_body' | 'response_body';

/** The disagreements of one pair of decisions, split by what they need from the request to be counted. */
export interface PairDiff {
  /** Both decisions store the same thing for any request: one scan serves both sides, nothing else to compare. */
  sameMasking: boolean;
  /** The parts both views hold alike (one scan serves both sides), and those they hold differently. */
  alike: Readonly<ViewParts>;
  differing: Readonly<ViewParts>;
  /** Nothing is in `differing`: one scan serves both policies (their detectors may still differ). */
  viewsAlike: boolean;
  /** Nothing at all differs. */
  identical: boolean;
  /** Changes that hold for every request the pair decides: restrictions, detectors, labels, WASM modules. */
  always: readonly ChangePoint[];
  /** Lower-case query parameter names base masks and head does not, and the other way round. */
  queryStops: ReadonlySet<string>;
  queryStarts: ReadonlySet<string>;
  /** Header names likewise, when both capture headers (else the restriction is the change). */
  headerStops: ReadonlySet<string>;
  headerStarts: ReadonlySet<string>;
  /** Body parts both capture whose JSON field redactions differ: the request's JSON paths decide what changes. */
  jsonParts: readonly BodyPart[];
  /** `sample` or `keep_errors` differ, and one of the two keeps some body: the request's status decides. */
  sampling: boolean;
}

const minus = <T>(a: ReadonlySet<T>, b: ReadonlySet<T>): Set<T> => new Set([...a].filter((x) => !b.has(x)));
const sameSet = <T>(a: ReadonlySet<T>, b: ReadonlySet<T>): boolean => a.size === b.size && [...a].every((x) => b.has(x));
const capture = (d: RouteDecision, part: BodyPart): boolean => (part === 'request_body' ? d.captureRequestBody : d.captureResponseBody);

/** Decides both policies and keeps what their decisions disagree about, per pair. */
export class DecisionPairs {
  private readonly pairs = new Map<RouteDecision, Map<RouteDecision, PairDiff>>();

  constructor(readonly base: CompiledPolicy, readonly head: CompiledPolicy) {}

  diff(b: RouteDecision, h: RouteDecision): PairDiff {
    let byHead = this.pairs.get(b);
    if (!byHead) { byHead = new Map(); this.pairs.set(b, byHead); }
    let d = byHead.get(h);
    if (!d) { d = this.compare(b, h); byHead.set(h, d); }
    return d;
  }

  private modules(policy: CompiledPolicy, d: RouteDecision): Set<string> {
    return new Set(d.ruleIndexes.map((i) => policy.rules[i].wasm).filter((m): m is string => m !== undefined));
  }

  private compare(b: RouteDecision, h: RouteDecision): PairDiff {
    const always: ChangePoint[] = [];
    for (const part of ['request_body', 'response_body'] as const) {
      if (capture(b, part) && !capture(h, part)) always.push({ kind: 'restricts_body', part, field: part });
      if (!capture(b, part) && capture(h, part)) always.push({ kind: 'captures_restricted_body', part, field: part });
    }
    if (b.captureHeaders && !h.captureHeaders) always.push({ kind: 'restricts_headers', part: 'headers', field: 'headers' });
    if (!b.captureHeaders && h.captureHeaders) always.push({ kind: 'captures_restricted_headers', part: 'headers', field: 'headers' });
    for (const kind of minus(b.detect, h.detect)) always.push({ kind: 'stops_detecting', part: 'route', field: kind });
    for (const kind of minus(h.detect, b.detect)) always.push({ kind: 'starts_detecting', part: 'route', field: kind });
    const baseLabels = new Map(b.labels.map((l) => [l.name, l.header]));
    const headLabels = new Map(h.labels.map((l) => [l.name, l.header]));
    for (const [name, header] of baseLabels) {
      const next = headLabels.get(name);
      if (next === undefined) always.push({ kind: 'drops_label', part: 'route', field: name });
      else if (next !== header) always.push({ kind: 'changes_label_source', part: 'route', field: `${name}: header:${header} → header:${next}` });
    }
    for (const name of headLabels.keys()) if (!baseLabels.has(name)) always.push({ kind: 'adds_label', part: 'route', field: name });
    const baseModules = this.modules(this.base, b);
    const headModules = this.modules(this.head, h);
    for (const m of minus(baseModules, headModules)) always.push({ kind: 'drops_wasm_policy', part: 'route', field: m });
    for (const m of minus(headModules, baseModules)) always.push({ kind: 'adds_wasm_policy', part: 'route', field: m });

    const bothHeaders = b.captureHeaders && h.captureHeaders;
    const headerStops = bothHeaders ? minus(b.redactHeaders, h.redactHeaders) : new Set<string>();
    const headerStarts = bothHeaders ? minus(h.redactHeaders, b.redactHeaders) : new Set<string>();
    const queryStops = minus(b.redactQuery, h.redactQuery);
    const queryStarts = minus(h.redactQuery, b.redactQuery);
    const sameJson = sameSet(new Set(b.jsonFields.map((p) => p.expression)), new Set(h.jsonFields.map((p) => p.expression)));
    const jsonParts = sameJson ? [] : (['request_body', 'response_body'] as const).filter((p) => capture(b, p) && capture(h, p));
    const keepsBodies = (d: RouteDecision) => (d.captureRequestBody || d.captureResponseBody) && (d.sample > 0 || d.keepErrors);
    const sampling = (b.sample !== h.sample || b.keepErrors !== h.keepErrors) && (keepsBodies(b) || keepsBodies(h));

    // Detectors are left out of the views (record-view.ts). Parameters and headers that only one policy masks are
    // the ones the views hold differently: a header value such as a user agent costs the detectors as much as a body.
    const queryNames = new Set([...queryStops, ...queryStarts]);
    const headerNames = new Set([...minus(b.redactHeaders, h.redactHeaders), ...minus(h.redactHeaders, b.redactHeaders)]);
    const split = (names: Set<string>): [NameFilter, NameFilter] => (names.size === 0 ? [true, false] : [{ except: names }, { only: names }]);
    const [queryAlike, queryDiffering] = split(queryNames);
    const [headersAlike, headersDiffering] = b.captureHeaders === h.captureHeaders ? split(headerNames) : [false, true];
    const bodyAlike = (part: BodyPart) => sameJson && capture(b, part) === capture(h, part);
    const alike: ViewParts = { query: queryAlike, headers: headersAlike, request_body: bodyAlike('request_body'), response_body: bodyAlike('response_body') };
    const differing: ViewParts = { query: queryDiffering, headers: headersDiffering, request_body: !alike.request_body, response_body: !alike.response_body };
    const viewsAlike = differing.query === false && differing.headers === false && !differing.request_body && !differing.response_body;
    const sameMasking = viewsAlike && sameSet(b.detect, h.detect);
    return {
      sameMasking,
      viewsAlike,
      alike,
      differing,
      identical: sameMasking && always.length === 0 && !sampling,
      always, queryStops, queryStarts, headerStops, headerStarts, jsonParts, sampling,
    };
  }
}
