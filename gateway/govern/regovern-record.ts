// The agent's policy as a floor under records a middleware sends (POST /api/gateway/records): a middleware with an
// old or wrong policy must not break "stored records hold the marker where the agent's policy says so". Each record
// is governed again, by the decision for its own method and path, over what it carries: restricted parts, header
// names, query parameters, JSON paths of the bodies, then the detectors. What is already the marker stays so.
import type { RegovernedRecord, RegovernReason } from './govern-task.js';
import { REDACTED } from '../../policies/compile-json-path.js';
import { redactText } from '../../policies/detectors/index.js';
import type { DetectorKind } from '../../policies/detectors/types.js';
import { governJsonText, MAX_JSON_DEPTH } from '../../policies/json-text.js';
import type { RouteDecision } from '../../policies/merge.js';
import { appendValue, setOwn } from './header-record.js';
import { maskDetected } from './mask-detected.js';
import { decodeComponent, queryToRecord } from './query-record.js';
import type { GovernedRecord, StorableRecord } from './types.js';
import type { SentBodyTexts } from '../records/ingest-body-texts.js';

type Values = Record<string, string | string[]>;

/** Places listed in `agent_masked`, at most (then `…`); each at most this many characters. */
export const MAX_MASKED_LISTED = 32;
const MAX_PLACE_CHARS = 200;
const MORE = '…';

const RESTRICTED: RegovernedRecord = Object.freeze({ restricted: true });

/** The path a record's decision is taken for: a query left in it is no part of the path. */
export function pathOfRecord(path: string): string {
  const q = path.indexOf('?');
  return q === -1 ? path : path.slice(0, q);
}

/**
 * `received` governed by `decision` (the agent's, for the record's method and path). Fails closed: a route the
 * decision captures nothing of is `restricted` (not stored); a body that cannot be redacted by path is dropped with
 * the reason in `dropped_reason`; a record that cannot be governed at all keeps its metadata only. `sent` holds the
 * bodies' JSON texts as the middleware wrote them (ingest-body-texts.ts): kept as they are where nothing is masked.
 */
export function regovernRecord(received: GovernedRecord, decision: RouteDecision, sent?: SentBodyTexts): RegovernedRecord {
  if (!decision.captureRequestBody && !decision.captureResponseBody && !decision.captureHeaders) return RESTRICTED;
  try {
    return governReceived(received, decision, sent);
  } catch (err) {
    return metadataOnly(received, decision, err);
  }
}

function governReceived(r: GovernedRecord, d: RouteDecision, sent: SentBodyTexts | undefined): RegovernedRecord {
  const reasons = new Set<RegovernReason>();
  const drops: string[] = [];
  // A query left in the path is read as the gateway reads a request-target's, and governed with the rest.
  const path = pathOfRecord(r.path);
  const sentQuery = path === r.path ? r.query : withQueryOf(r.query, r.path);

  const query = redactNamed(sentQuery, d.redactQuery, queryName);
  if (query !== sentQuery) reasons.add('query_param');
  const headers = d.captureHeaders ? redactNamed(r.headers, d.redactHeaders, headerName) : null;
  const responseHeaders = d.captureHeaders ? redactNamed(r.response_headers, d.redactHeaders, headerName) : null;
  if (!d.captureHeaders && (!isEmpty(r.headers) || !isEmpty(r.response_headers))) reasons.add('restrict');
  if ((headers !== null && headers !== r.headers) || (responseHeaders !== null && responseHeaders !== r.response_headers)) reasons.add('header');
  const labels = redactLabels(r, d);
  if (labels !== r.labels) reasons.add('header');

  // Each body is serialised once: governed as text, and compared as text to tell what changed.
  const sentBodies = { request: sentText(r.request_body, sent?.request_body), response: sentText(r.response_body, sent?.response_body) };
  const requestBody = governBody(r.request_body, sentBodies.request, d.captureRequestBody, d, 'request_body', reasons, drops);
  const responseBody = governBody(r.response_body, sentBodies.response, d.captureResponseBody, d, 'response_body', reasons, drops);
  let record: StorableRecord = {
    id: r.id, time: r.time, method: r.method, path, route: r.route, query, status: r.status, duration_ms: r.duration_ms,
    headers, response_headers: responseHeaders, request_body_json: requestBody, response_body_json: responseBody, labels,
    matched_rules: r.matched_rules, tokens: r.tokens, sampled: r.sampled, truncated: r.truncated, partial: r.partial,
    dropped_reason: drops.length === 0 ? r.dropped_reason : [r.dropped_reason, ...drops].filter((x) => x !== null).join('; '),
    error: r.error,
  };
  if (d.detect.size !== 0) {
    const before = record;
    record = maskAllDetected(record, d.detect);
    if (detectorChanged(before, record)) reasons.add('detector');
  }
  const masked = maskedPlaces(r, sentQuery, sentBodies, record);
  if (masked.length > 0) record.agent_masked = masked;
  return { restricted: false, record, reasons: [...reasons] };
}

/** `received` with nothing but its metadata: what is left when governing it threw (a bug, or a body past the stack). */
function metadataOnly(r: GovernedRecord, d: RouteDecision, err: unknown): RegovernedRecord {
  const kinds = [...d.detect];
  const path = kinds.length === 0 ? pathOfRecord(r.path) : redactText(pathOfRecord(r.path), kinds);
  const record: StorableRecord = {
    id: r.id, time: r.time, method: r.method, path, route: r.route.slice(), query: {}, status: r.status, duration_ms: r.duration_ms,
    headers: null, response_headers: null, request_body_json: 'null', response_body_json: 'null', labels: {},
    matched_rules: r.matched_rules.slice(), tokens: r.tokens, sampled: r.sampled, truncated: r.truncated, partial: r.partial,
    dropped_reason: `the agent could not govern this record (${err instanceof Error ? err.message : String(err)}); only metadata was kept`,
    error: r.error === null || kinds.length === 0 ? r.error : redactText(r.error, kinds),
  };
  const masked: string[] = path === pathOfRecord(r.path) ? [] : ['path'];
  if (!isEmpty(r.query) || r.path.includes('?')) masked.push('query');
  for (const part of ['headers', 'response_headers', 'labels', 'request_body', 'response_body'] as const) {
    if (!isEmpty(r[part])) masked.push(part);
  }
  if (masked.length > 0) record.agent_masked = masked;
  return { restricted: false, record, reasons: ['govern_failed'] };
}

function isEmpty(v: unknown): boolean {
  return v === null || v === undefined || (typeof v === 'object' && Object.keys(v).length === 0);
}

/** `query` with the parameters of the query in `path` added after its own (decoded, a repeated name an array). */
function withQueryOf(query: Values, path: string): Values {
  const out: Values = {};
  for (const name of Object.keys(query)) setOwn(out, name, copyValue(query[name]));
  const extra = queryToRecord(path, EMPTY_SET);
  for (const name of Object.keys(extra)) {
    const v = extra[name];
    for (const one of Array.isArray(v) ? v : [v]) appendValue(out, name, one);
  }
  return out;
}

const EMPTY_SET: ReadonlySet<string> = new Set();
const copyValue = (v: string | string[]): string | string[] => (Array.isArray(v) ? v.slice() : v);

/** How a header name is matched: case-insensitive, surrounding blanks ignored. */
const headerName = (name: string): string => name.trim().toLowerCase();
/** How a parameter name is matched: as the gateway matches it, decoded (`%74oken`) and case-insensitive. */
const queryName = (name: string): string => decodeComponent(name).trim().toLowerCase();

/**
 * `values` with every value under a name in `redact` (by `nameOf`) the marker; the same object when nothing changed,
 * so the caller can tell.
 */
function redactNamed<V extends Values | null>(values: V, redact: ReadonlySet<string>, nameOf: (n: string) => string): V {
  if (values === null || redact.size === 0) return values;
  let out: Values | null = null;
  const names = Object.keys(values);
  for (let i = 0; i < names.length; i++) {
    const name = names[i];
    const v = values[name];
    if (!redact.has(nameOf(name)) || isMarker(v)) continue;
    if (out === null) {
      out = {};
      for (let k = 0; k < names.length; k++) setOwn(out, names[k], values[names[k]]);
    }
    setOwn(out, name, Array.isArray(v) ? v.map(() => REDACTED) : REDACTED);
  }
  return (out ?? values) as V;
}

const isMarker = (v: string | string[]): boolean => (Array.isArray(v) ? v.every((x) => x === REDACTED) : v === REDACTED);

/**
 * Labels, except that a label holding what a header the agent redacts held (by the decision's own label source, or
 * by value, whatever the middleware's policy called the label) holds the marker: the record never keeps in a label
 * what it masks in a header.
 */
function redactLabels(r: GovernedRecord, d: RouteDecision): Record<string, string> {
  if (d.redactHeaders.size === 0) return r.labels;
  const secrets = new Set<string>();
  for (const values of [r.headers, r.response_headers]) {
    if (values === null) continue;
    for (const name of Object.keys(values)) {
      if (!d.redactHeaders.has(headerName(name))) continue;
      const v = values[name];
      for (const one of Array.isArray(v) ? v : [v]) if (one !== REDACTED) secrets.add(one);
    }
  }
  const fromRedacted = new Set(d.labels.filter((l) => d.redactHeaders.has(l.header)).map((l) => l.name));
  let out: Record<string, string> | null = null;
  for (const name of Object.keys(r.labels)) {
    const v = r.labels[name];
    if (v === REDACTED || (!fromRedacted.has(name) && !secrets.has(v))) continue;
    if (out === null) {
      out = {};
      for (const k of Object.keys(r.labels)) setOwn(out, k, r.labels[k]);
    }
    setOwn(out, name, REDACTED);
  }
  return out ?? r.labels;
}

/**
 * A received body as the JSON text to store. Restricted: none. With `json_fields` in the decision only a JSON
 * document can be kept: a string (text, or a JSON text the middleware kept as text) is dropped, as the gateway drops
 * a body it cannot parse where such a redaction applies, and so is a document nested past the scan's depth.
 */
function governBody(
  value: unknown, text: string, captured: boolean, d: RouteDecision, part: 'request_body' | 'response_body',
  reasons: Set<RegovernReason>, drops: string[],
): string {
  if (text === 'null') return text;
  if (!captured) {
    reasons.add('restrict');
    return 'null';
  }
  if (d.jsonFields.length === 0) return text;
  // A body that is the marker whole (`json_fields: [$]` redacted it already) has nothing left to redact.
  if (value === REDACTED) return text;
  if (typeof value === 'string') {
    reasons.add('body_dropped');
    drops.push(`${part}: text where the agent's json_fields redaction applies (only a JSON document can be redacted by path)`);
    return 'null';
  }
  const governed = governJsonText(text, { redact: d.jsonFields, read: null });
  if (!governed.ok) {
    reasons.add('body_dropped');
    drops.push(`${part}: JSON nested deeper than ${MAX_JSON_DEPTH} levels where the agent's json_fields redaction applies`);
    return 'null';
  }
  if (governed.text !== text) reasons.add('json_field');
  return governed.text;
}

/** A body as JSON text; 'null' when there is none. */
const bodyText = (value: unknown): string => (value === null || value === undefined ? 'null' : JSON.stringify(value));

/**
 * The body's text as the middleware sent it, where it is the parsed value's own: a document is governed as that
 * text (so it cannot hide from the paths or detectors), and a scalar, whose type decides what is kept (a string is
 * text, the marker is kept as it is), must parse to the value itself. Otherwise the parsed value, serialised.
 */
function sentText(value: unknown, text: string | undefined): string {
  if (text === undefined || value === null || value === undefined) return bodyText(value);
  if (typeof value === 'object') return text;
  try {
    return JSON.parse(text) === value ? text : bodyText(value);
  } catch {
    return bodyText(value);
  }
}

/** `maskDetected`, and the record's two free texts as well: a middleware writes them, and can write anything there. */
function maskAllDetected(record: StorableRecord, kinds: ReadonlySet<DetectorKind>): StorableRecord {
  const list = [...kinds];
  const masked = maskDetected(record, kinds);
  return {
    ...masked,
    dropped_reason: record.dropped_reason === null ? null : redactText(record.dropped_reason, list),
    error: record.error === null ? null : redactText(record.error, list),
  };
}

function detectorChanged(a: StorableRecord, b: StorableRecord): boolean {
  return a.path !== b.path || a.request_body_json !== b.request_body_json || a.response_body_json !== b.response_body_json
    || a.dropped_reason !== b.dropped_reason || a.error !== b.error
    || !sameJson(a.query, b.query) || !sameJson(a.headers, b.headers) || !sameJson(a.response_headers, b.response_headers)
    || !sameJson(a.labels, b.labels);
}

const sameJson = (a: unknown, b: unknown): boolean => a === b || JSON.stringify(a) === JSON.stringify(b);

/**
 * Where `stored` differs from what was sent, in record order, named from the stored side only (a masked key is
 * listed as masked, never as sent). `sentQuery` is the query as sent, with any query that was left in the path.
 */
function maskedPlaces(
  sent: GovernedRecord, sentQuery: Values, sentBodies: { request: string; response: string }, stored: StorableRecord,
): string[] {
  const out: string[] = [];
  if (stored.path !== pathOfRecord(sent.path)) out.push('path');
  valuePlaces('query', sentQuery, stored.query, out);
  valuePlaces('headers', sent.headers, stored.headers, out);
  valuePlaces('response_headers', sent.response_headers, stored.response_headers, out);
  valuePlaces('labels', sent.labels, stored.labels, out);
  bodyPlaces('request_body', sent.request_body, sentBodies.request, stored.request_body_json, out);
  bodyPlaces('response_body', sent.response_body, sentBodies.response, stored.response_body_json, out);
  if (sent.dropped_reason !== null && !stored.dropped_reason?.startsWith(sent.dropped_reason)) out.push('dropped_reason');
  if (stored.error !== sent.error) out.push('error');
  if (out.length > MAX_MASKED_LISTED) out.splice(MAX_MASKED_LISTED, out.length - MAX_MASKED_LISTED, MORE);
  return out.map((p) => (p.length > MAX_PLACE_CHARS ? `${p.slice(0, MAX_PLACE_CHARS - 1)}${MORE}` : p));
}

function valuePlaces(part: string, sent: Values | null, stored: Values | null, out: string[]): void {
  if (sent === null || sent === stored) return;
  if (stored === null) {
    if (Object.keys(sent).length > 0) out.push(part);
    return;
  }
  for (const name of Object.keys(stored)) {
    if (out.length > MAX_MASKED_LISTED) return;
    const before = Object.prototype.hasOwnProperty.call(sent, name) ? sent[name] : undefined;
    if (!sameJson(before, stored[name])) out.push(`${part}.${name}`);
  }
}

/** `sent` is a JSON value as parsed (plain objects, arrays and scalars), `sentJson` its text. */
function bodyPlaces(part: string, sent: unknown, sentJson: string, storedJson: string, out: string[]): void {
  if (sentJson === storedJson) return;
  if (storedJson === 'null') {
    out.push(part);
    return;
  }
  jsonPlaces(sent, JSON.parse(storedJson) as unknown, `${part}.$`, out);
}

/** The JSON paths at which `after` differs from `before`, in document order, named by `after`'s keys. */
function jsonPlaces(before: unknown, after: unknown, at: string, out: string[]): void {
  if (out.length > MAX_MASKED_LISTED || before === after) return;
  const bothObjects = before !== null && after !== null && typeof before === 'object' && typeof after === 'object'
    && Array.isArray(before) === Array.isArray(after);
  if (!bothObjects) {
    out.push(at);
    return;
  }
  if (Array.isArray(after)) {
    const b = before as unknown[];
    for (let i = 0; i < after.length; i++) jsonPlaces(b[i], after[i], `${at}[${i}]`, out);
    return;
  }
  const b = before as Record<string, unknown>;
  const a = after as Record<string, unknown>;
  const beforeKeys = Object.keys(b);
  const afterKeys = Object.keys(a);
  for (let i = 0; i < afterKeys.length; i++) {
    const key = afterKeys[i];
    const place = `${at}${/^[A-Za-z_$][\w$]*$/.test(key) ? `.${key}` : `[${JSON.stringify(key)}]`}`;
    // A key the detectors masked: the member is listed under its masked key.
    if (beforeKeys[i] !== key) out.push(place);
    else jsonPlaces(b[key], a[key], place, out);
  }
}
