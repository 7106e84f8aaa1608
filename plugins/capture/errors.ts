import { defineErrorCodes, HttpError, httpError } from '@vigil/plugin-sdk';

/** Codes of the capture plugin's control-plane API (its config is checked by its schema). */
export const CaptureErrors = defineErrorCodes('CAPTURE', {
  RANGE: {
    status: 400,
    meaning: 'The range parameter of a gateway API (overview, usage, billing export) is not one of the named ranges.',
    action: 'Use one of the ranges the error message lists (1h, 24h, 7d, …).',
  },
  SINCE: {
    status: 400,
    meaning: 'The since parameter of the records API is neither epoch milliseconds, an ISO 8601 date-time nor a duration.',
    action: 'Write it as 1700000000000, 2026-11-25T10:00:00Z, or a duration such as 30m.',
  },
  PAGE: {
    status: 400,
    meaning: 'The records API was given more than one way to page: `before`, `after` and `offset` exclude each other.',
    action: 'Page with the `next` or `prev` cursor of the page you have (`before=` or `after=`), or with `offset` alone.',
  },
  SEARCH: {
    status: 400,
    meaning: 'A records search (`search`) that cannot be run: a double quote without its pair, no word with a letter or digit, ' +
      'or more than 12 words and phrases. Search operators are not syntax: words match as written.',
    action: 'Search for words, "a phrase in double quotes", or a prefix such as invoice*; narrow with route, status and since.',
  },
  RECORD_NOT_FOUND: {
    status: 404,
    meaning: 'No stored record has that id: it was never captured (restricted, dropped, sampled out of storage), or retention has deleted it.',
    action: 'Check the id; records older than capture.retention are gone.',
  },
  INGEST_DISABLED: {
    status: 403,
    meaning: 'A middleware sent records to POST /api/gateway/records, but this agent has no capture.ingest_token, so its ingest route accepts nothing.',
    action: 'Set capture.ingest_token (e.g. ingest_token: ${VIGIL_INGEST_TOKEN}) in the agent\'s config and give the middleware the same token.',
  },
  INGEST_TOKEN: {
    status: 401,
    meaning: 'The bearer token sent to POST /api/gateway/records is not the agent\'s capture.ingest_token. Repeated failures lock the address out like a wrong dashboard token.',
    action: 'Give the middleware the agent\'s capture.ingest_token (option token, or VIGIL_INGEST_TOKEN).',
  },
  INGEST_MEDIA_TYPE: {
    status: 415,
    meaning: 'POST /api/gateway/records was sent with a Content-Type other than application/json (UTF-8).',
    action: 'Send the records as JSON with "Content-Type: application/json", as @vigil/express and @vigil/koa do.',
  },
  INGEST_BODY: {
    status: 400,
    meaning: 'The body of POST /api/gateway/records is not a batch of records: not UTF-8, not JSON, or a record with a missing, malformed or unknown key (the message names the first key path, e.g. body.records[3].status). Nothing of the batch was stored.',
    action: 'Send `{ "records": [GovernedRecord, …] }` with every key of a stored record and no other (plugins/capture/README.md, "Ingest"); a middleware of another version than the agent can send another shape: upgrade one of them.',
  },
  INGEST_BUSY: {
    status: 503,
    meaning: 'The agent was governing and storing as many batches of middleware records as it takes at once (4). Retry-After says when to send it again; nothing of this batch was stored.',
    action: 'Nothing, usually: the middleware retries the batch with backoff. If it persists, the agent is short of CPU for its capture workers (capture.workers).',
  },
  INGEST_STORE: {
    status: 503,
    meaning: 'Records sent to POST /api/gateway/records were valid, but storing them failed (the message says why). Nothing of the batch was stored.',
    action: 'Nothing, usually: the middleware retries the batch with backoff. If it persists, check the agent\'s store (disk, PostgreSQL).',
  },
});

/** A 400 for a query parameter of the gateway API. */
export function badQuery(code: typeof CaptureErrors.RANGE | typeof CaptureErrors.SINCE | typeof CaptureErrors.PAGE | typeof CaptureErrors.SEARCH, message: string): HttpError {
  return httpError(code, message);
}

export function recordNotFound(id: string): HttpError {
  return httpError(CaptureErrors.RECORD_NOT_FOUND, `no record with id ${JSON.stringify(id)}; it was never captured or retention has deleted it`);
}
