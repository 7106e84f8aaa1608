import { defineErrorCodes, HttpError } from '@vigil/plugin-sdk';

/**
 * Codes of the LLM plugin: ingest answers, item errors (the `code` of each entry of a 202's `errors`), the public
 * API, project management and the persist stage. The status, where there is one, is in brackets.
 */
export const LlmErrors = defineErrorCodes('LLM', {
  UNKNOWN_KEY: {
    meaning: '(401) The X-Service-Project-Key header names no project: the key is wrong, was rotated out (its grace period ' +
      'is over), or its project was deleted. A key stops working within 60 s of being revoked.',
    action: 'Send the key `vigil project create` printed (or the one from `vigil project rotate-key`); wrong keys count ' +
      'towards the control plane\'s lockout.',
  },
  CONTENT_TYPE: {
    meaning: '(415) An ingest body that is not JSON (`Content-Type: application/json`, UTF-8), or whose Content-Encoding is ' +
      'neither gzip nor identity.',
    action: 'Send `Content-Type: application/json`, and gzip or no Content-Encoding.',
  },
  BODY: {
    meaning: '(400) The ingest body is not valid gzip, not UTF-8, not JSON, or not an object with a `traces` array.',
    action: 'Send `{ "traces": [ item, … ] }`; the wire contract is in plugins/llm/README.md.',
  },
  TOO_DEEP: {
    meaning: '(400) The ingest body nests arrays and objects deeper than 64 levels; it is refused before it is parsed.',
    action: 'Flatten the data in `input`, `output` or `metadata`; no LLM message needs that depth.',
  },
  OTLP_BODY: {
    meaning: '(400) An OTLP/HTTP export (`/v1/otlp/traces`, `/api/public/otel/v1/traces`) that cannot be decoded: protobuf ' +
      'that is truncated or malformed, JSON of the wrong shape, strings that are not UTF-8, or past the decoder\'s limits ' +
      '(nesting 32, 20,000 spans, 1,000,000 attribute values).',
    action: 'Send what an OpenTelemetry OTLP/HTTP trace exporter sends (application/x-protobuf or application/json); the ' +
      'message names the problem.',
  },
  OTLP_LOGS_BODY: {
    meaning: '(400) An OTLP/HTTP logs export (`/v1/otlp/logs`, `/api/public/otel/v1/logs`) that cannot be decoded: protobuf ' +
      'that is truncated or malformed, JSON of the wrong shape, strings that are not UTF-8, or past the decoder\'s limits ' +
      '(nesting 32, 20,000 log records, 1,000,000 attribute values).',
    action: 'Send what an OpenTelemetry OTLP/HTTP log exporter sends (application/x-protobuf or application/json); the ' +
      'message names the problem.',
  },
  LANGFUSE_BATCH: {
    meaning: '(400) A body sent to `/api/public/ingestion` that is not a Langfuse batch (`{ batch: [ … ] }`).',
    action: 'Point a Langfuse SDK at Vigil unchanged; events it sends are checked one by one and answered in the 207.',
  },
  BODY_TOO_LARGE: {
    meaning: '(413) The ingest body is larger than the project\'s `limits.body_bytes`, before or after gzip decoding.',
    action: 'Send smaller batches, or raise the project\'s `limits.body_bytes` (at most `llm.max_body_bytes`).',
  },
  BATCH_TOO_LARGE: {
    meaning: '(413) The batch holds more items than the project\'s `limits.items_per_batch` (default 1,000).',
    action: 'Split the batch; the Node client does this by itself.',
  },
  MONTHLY_LIMIT: {
    meaning: '(429) The project has used its plan\'s `limits.items_per_month` this calendar month (UTC); Retry-After says ' +
      'how many seconds remain until the month ends.',
    action: 'Raise the project\'s `limits.items_per_month`, or wait for the next month.',
  },
  ITEM_INVALID: {
    meaning: 'One item of a batch does not match the trace item schema (a missing `model`, a wrong type, an unknown key); ' +
      'the entry in `errors` names its index and key path. The other items are accepted.',
    action: 'Fix the field at `path`; plugins/llm/README.md describes every field.',
  },
  ITEM_DUPLICATE_ID: {
    meaning: 'Two items of one batch carry the same `id`; the later one is rejected.',
    action: 'Give each item its own UUID, or none (the server assigns one).',
  },
  PROJECT_NOT_FOUND: {
    meaning: '(404) No project has that name.',
    action: 'List the projects with `vigil project list` or `GET /api/llm/projects`.',
  },
  PROJECT_EXISTS: {
    meaning: '(409) A project with that name exists already.',
    action: 'Choose another name, or rotate the existing project\'s key.',
  },
  PROJECT_FROM_CONFIG: {
    meaning: '(409) The project is declared in the config file (`llm.projects`), which wins over the store: its settings and ' +
      'key cannot be changed, and it cannot be deleted, from the CLI or the dashboard.',
    action: 'Change or remove the project in the config file and reload (SIGHUP) or restart.',
  },
  PROJECT_NAME: {
    meaning: '(400) A project name must be 1-64 characters: letters, digits, `.`, `_` and `-`, starting with a letter or digit.',
    action: 'Choose a name such as `checkout-bot`.',
  },
  TRACE_NOT_FOUND: {
    meaning: '(404) The project has no stored trace with that id: it was never sent, was dropped by budget sampling, is ' +
      'still in the persist queue, or retention has deleted it.',
    action: 'Check the id; a trace is stored a moment after the 202.',
  },
  VERSION_NOT_FOUND: {
    meaning: '(404) The project has no such prompt template, or no such version of it.',
    action: 'List templates and versions with `GET /api/v1/prompt-templates`.',
  },
  SINCE: {
    meaning: '(400) The `since` parameter is neither epoch milliseconds, an ISO 8601 date-time nor a duration.',
    action: 'Write it as 1700000000000, 2026-11-25T10:00:00Z, or a duration such as 30m.',
  },
  CURSOR: {
    meaning: '(400) A `before` or `after` paging cursor of a trace list is not `<created_at ms>.<trace id>`.',
    action: 'Build the cursor from the last (before) or first (after) trace of the page you have: its created_at in ' +
      'epoch milliseconds, a dot, and its id.',
  },
  GATE: {
    meaning: '(400) The gate cannot compare what was asked: the template has no versions, or a version number is not one ' +
      'of its versions.',
    action: 'Name an existing template and versions (`GET /api/v1/prompt-templates` lists them).',
  },
  PERSIST_ITEM: {
    meaning: 'The persist stage refused an item that passed ingest (it could not be redacted or stored as it is); the ' +
      'item went to the dead list (`llm_dead_items`) and is not retried. The other items of its batch are stored.',
    action: 'Read the reason in `llm_dead_items` or the log. If it is a Vigil bug (the item passed validation), report it.',
  },
  CONFIG: {
    meaning: 'The `llm` section has a problem its schema cannot see: two projects with one name or one key, a redaction ' +
      'JSON path that does not compile, a project limit above `llm.max_body_bytes`.',
    action: 'Fix the key the message names.',
  },
  PROJECT_SETTINGS: {
    meaning: '(400) Project settings sent to `PUT /api/llm/projects/:name/settings` do not match their schema.',
    action: 'Fix the field the message names; the schema is in `GET /api`.',
  },
});

/** A 429 for a project over its monthly items; Retry-After is the seconds to the next month (UTC). */
export function overMonthlyLimit(project: string, limit: number, now = Date.now()): HttpError {
  const d = new Date(now);
  const next = Date.UTC(d.getUTCFullYear(), d.getUTCMonth() + 1, 1);
  const seconds = Math.max(1, Math.ceil((next - now) / 1000));
  return new HttpError(429, LlmErrors.MONTHLY_LIMIT,
    `project "${project}" has used its ${limit} items for this month; items are accepted again in ${seconds} s, or raise limits.items_per_month`,
    { headers: { 'Retry-After': String(seconds) } });
}

export function projectNotFound(name: string): HttpError {
  return new HttpError(404, LlmErrors.PROJECT_NOT_FOUND, `no project named ${JSON.stringify(name)}`);
}

export function projectFromConfig(name: string, what: string): HttpError {
  return new HttpError(409, LlmErrors.PROJECT_FROM_CONFIG,
    `project "${name}" is declared in the config file (llm.projects), which wins: ${what} there and reload`);
}
