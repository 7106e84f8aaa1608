/**
 * The client's error codes, `VIGIL_ERR_CLIENT_<KEY>`. The client never throws them into the application: they reach
 * the `onError` option (by default a process warning, once a minute per code) and the counters of `stats()`.
 *
 * The catalogue has the shape plugin-sdk's `defineErrorCodes` gives (the codes object carries its docs under the
 * registered symbol `vigil.errorCatalogue`), so docs/errors.md lists these codes with the server's. It is written out
 * here because this package is published without the SDK.
 */

interface CodeDoc { meaning: string; action: string }

const catalogueKey = Symbol.for('vigil.errorCatalogue');
const PREFIX = 'CLIENT';

type ClientCodes<Docs> = { readonly [K in keyof Docs & string]: `VIGIL_ERR_${typeof PREFIX}_${K}` };

function defineClientCodes<const Docs extends Record<string, CodeDoc>>(docs: Docs): ClientCodes<Docs> {
  const codes: Record<string, string> = {};
  const listed = Object.entries(docs).map(([key, doc]) => {
    const code = `VIGIL_ERR_${PREFIX}_${key}`;
    codes[key] = code;
    return Object.freeze({ code, meaning: doc.meaning, action: doc.action });
  });
  Object.defineProperty(codes, catalogueKey, { value: Object.freeze({ prefix: PREFIX, codes: Object.freeze(listed) }), enumerable: false });
  return Object.freeze(codes) as ClientCodes<Docs>;
}

export const ClientErrors = defineClientCodes({
  CONFIG: {
    meaning: 'A client (Node, Python, Go or Java) has no usable URL or project key, so it records nothing: every trace is ' +
      'dropped and counted.',
    action: 'Set VIGIL_URL and VIGIL_PROJECT_KEY, or pass them: `createClient({ url, projectKey })` (Node), ' +
      '`Vigil(base_url=…, project_key=…)` (Python), `vigil.Options{URL, ProjectKey}` (Go), `Vigil.builder().url(…).projectKey(…)` (Java).',
  },
  AUTH: {
    meaning: 'Vigil answered 401 or 403 to a batch of a client: the project key is unknown, rotated out or revoked. ' +
      'The batch is dropped, not retried.',
    action: 'Use a current key of the project (`vigil project list`, `vigil project rotate-key`).',
  },
  BATCH_REFUSED: {
    meaning: 'Vigil refused a whole batch of a client with a 4xx status other than 401, 403, 413 and 429 (a body it ' +
      'cannot read, a wrong URL). The batch is dropped, not retried.',
    action: 'Check that `url` points at Vigil\'s control plane; the message carries the status and the server\'s error.',
  },
  TOO_LARGE: {
    meaning: 'Vigil answered 413 to a single trace item of a client: the item alone is over the project\'s body or ' +
      'batch limit. (A larger batch answered 413 is split in halves and sent again.) The item is dropped.',
    action: 'Lower `maxItemBytes` so that large inputs and outputs are truncated further, or raise the project\'s body limit.',
  },
  ITEMS_REJECTED: {
    meaning: 'Vigil accepted a batch of a client but rejected some items in it (their index, code and path are in ' +
      'the message). Rejected items are counted in `stats().rejected`, never retried.',
    action: 'Fix what the message names in the calls to `client.trace()`; items from `wrapOpenAI` that are rejected are a bug ' +
      'to report.',
  },
  RETRIES_EXHAUSTED: {
    meaning: 'A batch of a client failed on every attempt (network errors, 5xx or 429) and was dropped after ' +
      '`maxRetries` retries.',
    action: 'Check that Vigil is reachable from the application and healthy; raise `maxRetries` to ride out longer outages.',
  },
  BUFFER_FULL: {
    meaning: 'A client\'s buffer reached `maxBufferItems` or `maxBufferBytes` (Vigil slow or unreachable, or traces ' +
      'made faster than they are sent), so new traces are dropped and counted.',
    action: 'Check that Vigil is reachable; raise the bounds if the application has the memory for them.',
  },
  NOT_DELIVERED: {
    meaning: 'A client stopped (its shutdown or close, or the process\' exit) with traces it could not send within ' +
      '`shutdownTimeoutMs`; they are dropped and counted.',
    action: 'Check that Vigil is reachable at exit; raise `shutdownTimeoutMs` if sending simply needs longer.',
  },
  INVALID_ITEM: {
    meaning: 'A trace given to `client.trace()` has no model (a non-empty string), the one field Vigil requires. It is ' +
      'dropped and counted.',
    action: 'Pass `model` with every manual trace.',
  },
  CLOSED: {
    meaning: 'A trace was recorded after `client.shutdown()`; it is dropped and counted.',
    action: 'Record traces before shutting the client down, or create a new client.',
  },
  PROMPT_UNAVAILABLE: {
    meaning: 'The Node client\'s `getPrompt()` (the other clients fetch no prompts yet) could not get a prompt from ' +
      'Vigil (unreachable, timed out, a 5xx, or a 404: no such prompt, label or version). With a copy in its cache the ' +
      'client answers that copy; else with a `fallback` the fallback (`isFallback: true`); only with neither does ' +
      '`getPrompt()` reject, with this error.',
    action: 'Check the name and label (`GET /api/v1/prompts/:name/labels`) and that Vigil is reachable; pass a `fallback` ' +
      'so the application keeps working while Vigil is away.',
  },
  INTERNAL: {
    meaning: 'A client failed inside its own code (a bug) while observing a call; the application\'s call went ' +
      'through unchanged and only its trace may be missing.',
    action: 'Report it with the message and the openai version; the application is not affected.',
  },
});

export type ClientErrorCode = (typeof ClientErrors)[keyof typeof ClientErrors];

/** What `onError` receives: a code from the catalogue, a message that says what happened, and how many items it cost. */
export class VigilClientError extends Error {
  override name = 'VigilClientError';
  constructor(
    readonly code: ClientErrorCode,
    message: string,
    /** Trace items dropped or rejected because of this error (0 when none were lost). */
    readonly items = 0,
    /** The HTTP status Vigil answered, when the error is an answer. */
    readonly status?: number,
  ) {
    super(message);
  }
}
