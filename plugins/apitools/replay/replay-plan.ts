// Which stored records `vigil replay` can re-issue, and the request each one becomes. A record that governance made
// unreplayable is skipped with one reason; the reasons are tried in the order of SKIP_REASONS, the first that applies
// is the one counted.
import type { GovernedRecord } from '../../../gateway/records/governed-record.js';

/** The marker a governed record holds where a rule or a detector masked a value (policies/compile-json-path.ts). */
export const REDACTED = '[REDACTED]';

/** Every reason a record is skipped, in the order they are tried (README, "Skipped records"). */
export const SKIP_REASONS = [
  'unsafe_method', // the method is not in --methods (GET, HEAD, OPTIONS by default)
  'upstream_error', // the upstream never answered whole (the record's `error`): there is no status to compare with
  'truncated', // the request body was cut (capture limit, or cut short on the wire): what is kept is a prefix
  'redacted_value', // the path, a query parameter, a header or the request body holds the redaction marker
  'restricted_headers', // the record has no request headers (restricted by a rule, or governance kept only metadata)
  'dropped_body', // the request had a body that was not kept, for a reason the record gives, or sampled out
  'restricted_body', // the request had a body that was not kept, with no reason given: the policy restricts it
] as const;
export type SkipReason = (typeof SKIP_REASONS)[number];

/** Request headers never copied from a record: hop-by-hop ones (RFC 9110 §7.6.1), and those the client sets itself. */
const NOT_COPIED = new Set([
  'connection', 'keep-alive', 'proxy-connection', 'te', 'trailer', 'transfer-encoding', 'upgrade', 'proxy-authorization',
  'proxy-authenticate', 'host', 'content-length', 'expect',
  // The stored body is the decoded one, so it is sent without the encoding it once had.
  'content-encoding',
  // Left out so the target answers in identity encoding, which the shape comparison reads (a server may still compress).
  'accept-encoding',
]);

/** What the command line changes in every request: `--header 'Name: value'` (an empty value removes the header). */
export type HeaderOverrides = Map<string, { name: string; value: string }>;

export interface ReplayRequest {
  method: string;
  /** Path and query, as stored: the path as received, the query rebuilt from the record's parameters. */
  target: string;
  headers: Record<string, string | string[]>;
  body: Buffer | null;
}

export type Plan = { skip: SkipReason } | { request: ReplayRequest };

/** A record as read from the store: a governed record, loosely typed (any version of it may be stored). */
export type StoredRecord = Partial<GovernedRecord> & { id: string };

/** The plan for one record: the reason to skip it, or the request to send. */
export function planReplay(record: StoredRecord, methods: ReadonlySet<string>, overrides: HeaderOverrides): Plan {
  const method = String(record.method ?? '').toUpperCase();
  if (!methods.has(method)) return { skip: 'unsafe_method' };
  if (typeof record.error === 'string') return { skip: 'upstream_error' };
  const headers = record.headers ?? null;
  // Without headers there is no telling whether a body was sent; then a cut anywhere counts as the request's.
  const sentBody = headers === null ? record.request_body != null : hasBody(headers);
  if ((record.truncated === true || record.partial === true) && (sentBody || headers === null)) return { skip: 'truncated' };
  const path = String(record.path ?? '/');
  const query = record.query ?? {};
  if (path.includes(REDACTED) || holdsRedacted(query) || Object.keys(query).some((k) => k.includes(REDACTED))) return { skip: 'redacted_value' };
  if (headers !== null && Object.keys(headers).some((name) => !overrides.has(name.toLowerCase()) && holdsRedacted(headers[name]))) {
    return { skip: 'redacted_value' };
  }
  const body = record.request_body ?? null;
  if (body !== null && JSON.stringify(body).includes(REDACTED)) return { skip: 'redacted_value' };
  if (headers === null) return { skip: 'restricted_headers' };
  if (sentBody && body === null) {
    const reason = record.dropped_reason ?? '';
    if (/(^|; )request_body:|^governance failed/.test(reason) || record.sampled === false) return { skip: 'dropped_body' };
    return { skip: 'restricted_body' };
  }
  return { request: { method, target: path + queryString(query), headers: outgoingHeaders(headers, overrides), body: encodeBody(body, headers) } };
}

/** Whether the stored request headers say a body was sent: a non-zero Content-Length, or a Transfer-Encoding. */
function hasBody(headers: Record<string, string | string[]>): boolean {
  for (const name of Object.keys(headers)) {
    const lower = name.toLowerCase();
    if (lower === 'transfer-encoding') return true;
    if (lower === 'content-length' && [headers[name]].flat().some((v) => Number(v) > 0)) return true;
  }
  return false;
}

function holdsRedacted(value: unknown): boolean {
  if (typeof value === 'string') return value.includes(REDACTED);
  if (Array.isArray(value)) return value.some(holdsRedacted);
  if (value !== null && typeof value === 'object') return Object.values(value).some(holdsRedacted);
  return false;
}

/** `?a=1&b=2&b=3` from the record's parameters, in their stored order; '' when there are none. */
function queryString(query: Record<string, string | string[]>): string {
  const params = new URLSearchParams();
  for (const name of Object.keys(query)) for (const value of [query[name]].flat()) params.append(name, String(value));
  const text = params.toString();
  return text === '' ? '' : `?${text}`;
}

/** The stored headers minus those never copied (and those the Connection header names), then the overrides. */
function outgoingHeaders(stored: Record<string, string | string[]>, overrides: HeaderOverrides): Record<string, string | string[]> {
  const named = new Set<string>();
  for (const name of Object.keys(stored)) {
    if (name.toLowerCase() === 'connection') for (const v of [stored[name]].flat()) for (const t of v.split(',')) named.add(t.trim().toLowerCase());
  }
  const out: Record<string, string | string[]> = {};
  for (const name of Object.keys(stored)) {
    const lower = name.toLowerCase();
    if (NOT_COPIED.has(lower) || named.has(lower) || overrides.has(lower)) continue;
    out[name] = stored[name];
  }
  for (const { name, value } of overrides.values()) if (value !== '') out[name] = value;
  return out;
}

/**
 * The bytes of the stored body: a JSON body is stored as its document (sent as JSON text again), a text body as a
 * string (sent as it is). Under a JSON Content-Type a string is a JSON string literal and is sent quoted.
 */
function encodeBody(body: unknown, headers: Record<string, string | string[]>): Buffer | null {
  if (body === null || body === undefined) return null;
  const typeName = Object.keys(headers).find((n) => n.toLowerCase() === 'content-type');
  const type = typeName ? String([headers[typeName]].flat()[0]).toLowerCase() : '';
  const json = /^application\/(?:json|[a-z0-9.+-]+\+json)\s*(;|$)|^text\/json\s*(;|$)/.test(type);
  if (typeof body === 'string' && !json) return Buffer.from(body, 'utf8');
  return Buffer.from(JSON.stringify(body), 'utf8');
}
