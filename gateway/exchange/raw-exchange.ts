// The exchange the telemetry lane receives, built from the decision and the two bounded copies. One function for the
// proxy and for the Express and Koa middleware (middleware/core), so both publish the same exchange for the same
// request, and governance makes the same record of it.
import { uuidv7 } from '@vigil/plugin-sdk';
import type { RouteDecision } from '../../policies/merge.js';
import { receivedPath } from '../../policies/fold-path.js';
import type { BoundedCopy } from './bounded-copy.js';

/** What the proxy puts on the bus (topic 'gateway.exchange'). Bodies are bounded copies of the bytes on the wire. */
export interface RawExchange {
  id: string;
  /** Epoch ms, request start. */
  time: number;
  method: string;
  /** Raw request-target, query included. */
  target: string;
  /** The path exactly as received, without the query (rules match its fold: policies/README.md, "Paths"). */
  path: string;
  /** From the decision. */
  ruleIndexes: number[];
  /** Already extracted by the proxy from request headers (they are metric dimensions). */
  labels: Record<string, string>;
  /** Node's rawHeaders (name, value, name, value…), or null when headers are restricted. */
  requestHeaders: string[] | null;
  responseHeaders: string[] | null;
  /** 0 when the upstream gave no response. */
  status: number;
  durationMs: number;
  /** Null when restricted (nothing was allocated). */
  requestBody: Uint8Array | null;
  requestTruncated: boolean;
  responseBody: Uint8Array | null;
  responseTruncated: boolean;
  /**
   * The request body ended early on the wire (the client left, or was cut off for sending too slowly): its copy is
   * a prefix of a body that was never whole, so `requestTruncated` is true as well. Absent means false.
   */
  requestIncomplete?: boolean;
  /**
   * The upstream's response body ended early: a reset, a close short of its Content-Length, a cut chunked encoding,
   * or a timeout between chunks. `responseTruncated` is true as well. Absent means false.
   */
  responseIncomplete?: boolean;
  /**
   * The body was not copied although the decision captures it: the telemetry lane's byte budget
   * (`capture.queue_bytes`) was spent. The body field is then empty. Absent means false.
   */
  requestBodyDropped?: boolean;
  responseBodyDropped?: boolean;
  /**
   * Bytes of the telemetry lane's budget (`CaptureService.takeBodyBytes`) that this exchange's copies hold; the lane
   * gives them back once it is done with the exchange. Absent means none.
   */
  heldBytes?: number;
  /**
   * Why the exchange ended without the upstream's full answer: the code of the gateway's own error response
   * (`VIGIL_ERR_PROXY_UPSTREAM_TIMEOUT`, …; status 502 / 504 / 400), or `client_aborted`. Absent otherwise.
   */
  error?: string;
}

declare module '@vigil/plugin-sdk' {
  interface Topics {
    /** Raw exchanges: bounded copies of live traffic, published by the proxy. In-process only, never exported. */
    'gateway.exchange': RawExchange;
  }
}

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
