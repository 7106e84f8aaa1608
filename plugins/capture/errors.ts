import { defineErrorCodes, HttpError } from '@vigil/plugin-sdk';

/** Codes of the capture plugin's control-plane API (its config is checked by its schema). */
export const CaptureErrors = defineErrorCodes('CAPTURE', {
  RANGE: {
    meaning: 'The range parameter of a gateway API (overview, usage, billing export) is not one of the named ranges. 400.',
    action: 'Use one of the ranges the error message lists (1h, 24h, 7d, …).',
  },
  SINCE: {
    meaning: 'The since parameter of the records API is neither epoch milliseconds, an ISO 8601 date-time nor a duration. 400.',
    action: 'Write it as 1700000000000, 2026-11-25T10:00:00Z, or a duration such as 30m.',
  },
  PAGE: {
    meaning: 'The records API was given more than one way to page: `before`, `after` and `offset` exclude each other. 400.',
    action: 'Page with the `next` or `prev` cursor of the page you have (`before=` or `after=`), or with `offset` alone.',
  },
  RECORD_NOT_FOUND: {
    meaning: 'No stored record has that id: it was never captured (restricted, dropped, sampled out of storage), or retention has deleted it. 404.',
    action: 'Check the id; records older than capture.retention are gone.',
  },
  INGEST_DISABLED: {
    meaning: 'A middleware sent records to POST /api/gateway/records, but this agent has no capture.ingest_token, so its ingest route accepts nothing. 403.',
    action: 'Set capture.ingest_token (e.g. ingest_token: ${VIGIL_INGEST_TOKEN}) in the agent\'s config and give the middleware the same token.',
  },
  INGEST_TOKEN: {
    meaning: 'The bearer token sent to POST /api/gateway/records is not the agent\'s capture.ingest_token. 401; repeated failures lock the address out like a wrong dashboard token.',
    action: 'Give the middleware the agent\'s capture.ingest_token (option token, or VIGIL_INGEST_TOKEN).',
  },
  INGEST_STORE: {
    meaning: 'Records sent to POST /api/gateway/records were valid, but storing them failed (the message says why). 503: nothing of the batch was stored.',
    action: 'Nothing, usually: the middleware retries the batch with backoff. If it persists, check the agent\'s store (disk, PostgreSQL).',
  },
});

/** A 400 for a query parameter of the gateway API. */
export function badQuery(code: typeof CaptureErrors.RANGE | typeof CaptureErrors.SINCE | typeof CaptureErrors.PAGE, message: string): HttpError {
  return new HttpError(400, code, message);
}

export function recordNotFound(id: string): HttpError {
  return new HttpError(404, CaptureErrors.RECORD_NOT_FOUND, `no record with id ${JSON.stringify(id)}; it was never captured or retention has deleted it`);
}
