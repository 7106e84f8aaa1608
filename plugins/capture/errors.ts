import { HttpError } from '@vigil/plugin-sdk';

/** Errors of the capture plugin's control-plane API. (Its config is checked by its schema.) */
export const CaptureErrorCode = {
  /** `range` is not one of the named ranges. */
  range: 'VIGIL_ERR_GATEWAY_RANGE',
  /** `since` is neither epoch ms, an ISO 8601 date-time nor a duration. */
  since: 'VIGIL_ERR_GATEWAY_SINCE',
  /** No stored record has that id (never captured, or deleted by retention). */
  recordNotFound: 'VIGIL_ERR_GATEWAY_RECORD_NOT_FOUND',
} as const;

/** A 400 for a query parameter of the gateway API. */
export function badQuery(code: typeof CaptureErrorCode.range | typeof CaptureErrorCode.since, message: string): HttpError {
  return new HttpError(400, code, message);
}

export function recordNotFound(id: string): HttpError {
  return new HttpError(404, CaptureErrorCode.recordNotFound, `no record with id ${JSON.stringify(id)}; it was never captured or retention has deleted it`);
}
