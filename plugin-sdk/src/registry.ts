import type { CaptureService, GovernedRecordJson, RawExchange } from './gateway.js';
import type { EvalResultEvent, LlmService, PersistedTrace, PromptVersionChange, ReceivedScore } from './llm.js';

/**
 * Payload types of bus topics. Plugins add theirs by declaration merging:
 *
 *     declare module '@vigil/plugin-sdk' { interface Topics { 'gateway.exchange': RawExchange } }
 */
export interface Topics {
  /** Raw exchanges: bounded copies of live traffic, published by the proxy. In-process only, never exported. */
  'gateway.exchange': RawExchange;
  /** Governed records, published by capture: each one's stored JSON text, to export as it is, and its key fields. */
  'gateway.record': GovernedRecordJson;
  /**
   * Live events for the dashboard's open pages: the `ui` plugin relays each one to the pages subscribed to its
   * `topic` (`GET /api/ui/stream`). The ui plugin subscribes only while a page is open, so check
   * `bus.hasSubscribers('ui.event')` before building one. `data` goes to the browser as JSON: keep it small, and never
   * put an unredacted value or a secret in it.
   */
  'ui.event': UiEvent;
  /** LLM traces as the persist stage stored them (redacted), each once. */
  'llm.trace.persisted': PersistedTrace;
  /** A prompt template got a new version (N+1): published inline by the persist stage, for `prompt_version_change` rules. */
  'llm.prompt_version_change': PromptVersionChange;
  /** An eval result was stored (the evaluators plugin), for alert rules on eval scores. */
  'llm.eval.result': EvalResultEvent;
  /** A score an application sent (Langfuse `score-create`), redacted, for the evaluators to keep (apart from eval results). */
  'llm.score.received': ReceivedScore;
  /** Free for tests. */
  [topic: `test.${string}`]: unknown;
}

/** Types of services plugins provide, extended by declaration merging like `Topics`. */
export interface Services {
  capture: CaptureService;
  llm: LlmService;
}

/** A message on the `ui.event` topic. */
export interface UiEvent {
  /** The stream topic pages subscribe to, `<area>.<what>` (e.g. `gateway.record`): lower case, digits, `.`, `_`, `-`. */
  topic: string;
  /** Sent as JSON in the event's `data` field. */
  data: unknown;
}
