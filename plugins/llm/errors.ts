import { defineErrorCodes, HttpError, httpError } from '@vigil/plugin-sdk';

/**
 * Codes of the LLM plugin: ingest answers, item errors (the `code` of each entry of a 202's `errors`), the public
 * API, project management and the persist stage. A code answered over HTTP has its status in its entry.
 */
export const LlmErrors = defineErrorCodes('LLM', {
  UNKNOWN_KEY: {
    status: 401,
    meaning: 'The X-Service-Project-Key header names no project: the key is wrong, was rotated out (its grace period ' +
      'is over), or its project was deleted. A rotated key stops at the end of its grace period, in every process; a key ' +
      'revoked in another process stops within 1 s.',
    action: 'Send the key `vigil project create` printed (or the one from `vigil project rotate-key`); wrong keys count ' +
      'towards the control plane\'s lockout.',
  },
  CONTENT_TYPE: {
    status: 415,
    meaning: 'An ingest body that is not JSON (`Content-Type: application/json`, UTF-8), or whose Content-Encoding is ' +
      'neither gzip nor identity.',
    action: 'Send `Content-Type: application/json`, and gzip or no Content-Encoding.',
  },
  BODY: {
    status: 400,
    meaning: 'The ingest body is not valid gzip, not UTF-8, not JSON, or not an object with a `traces` array.',
    action: 'Send `{ "traces": [ item, … ] }`; the wire contract is in plugins/llm/README.md.',
  },
  TOO_DEEP: {
    status: 400,
    meaning: 'The ingest body nests arrays and objects deeper than 64 levels; it is refused before it is parsed.',
    action: 'Flatten the data in `input`, `output` or `metadata`; no LLM message needs that depth.',
  },
  OTLP_BODY: {
    status: 400,
    meaning: 'An OTLP/HTTP export (`/v1/otlp/traces`, `/api/public/otel/v1/traces`) that cannot be decoded: protobuf ' +
      'that is truncated or malformed, JSON of the wrong shape, strings that are not UTF-8, or past the decoder\'s limits ' +
      '(nesting 32, 20,000 spans, 1,000,000 attribute values).',
    action: 'Send what an OpenTelemetry OTLP/HTTP trace exporter sends (application/x-protobuf or application/json); the ' +
      'message names the problem.',
  },
  OTLP_LOGS_BODY: {
    status: 400,
    meaning: 'An OTLP/HTTP logs export (`/v1/otlp/logs`, `/api/public/otel/v1/logs`) that cannot be decoded: protobuf ' +
      'that is truncated or malformed, JSON of the wrong shape, strings that are not UTF-8, or past the decoder\'s limits ' +
      '(nesting 32, 20,000 log records, 1,000,000 attribute values).',
    action: 'Send what an OpenTelemetry OTLP/HTTP log exporter sends (application/x-protobuf or application/json); the ' +
      'message names the problem.',
  },
  LANGFUSE_BATCH: {
    status: 400,
    meaning: 'A body sent to `/api/public/ingestion` that is not a Langfuse batch (`{ batch: [ … ] }`).',
    action: 'Point a Langfuse SDK at Vigil unchanged; events it sends are checked one by one and answered in the 207.',
  },
  BODY_TOO_LARGE: {
    status: 413,
    meaning: 'The ingest body is larger than the project\'s `limits.body_bytes`, before or after gzip decoding.',
    action: 'Send smaller batches, or raise the project\'s `limits.body_bytes` (at most `llm.max_body_bytes`).',
  },
  BATCH_TOO_LARGE: {
    status: 413,
    meaning: 'The batch holds more items than the project\'s `limits.items_per_batch` (default 1,000).',
    action: 'Split the batch; the Node client does this by itself.',
  },
  MONTHLY_LIMIT: {
    status: 429,
    meaning: 'The project has used its plan\'s `limits.items_per_month` this calendar month (UTC); Retry-After says ' +
      'how many seconds remain until the month ends.',
    action: 'Raise the project\'s `limits.items_per_month`, or wait for the next month.',
  },
  ITEM_INVALID: {
    meaning: 'One item of a batch does not match the trace item schema (a missing `model`, a wrong type, an unknown key); ' +
      'the entry in `errors` names its index and key path. The other items are accepted.',
    action: 'Fix the field at `path`; plugins/llm/README.md describes every field.',
  },
  ITEM_TOO_LARGE: {
    meaning: 'One item of a batch has more keys and array elements (`limits.item_keys`, default 10,000) or more bytes of ' +
      'strings (`limits.item_bytes`, default 1 MiB) than its project takes; it is rejected, the other items are accepted.',
    action: 'Send less in the item (long contexts as a summary or a reference), or raise the project\'s limits.',
  },
  LANE_BUSY: {
    status: 429,
    meaning: 'The project has 16 ingest requests waiting for the LLM lane already; this one is refused before it is read. ' +
      'Other projects are not held up. Retry-After says when to retry.',
    action: 'Retry after the Retry-After seconds with backoff (the clients do); send fewer requests at once, or larger batches.',
  },
  LANE_SATURATED: {
    status: 503,
    meaning: 'Ingest is saturated for the whole process: the requests of all projects waiting and in work hold as many ' +
      'bytes as the LLM lane takes at once, so this one is refused before it is read. Retry-After says when to retry.',
    action: 'Retry after the Retry-After seconds with backoff (the clients do). If it persists, the process takes more ' +
      'than it can parse and store: give it more CPU, or spread the senders over more processes.',
  },
  LANE_FAILED: {
    status: 503,
    meaning: 'The worker thread processing the request failed (it ran out of memory on the body, say); nothing of the ' +
      'request that was not stored is kept, and the process goes on.',
    action: 'Send the request again (items with ids are stored once); if it fails each time, the log names the cause.',
  },
  STORE_UNAVAILABLE: {
    status: 503,
    meaning: 'The store refused the batch\'s write (PostgreSQL down, the disk full); nothing of it was stored and its ' +
      'items were given back to the month\'s count.',
    action: 'Send it again after Retry-After (the clients retry 5xx); the log says what the store answered.',
  },
  ITEM_DUPLICATE_ID: {
    meaning: 'Two items of one batch carry the same `id`; the later one is rejected.',
    action: 'Give each item its own UUID, or none (the server assigns one).',
  },
  PROJECT_NOT_FOUND: {
    status: 404,
    meaning: 'No project has that name.',
    action: 'List the projects with `vigil project list` or `GET /api/llm/projects`.',
  },
  PROJECT_EXISTS: {
    status: 409,
    meaning: 'A project with that name exists already.',
    action: 'Choose another name, or rotate the existing project\'s key.',
  },
  PROJECT_FROM_CONFIG: {
    status: 409,
    meaning: 'The project is declared in the config file (`llm.projects`), which wins over the store: its settings and ' +
      'key cannot be changed, and it cannot be deleted, from the CLI or the dashboard.',
    action: 'Change or remove the project in the config file and reload (SIGHUP) or restart.',
  },
  PROJECT_NAME: {
    status: 400,
    meaning: 'A project name must be 1-64 characters: letters, digits, `.`, `_` and `-`, starting with a letter or digit.',
    action: 'Choose a name such as `checkout-bot`.',
  },
  TRACE_NOT_FOUND: {
    status: 404,
    meaning: 'The project has no stored trace with that id: it was never sent, was dropped by budget sampling, or ' +
      'retention has deleted it.',
    action: 'Check the id; a trace is stored when its request is answered 202.',
  },
  SESSION_NOT_FOUND: {
    status: 404,
    meaning: 'The project has no stored trace with that `session_id`: none was sent with it, or retention has deleted them.',
    action: 'Check the id; `GET /api/llm/projects/:project/sessions` lists the sessions of a range.',
  },
  USER_NOT_FOUND: {
    status: 404,
    meaning: 'The project has no stored trace with that `user_id` in the range asked for.',
    action: 'Check the id, or widen `since`; `GET /api/llm/projects/:project/users` lists the users of a range.',
  },
  VERSION_NOT_FOUND: {
    status: 404,
    meaning: 'The project has no such prompt template, or no such version of it.',
    action: 'List templates and versions with `GET /api/v1/prompt-templates`.',
  },
  PROMPT_INVALID: {
    status: 400,
    meaning: 'A prompt sent to be kept is not usable: its text is empty once normalised, a chat prompt has no messages or ' +
      'a message without a role and content, the name is empty or over 256 characters, or both `version` and `label` were asked for.',
    action: 'Send `{ name, prompt }` with a non-empty text (or `type: "chat"` and `[{ role, content }]`); the message names the field.',
  },
  PROMPT_TOO_LARGE: {
    status: 413,
    meaning: 'A prompt sent to be kept is over 32,768 characters (its text, or a chat prompt\'s messages as JSON): the ' +
      'project\'s detectors run over it as it is created, within the control plane\'s time budget. Or its config is over ' +
      '65,536 characters of JSON.',
    action: 'Keep large reference material out of the template and fill it in as a variable.',
  },
  PROMPT_LABEL: {
    status: 400,
    meaning: 'A prompt label must be 1-64 characters: lowercase letters, digits, `_`, `-` and `.`, starting with a ' +
      'letter or digit. `latest` is kept by Vigil (it always names the newest version) and cannot be set or moved.',
    action: 'Use a name such as `production`, `staging` or `canary-eu`.',
  },
  PROMPT_LABEL_NOT_FOUND: {
    status: 404,
    meaning: 'The prompt template has no version with that label.',
    action: 'Attach the label to a version first (`PUT …/prompts/:name/labels/:label`, the prompt page, or a create with ' +
      '`labels`); `GET /api/v1/prompts/:name/labels` lists the labels.',
  },
  PROMPT_CONFLICT: {
    status: 409,
    meaning: 'A create sent the text of an existing version with another config or type: a version is its text, and ' +
      'its config and type are fixed by the create that first gave them.',
    action: 'Create the new config with a changed text (a new version), or send the version\'s own config.',
  },
  SINCE: {
    status: 400,
    meaning: 'The `since` parameter is neither epoch milliseconds, an ISO 8601 date-time nor a duration.',
    action: 'Write it as 1700000000000, 2026-11-25T10:00:00Z, or a duration such as 30m.',
  },
  CURSOR: {
    status: 400,
    meaning: 'A `before` or `after` paging cursor of a trace list is not `<created_at ms>.<trace id>`.',
    action: 'Build the cursor from the last (before) or first (after) trace of the page you have: its created_at in ' +
      'epoch milliseconds, a dot, and its id.',
  },
  BILLING_CURSOR: {
    status: 400,
    meaning: 'The `after` of a usage export page (`GET /api/llm/billing/events`) is not the `next` an earlier page answered.',
    action: 'Start without `after`, then pass each page\'s `next` unchanged.',
  },
  SEARCH_QUERY: {
    status: 400,
    meaning: 'A trace search (`q`) that cannot be run: a double quote without its pair, no word with a letter or digit, ' +
      'or more than 12 words and phrases. Search operators are not syntax: words match as written.',
    action: 'Search for words, "a phrase in double quotes", or a prefix such as refund*; narrow with model, template, ' +
      'status and since rather than more words.',
  },
  GATE: {
    status: 400,
    meaning: 'The gate cannot compare what was asked: the template has no versions, or a version number is not one ' +
      'of its versions.',
    action: 'Name an existing template and versions (`GET /api/v1/prompt-templates` lists them).',
  },
  DIFF_TOO_LARGE: {
    meaning: '(200, in `diff_omitted`) Two prompt versions are too different, or too long, to diff inline: more than ' +
      '1,000 lines changed, a text over 300,000 characters, or more work than the diff\'s budget. `diff` is null; the ' +
      'rest of the answer is complete.',
    action: 'Download both texts (the `downloads` paths of `diff_omitted`) and compare them with a local tool.',
  },
  PERSIST_ITEM: {
    meaning: 'The persist stage refused an item that passed validation (it could not be redacted, or the store refused its ' +
      'row alone); the item went to the dead list (`llm_dead_items`) and is not retried. The other items of its batch are stored.',
    action: 'Read the reason in `llm_dead_items` or the log. If it is a Vigil bug (the item passed validation), report it.',
  },
  CONFIG: {
    meaning: 'The `llm` section has a problem its schema cannot see: two projects with one name or one key, a redaction ' +
      'JSON path that does not compile, a project limit above `llm.max_body_bytes`.',
    action: 'Fix the key the message names.',
  },
  PROJECT_SETTINGS: {
    status: 400,
    meaning: 'Project settings sent to `PUT /api/llm/projects/:name/settings` do not match their schema.',
    action: 'Fix the field the message names; the schema is in `GET /api`.',
  },
});

/** A 429 for a project over its monthly items; Retry-After is the seconds to the next month (UTC). */
export function overMonthlyLimit(project: string, limit: number, now = Date.now()): HttpError {
  const d = new Date(now);
  const next = Date.UTC(d.getUTCFullYear(), d.getUTCMonth() + 1, 1);
  const seconds = Math.max(1, Math.ceil((next - now) / 1000));
  return httpError(LlmErrors.MONTHLY_LIMIT,
    `project "${project}" has used its ${limit} items for this month; items are accepted again in ${seconds} s, or raise limits.items_per_month`,
    { headers: { 'Retry-After': String(seconds) } });
}

export function projectNotFound(name: string): HttpError {
  return httpError(LlmErrors.PROJECT_NOT_FOUND, `no project named ${JSON.stringify(name)}`);
}

export function projectFromConfig(name: string, what: string): HttpError {
  return httpError(LlmErrors.PROJECT_FROM_CONFIG,
    `project "${name}" is declared in the config file (llm.projects), which wins: ${what} there and reload`);
}
