import { brotliCompressSync, deflateSync, gzipSync } from 'node:zlib';
import type { CompiledPolicy, RouteDecision } from '../../policies/compile.js';
import { extractLabels } from '../../policies/extract-labels.js';
import { receivedPath } from '../../policies/fold-path.js';
import type { CaseMessage, HeaderMap, TestCase } from './test-cases-schema.js';
import type { RawExchange } from '../../gateway/govern/types.js';

export const DEFAULT_CAPTURE_LIMIT = 1024 * 1024;

/** Node's rawHeaders form: a list value becomes repeated headers, in order, with the name as written. */
function rawHeaders(map: HeaderMap | undefined): string[] {
  const out: string[] = [];
  for (const [name, value] of Object.entries(map ?? {})) {
    for (const v of Array.isArray(value) ? value : [value]) out.push(name, String(v));
  }
  return out;
}

function hasHeader(raw: readonly string[], lowerName: string): boolean {
  for (let i = 0; i < raw.length; i += 2) if (raw[i].toLowerCase() === lowerName) return true;
  return false;
}

/** The body bytes of a case message, with the headers a real client would have sent alongside. */
function messageBytes(message: CaseMessage | undefined, headers: string[]): Uint8Array | null {
  if (!message) return null;
  let bytes: Uint8Array | null = null;
  if (message.raw !== undefined) bytes = Buffer.from(message.raw, 'utf8');
  else if (message.base64 !== undefined) bytes = Buffer.from(message.base64.replace(/\s+/g, ''), 'base64');
  else if (message.body !== undefined) bytes = Buffer.from(JSON.stringify(message.body), 'utf8');
  if (bytes === null) return null;
  if (message.base64 === undefined && !hasHeader(headers, 'content-type')) headers.push('Content-Type', 'application/json');
  if (message.encoding) {
    bytes = message.encoding === 'gzip' ? gzipSync(bytes) : message.encoding === 'br' ? brotliCompressSync(bytes) : deflateSync(bytes);
    if (!hasHeader(headers, 'content-encoding')) headers.push('Content-Encoding', message.encoding);
  }
  return bytes;
}

/** Cuts a body at the capture limit, as the proxy's bounded copy does. */
function bounded(bytes: Uint8Array | null, limit: number): { body: Uint8Array | null; truncated: boolean } {
  if (bytes === null || bytes.length <= limit) return { body: bytes, truncated: false };
  return { body: bytes.subarray(0, limit), truncated: true };
}

/**
 * The exchange the proxy would put on the bus for this case: decided by `policy.decide`, with restricted parts never
 * copied (null), bodies cut at the capture limit, labels extracted from the request headers.
 */
export function caseExchange(testCase: TestCase, policy: CompiledPolicy, id: string): { exchange: RawExchange; decision: RouteDecision } {
  const method = (testCase.request.method ?? 'GET').toUpperCase();
  const target = testCase.request.path;
  const decision = policy.decide(method, target);
  const requestHeaders = rawHeaders(testCase.request.headers);
  const responseHeaders = rawHeaders(testCase.response?.headers);
  const limit = testCase.max_body_bytes ?? DEFAULT_CAPTURE_LIMIT;
  const request = bounded(messageBytes(testCase.request, requestHeaders), limit);
  const response = bounded(messageBytes(testCase.response, responseHeaders), limit);
  const exchange: RawExchange = {
    id,
    time: Date.now(),
    method,
    target,
    path: receivedPath(target),
    ruleIndexes: [...decision.ruleIndexes],
    labels: extractLabels(decision, requestHeaders),
    requestHeaders: decision.captureHeaders ? requestHeaders : null,
    responseHeaders: decision.captureHeaders ? responseHeaders : null,
    status: testCase.response?.status ?? 200,
    durationMs: 0,
    requestBody: decision.captureRequestBody ? request.body : null,
    requestTruncated: decision.captureRequestBody && request.truncated,
    responseBody: decision.captureResponseBody ? response.body : null,
    responseTruncated: decision.captureResponseBody && response.truncated,
  };
  return { exchange, decision };
}
