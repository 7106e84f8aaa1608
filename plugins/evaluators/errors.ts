import { defineErrorCodes, HttpError, httpError, statusOf, VigilError } from '@vigil/plugin-sdk';

/**
 * Codes of the evaluators plugin: the dashboard's eval definition API and the eval jobs. A code answered over HTTP has
 * its status in its entry.
 */
export const EvaluatorsErrors = defineErrorCodes('EVALUATORS', {
  DEFINITION: {
    status: 400,
    meaning: 'An eval definition the schema accepts but that cannot work: settings of another type, a missing rubric, ' +
      'provider, source or golden set, a version range without a template or with min above max, an unknown rubric placeholder.',
    action: 'Fix the key the message names; plugins/evaluators/README.md lists what each type takes.',
  },
  DEFINITION_NOT_FOUND: {
    status: 404,
    meaning: 'The project has no eval definition with this id.',
    action: 'List the project\'s definitions (`GET /api/llm/projects/:project/evals`) for their ids.',
  },
  DEFINITION_EXISTS: {
    status: 409,
    meaning: 'The project already has an eval definition with this id.',
    action: 'Choose another id, or change the existing one with PUT.',
  },
  DEFINITION_FROM_CONFIG: {
    status: 409,
    meaning: 'The eval definition is declared in the config file (`evaluators.definitions`), which wins: the API cannot ' +
      'change or delete it.',
    action: 'Edit the config file and reload (SIGHUP), or remove it from the file to manage it here.',
  },
  PROJECT_NOT_FOUND: {
    status: 404,
    meaning: 'There is no LLM project with this name.',
    action: 'Create it (`vigil project create NAME`) or check the name in `GET /api/llm/projects`.',
  },
  PROVIDER: {
    status: 400,
    meaning: 'An llm_judge definition names a provider that `evaluators.providers` does not declare.',
    action: 'Declare the provider (base_url, model, api_key) in the config file, or name one that is there ' +
      '(`GET /api/llm/eval-providers`).',
  },
  FUNCTION: {
    status: 400,
    meaning: 'A custom_function definition was refused when saved: its source does not compile into a module with a ' +
      'default export function, reaches for what the sandbox does not have, or fails (throws, times out, returns no score) ' +
      'on the sample trace. The answer holds the sandbox\'s reason and the trial\'s result.',
    action: 'Fix the function (try it with `vigil fn run FILE --input @trace.json`); it must return a number in 0..1 or ' +
      '`{ score, reason }`.',
  },
  TRACE_NOT_FOUND: {
    status: 404,
    meaning: 'The trace to test a definition against is not a stored trace of the project.',
    action: 'Give the id of a stored trace (`GET /api/v1/traces`), or none to use the project\'s latest trace.',
  },
  GOLDEN_SET_NOT_FOUND: {
    status: 404,
    meaning: 'The prompt template has no golden set in this project.',
    action: 'List the golden sets (`GET /api/llm/projects/:project/golden-sets`), or set one with PUT.',
  },
  SINCE: {
    status: 400,
    meaning: 'The `since` parameter of `GET /api/v1/scores` is neither epoch milliseconds, an ISO 8601 date-time nor a ' +
      'duration.',
    action: 'Write it as 1700000000000, 2026-11-25T10:00:00Z, or a duration such as 30m.',
  },
  PROVIDER_UNAVAILABLE: {
    status: 502,
    meaning: 'An eval\'s provider (judge or embeddings) answered 429 or 5xx, or did not answer in time; the eval job is ' +
      'retried (after Retry-After when given) and becomes a failed result after its last attempt. Seen in a job\'s ' +
      'last_error, and as the answer to a trial of a definition (`POST …/evals/test`, or saving a custom function), ' +
      'which is not retried.',
    action: 'Nothing, if it passes. If it repeats: check the provider\'s status and limits, or lower ' +
      '`evaluators.rate_per_minute`.',
  },
});

/** 404 for a project name. */
export const projectNotFound = (name: string): HttpError =>
  httpError(EvaluatorsErrors.PROJECT_NOT_FOUND, `there is no LLM project named ${JSON.stringify(name)}`);

/** 409 for a definition the config file owns; `what` is the way to do it there ("change it", "remove it"). */
export const definitionFromConfig = (id: string, what: string): HttpError => httpError(EvaluatorsErrors.DEFINITION_FROM_CONFIG,
  `eval definition "${id}" is declared in the config file (evaluators.definitions), which wins: ${what} there and reload`);

/**
 * A provider failure worth another attempt (429, 5xx, a timeout, the network): the job queue retries the eval after
 * its backoff, or after `retryAfterMs` when the provider said so.
 */
export class ProviderUnavailable extends VigilError {
  readonly retryAfterMs?: number;
  constructor(message: string, options: { retryAfterMs?: number; cause?: unknown } = {}) {
    super(EvaluatorsErrors.PROVIDER_UNAVAILABLE, message, { status: statusOf(EvaluatorsErrors.PROVIDER_UNAVAILABLE), cause: options.cause });
    this.name = 'ProviderUnavailable';
    if (options.retryAfterMs !== undefined) this.retryAfterMs = options.retryAfterMs;
  }
}
