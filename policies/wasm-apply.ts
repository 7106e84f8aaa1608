// One step of the telemetry lane: a batch of exchanges, each with its YAML decision, through a WASM policy.
// Each exchange comes out with its narrowed decision and labels, or, when the guest call covering it failed,
// with a fail-closed decision (no bodies) and the reason to record.
import type { WasmCallError } from '../sandbox/wasm/errors.js';
import { foldPath } from './fold-path.js';
import type { RouteDecision } from './merge.js';
import type { WasmPolicy } from './wasm-policy.js';
import { buildPolicyView, type BodyFieldLimits, type PolicyView } from './wasm-view.js';
import { failClosedDecision, failClosedReason, narrow } from './wasm-narrow.js';

/** The parts of a raw exchange a policy view is built from (plugins/governance's RawExchange has them all). */
export interface PolicyExchange {
  method: string;
  target: string;
  path: string;
  labels: Record<string, string>;
  requestHeaders: readonly string[] | null;
  responseHeaders: readonly string[] | null;
  status: number;
  requestBody: Uint8Array | null;
  requestTruncated: boolean;
  responseBody: Uint8Array | null;
  responseTruncated: boolean;
}

/** A body as JSON, or undefined when it is not (or cannot be shown to be) a complete JSON value. */
export type JsonBodyDecoder = (bytes: Uint8Array, headers: readonly string[] | null, truncated: boolean) => unknown;

export interface AppliedPolicy {
  decision: RouteDecision;
  labels: Record<string, string>;
  /** Set when the guest call failed: the text for the record's dropped_reason. */
  failure?: string;
  failureReason?: WasmCallError['reason'];
}

const utf8 = new TextDecoder('utf-8', { fatal: true });
const JSON_TYPE = /^application\/(?:json|[a-z0-9.+-]+\+json)$|^text\/json$/;

function header(raw: readonly string[] | null, lowerName: string): string | undefined {
  if (!raw) return undefined;
  for (let i = 0; i + 1 < raw.length; i += 2) if (raw[i].toLowerCase() === lowerName) return raw[i + 1];
  return undefined;
}

/**
 * The default decoder: uncompressed JSON only. The capture worker should pass plugins/governance's decodeBody
 * instead, so compressed bodies are seen too; a body this decoder skips simply offers no body_fields.
 */
export const plainJsonBody: JsonBodyDecoder = (bytes, headers, truncated) => {
  if (truncated || bytes.length === 0) return undefined;
  const encoding = header(headers, 'content-encoding');
  if (encoding && encoding.trim().toLowerCase() !== 'identity') return undefined;
  const type = (header(headers, 'content-type') ?? '').split(';')[0].trim().toLowerCase();
  if (headers && !JSON_TYPE.test(type)) return undefined;
  try {
    return JSON.parse(utf8.decode(bytes));
  } catch {
    return undefined;
  }
};

/** The view of one exchange, with body fields from the bodies the YAML decision captures. */
export function exchangeView(
  exchange: PolicyExchange,
  decision: RouteDecision,
  decodeJson: JsonBodyDecoder = plainJsonBody,
  limits?: BodyFieldLimits,
): PolicyView {
  const body = (bytes: Uint8Array | null, headers: readonly string[] | null, truncated: boolean, captured: boolean) =>
    captured && bytes ? decodeJson(bytes, headers, truncated) : undefined;
  return buildPolicyView({
    method: exchange.method,
    // What the rules matched, so a guest's own path test cannot be slipped past by a spelling either.
    path: foldPath(exchange.target) ?? exchange.path,
    target: exchange.target,
    requestHeaders: decision.captureHeaders ? exchange.requestHeaders : null,
    status: exchange.status,
    labels: exchange.labels,
    matchedRules: decision.matchedRules,
    requestJson: body(exchange.requestBody, exchange.requestHeaders, exchange.requestTruncated, decision.captureRequestBody),
    responseJson: body(exchange.responseBody, exchange.responseHeaders, exchange.responseTruncated, decision.captureResponseBody),
  }, limits);
}

/**
 * Runs `policy` over a batch. Never rejects for a guest failure: the exchanges it covered fail closed. Rejects only
 * when the policy cannot take calls at all (closed, queue full); the caller then fails the whole batch closed.
 */
export async function applyWasmPolicy(
  policy: WasmPolicy,
  items: readonly { exchange: PolicyExchange; decision: RouteDecision }[],
  options: { decodeJson?: JsonBodyDecoder; limits?: BodyFieldLimits } = {},
): Promise<AppliedPolicy[]> {
  const views = items.map(({ exchange, decision }) => exchangeView(exchange, decision, options.decodeJson, options.limits));
  const outcomes = await policy.decideSettled(views);
  return items.map(({ exchange, decision }, i) => {
    const outcome = outcomes[i];
    if (outcome instanceof Error) {
      return {
        decision: failClosedDecision(decision),
        labels: { ...exchange.labels },
        failure: failClosedReason(outcome.reason),
        failureReason: outcome.reason,
      };
    }
    return narrow(decision, exchange.labels, outcome);
  });
}
