// The exchange the telemetry lane receives, built from the decision and the two bounded copies. One function for the
// proxy and for the Express and Koa middleware (middleware/core), so both publish the same exchange for the same
// request, and governance makes the same record of it.
import { uuidv7, type RawExchange } from '@vigil/plugin-sdk';
import type { RouteDecision } from '../../policies/merge.js';
import { receivedPath } from '../../policies/fold-path.js';
import type { BoundedCopy } from './bounded-copy.js';

const EMPTY = new Uint8Array(0);

export interface ExchangeParts {
  decision: RouteDecision;
  /** Epoch ms of the request's start. */
  time: number;
  method: string;
  /** The request-target as received. */
  target: string;
  labels: Record<string, string>;
  requestHeaders: string[];
  responseHeaders: string[] | null;
  status: number;
  durationMs: number;
  /** The copies the decision asked for (null when it captures no such body); handed over here. */
  requestCopy: BoundedCopy | null;
  responseCopy: BoundedCopy | null;
  /** Whether each body reached its end on the wire. */
  requestEnded: boolean;
  responseEnded: boolean;
  error: string | undefined;
}

/**
 * The exchange to publish. A copy whose body never reached its end is a prefix of a message that was never whole:
 * it says so twice, as incomplete (why) and as truncated (so that every reader treats it as a prefix, never as a
 * document). The copies are handed over: the caller drops its references.
 */
export function rawExchange(parts: ExchangeParts): RawExchange {
  const { decision, requestCopy, responseCopy } = parts;
  const requestIncomplete = requestCopy !== null && !parts.requestEnded;
  const responseIncomplete = responseCopy !== null && !parts.responseEnded;
  // Trimmed to their size first, so that what the budget counts for them is exact.
  requestCopy?.bytes();
  responseCopy?.bytes();
  const heldBytes = (requestCopy?.held ?? 0) + (responseCopy?.held ?? 0);
  return {
    id: uuidv7(parts.time),
    time: parts.time,
    method: parts.method,
    target: parts.target,
    path: receivedPath(parts.target),
    ruleIndexes: decision.ruleIndexes as number[],
    labels: parts.labels,
    requestHeaders: decision.captureHeaders ? parts.requestHeaders : null,
    responseHeaders: decision.captureHeaders ? parts.responseHeaders : null,
    status: parts.status,
    durationMs: parts.durationMs,
    requestBody: requestCopy !== null ? requestCopy.handOver() : decision.captureRequestBody ? EMPTY : null,
    requestTruncated: (requestCopy?.truncated ?? false) || (requestIncomplete && !requestCopy.dropped),
    responseBody: responseCopy !== null ? responseCopy.handOver() : decision.captureResponseBody ? EMPTY : null,
    responseTruncated: (responseCopy?.truncated ?? false) || (responseIncomplete && !responseCopy.dropped),
    requestIncomplete,
    responseIncomplete,
    requestBodyDropped: requestCopy?.dropped ?? false,
    responseBodyDropped: responseCopy?.dropped ?? false,
    heldBytes,
    // Always present (undefined when there was none): every exchange object then has one shape.
    error: parts.error,
  };
}
