import type { AlertsService } from './alerts.js';
import type { ChannelDelivery, ChannelsService } from './channels.js';
import type { ContainersService, HostNetworkService, HostService } from './host.js';
import type { PrivilegeService } from './privilege.js';
import type { TerminalSourcesService } from './terminal.js';
import type { EvalResultEvent, LlmService, PersistedTrace, PromptVersionChange, ReceivedScore } from './llm.js';

/**
 * Payload types of bus topics. Plugins and the layers they build on add theirs by declaration merging (the gateway's
 * `gateway.exchange` and `gateway.record` are declared in gateway/):
 *
 *     declare module '@vigil/plugin-sdk' { interface Topics { 'gateway.exchange': RawExchange } }
 */
export interface Topics {
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
  /** A delivery of the `channels` plugin changed state (queued, an attempt failed, delivered, failed), in this process. */
  'channels.delivery': ChannelDelivery;
  /** Free for tests. */
  [topic: `test.${string}`]: unknown;
}

/** Types of services plugins provide, extended by declaration merging like `Topics` (`capture` and `policy` in gateway/). */
export interface Services {
  alerts: AlertsService;
  channels: ChannelsService;
  containers: ContainersService;
  host: HostService;
  hostNetwork: HostNetworkService;
  llm: LlmService;
  privilege: PrivilegeService;
  terminalSources: TerminalSourcesService;
  ui: UiService;
}

/** What the `ui` plugin offers other plugins. */
export interface UiService {
  /**
   * Calls `listener(true)` when the first open page subscribes to the live stream's `topic`, and `listener(false)`
   * when the last one leaves; once at once with the current state. For a publisher that should collect only while
   * someone watches (list the service in `optional`). Returns a function that stops the calls.
   */
  watch(topic: string, listener: (watched: boolean) => void): () => void;
}

/** A message on the `ui.event` topic. */
export interface UiEvent {
  /** The stream topic pages subscribe to, `<area>.<what>` (e.g. `gateway.record`): lower case, digits, `.`, `_`, `-`. */
  topic: string;
  /** Sent as JSON in the event's `data` field. */
  data: unknown;
}
