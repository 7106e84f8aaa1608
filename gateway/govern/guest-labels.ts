// Labels a WASM policy added, checked against what the record redacts. A guest sees values the record must not
// keep (headers the YAML policy redacts, body fields it or the guest redacts): its labels must not become the way
// they get stored. A guest label that holds, or contains, a redacted value holds the marker instead.
import { redactJsonPaths, REDACTED } from '../../policies/compile-json-path.js';
import type { RouteDecision } from '../../policies/merge.js';
import type { JsonBodyDecoder } from '../../policies/wasm-apply.js';
import type { RawExchange } from './types.js';

/** Redacted values shorter than this are matched only as a whole label value (a `1` must not mask every label). */
const MIN_CONTAINED_LENGTH = 3;
/** Deeper values are not collected; the decoder refuses documents nested deeper than this anyway. */
const MAX_DEPTH = 256;

function addLeaves(value: unknown, out: Set<string>, depth = 0): void {
  if (typeof value === 'string') {
    if (value !== '' && value !== REDACTED) out.add(value);
  } else if (typeof value === 'number') {
    out.add(String(value));
  } else if (value !== null && typeof value === 'object' && depth < MAX_DEPTH) {
    for (const child of Object.values(value)) addLeaves(child, out, depth + 1);
  }
}

/** The leaves of `original` that `redacted` (the same document, redacted) replaced with the marker. */
function addReplaced(original: unknown, redacted: unknown, out: Set<string>, depth = 0): void {
  if (redacted === REDACTED) {
    if (original !== REDACTED) addLeaves(original, out, depth);
    return;
  }
  if (depth >= MAX_DEPTH || original === null || redacted === null || typeof original !== 'object' || typeof redacted !== 'object') return;
  for (const key of Object.keys(original)) {
    addReplaced((original as Record<string, unknown>)[key], (redacted as Record<string, unknown>)[key], out, depth + 1);
  }
}

function addBody(bytes: Uint8Array | null, headers: readonly string[] | null, truncated: boolean, captured: boolean,
  decision: RouteDecision, decodeJson: JsonBodyDecoder, out: Set<string>): void {
  if (!captured || !bytes || decision.jsonFields.length === 0) return;
  const original = decodeJson(bytes, headers, truncated);
  if (original === undefined) return;
  addReplaced(original, redactJsonPaths(structuredClone(original), decision.jsonFields), out);
}

/** Every value `decision` redacts from `exchange`: header and query values, and JSON body leaves. */
export function redactedValues(exchange: RawExchange, decision: RouteDecision, decodeJson: JsonBodyDecoder): Set<string> {
  const out = new Set<string>();
  for (const raw of [exchange.requestHeaders, exchange.responseHeaders]) {
    for (let i = 0; raw && i + 1 < raw.length; i += 2) {
      if (decision.redactHeaders.has(raw[i].toLowerCase()) && raw[i + 1] !== '') out.add(raw[i + 1]);
    }
  }
  const q = exchange.target.indexOf('?');
  if (q >= 0 && decision.redactQuery.size > 0) {
    for (const [name, value] of new URLSearchParams(exchange.target.slice(q + 1))) {
      if (decision.redactQuery.has(name.toLowerCase()) && value !== '') out.add(value);
    }
  }
  addBody(exchange.requestBody, exchange.requestHeaders, exchange.requestTruncated || exchange.requestIncomplete === true, decision.captureRequestBody, decision, decodeJson, out);
  addBody(exchange.responseBody, exchange.responseHeaders, exchange.responseTruncated || exchange.responseIncomplete === true, decision.captureResponseBody, decision, decodeJson, out);
  return out;
}

function holds(label: string, secrets: ReadonlySet<string>): boolean {
  if (secrets.has(label)) return true;
  for (const secret of secrets) if (secret.length >= MIN_CONTAINED_LENGTH && label.includes(secret)) return true;
  return false;
}

/**
 * `labels` (a record's) with each label that is not in `ownLabels` (the request's own, from the YAML policy)
 * masked when it holds or contains a value `decision` redacts. Returns `labels` itself when nothing changes.
 */
export function maskGuestLabels(
  labels: Record<string, string>,
  ownLabels: Readonly<Record<string, string>>,
  exchange: RawExchange,
  decision: RouteDecision,
  decodeJson: JsonBodyDecoder,
): Record<string, string> {
  const added = Object.keys(labels).filter((name) => !Object.prototype.hasOwnProperty.call(ownLabels, name));
  if (added.length === 0) return labels;
  const secrets = redactedValues(exchange, decision, decodeJson);
  if (secrets.size === 0) return labels;
  let out = labels;
  for (const name of added) {
    if (labels[name] === REDACTED || !holds(labels[name], secrets)) continue;
    if (out === labels) out = { ...labels };
    Object.defineProperty(out, name, { value: REDACTED, enumerable: true, writable: true, configurable: true });
  }
  return out;
}
