import type { ChannelMessage } from './channels.js';
import type { JsonSchema } from './json-schema.js';

/**
 * The alert engine's seams (the `alerts` plugin): the rule source contract every plugin registers its metrics
 * through (built-in and third-party alike), and the alert events other plugins may read.
 *
 * A source is a metric over time, narrowed by a scope: `llm.error_rate` of project `shop`, `gateway.p95_latency_ms`
 * of route `/api/orders/*`. The engine asks it for the value of a window; the source answers with an aggregate and the
 * number of observations behind it (`min_samples` compares that). A source never sees rules, thresholds or state.
 */

/** What a rule narrows a source to. A source declares which keys it understands; a rule may give only those. */
export interface AlertScope {
  /** An LLM project's name. */
  project?: string;
  /** A prompt template's name, and one of its versions. */
  template?: string;
  version?: number;
  model?: string;
  /** A gateway route (one of the policy's route globs). */
  route?: string;
  /** `name=value` of a label. */
  label?: string;
  /**
   * What a host rule watches: a systemd unit, a port, a process name, a path, a log watcher's name. The source that
   * takes it says what it means.
   */
  target?: string;
}

export type AlertScopeKey = keyof AlertScope;

export const ALERT_SCOPE_KEYS: readonly AlertScopeKey[] = ['project', 'template', 'version', 'model', 'route', 'label', 'target'];

/** A window of time, [from, to), in epoch ms. */
export interface AlertWindow {
  from: number;
  to: number;
}

/** `count` consecutive windows of `stepMs` each, the last ending at `to`: [to - count·step, to). */
export interface AlertSeriesRange {
  to: number;
  stepMs: number;
  /** At most 1,500. */
  count: number;
}

/** A source's answer for one window. */
export interface AlertReading {
  /** The metric's value over the window; null when the window holds no data to compute it from. */
  value: number | null;
  /** Observations behind `value` (requests, eval results): a rule's `min_samples` is compared with it. */
  samples: number;
}

/** Month-to-date spend against a cap, for `budget` rules. */
export interface AlertBudgetReading {
  /** Spent so far this calendar month (UTC), in the source's unit. */
  spent: number;
  /** The cap; null when the scope has none (a `budget` rule then never fires). */
  cap: number | null;
}

/** A metric rules can watch. Register it with `AlertsService.registerSource`. */
export interface AlertSource {
  /** `<area>.<metric>`: lower case letters, digits and `_`, with at least one dot (`host.cpu_pct`). Unique. */
  id: string;
  /** One line for the rule form. */
  summary: string;
  /** How the UI shows values: `ms`, `usd`, `ratio` (0..1), `score` (0..1), `count`, or any short word. */
  unit: string;
  /** The scope keys the source understands; a rule with any other key is refused. */
  scopes: readonly AlertScopeKey[];
  /** Keys every rule on this source must give (the LLM sources need `project`). */
  requiredScopes?: readonly AlertScopeKey[];
  /**
   * The reading of one window. Make it one aggregate query (it runs for every rule, every minute), never a read of
   * the rows themselves. Throw for a scope that names nothing (an unknown project): the rule shows the error.
   */
  read(window: AlertWindow, scope: AlertScope): Promise<AlertReading>;
  /**
   * Optional: the readings of consecutive windows (oldest first, `range.count` of them) in one read, for `anomaly`
   * baselines and rule previews. Without it the engine calls `read` once per window.
   */
  series?(range: AlertSeriesRange, scope: AlertScope): Promise<AlertReading[]>;
  /** Optional: the month-to-date spend and cap at `at`, which `budget` rules compare. */
  budget?(scope: AlertScope, at: number): Promise<AlertBudgetReading>;
}

/** A source as the API lists it. */
export interface AlertSourceInfo {
  id: string;
  summary: string;
  unit: string;
  scopes: AlertScopeKey[];
  required_scopes: AlertScopeKey[];
  /** Whether `budget` rules can use it. */
  budget: boolean;
  /** The plugin that registered it. */
  plugin: string;
}

/** `firing` until a later window no longer breaches (`resolved`). */
export type AlertEventStatus = 'firing' | 'resolved';

/** One fired alert, as the API answers it (times ISO 8601). */
export interface AlertEventView {
  id: string;
  rule_id: string;
  rule_name: string;
  source: string;
  scope: AlertScope;
  severity: 'info' | 'warning' | 'critical';
  status: AlertEventStatus;
  /** The window's value, and what it was compared with (a z-score's threshold, a cap): null for a prompt version. */
  value: number | null;
  threshold: number | null;
  /** What the condition said, in words: `error rate 0.31 > 0.2 over 5m`. */
  summary: string;
  window_ms: number;
  samples: number;
  fired_at: string;
  resolved_at: string | null;
  /** Why nobody was told: `cooldown` (fired again too soon) or `flapping`; null when the channels were asked. */
  suppressed: 'cooldown' | 'flapping' | null;
  /** Per channel: `pending`, `delivered` or `failed`, with attempts and the last error. */
  delivery: { channel_id: string; state: 'pending' | 'delivered' | 'failed'; attempts: number; last_error: string | null; updated_at: string }[];
}

export interface AlertEventsQuery {
  status?: AlertEventStatus;
  /** Epoch ms: events fired at or after it. */
  since?: number;
  limit: number;
  offset: number;
}

/** What the alerts plugin hands the `llm` plugin, so that `GET /api/v1/alert-events` lists a project's events. */
export interface AlertEventSource {
  /** Events of rules scoped to this LLM project (by name), newest first. */
  events(project: string, query: AlertEventsQuery): Promise<AlertEventView[]>;
}

/**
 * A rule another plugin manages through the service (the host monitor's thresholds and custom rules): the same
 * engine, cooldown, alerting state and history as any rule, but changed only by its plugin (the alerts API answers
 * 409 to a change). Its id starts with the plugin's prefix (`host.`).
 */
export interface ManagedAlertRule {
  id: string;
  name: string;
  enabled: boolean;
  source: string;
  scope: AlertScope;
  /** `gte`/`lte` fire at the threshold itself (`CPU ≥ 90 %`), `gt`/`lt` only past it. */
  condition: { type: 'gt' | 'lt' | 'gte' | 'lte'; threshold: number };
  window_ms: number;
  cooldown_ms: number;
  severity: 'info' | 'warning' | 'critical';
  /** Default `all`. */
  channels?: string[] | 'all';
}

/** A managed rule with what its last evaluation saw. */
export interface ManagedAlertRuleView extends ManagedAlertRule {
  state: {
    status: 'ok' | 'firing';
    last_value: number | null;
    last_note: string | null;
    last_error: string | null;
    /** Epoch ms; null before the first evaluation. */
    evaluated_at: number | null;
  };
}

/** The alerting state in force: `on`, `stopped`, or `snoozed` until `until` (epoch ms). */
export interface AlertingStateView {
  state: 'on' | 'stopped' | 'snoozed';
  until: number | null;
}

/** Events of rules whose source starts with a prefix (`host.`), newest first. */
export interface AlertEventsBySourceQuery {
  sourcePrefix: string;
  /** Epoch ms: fired at or after. */
  since?: number;
  /** Epoch ms: fired before. */
  until?: number;
  status?: AlertEventStatus;
  /** At most 200. */
  limit: number;
}

/**
 * A periodic digest another plugin adds to the alerts plugin's mechanism (the host digest): the alerts plugin
 * schedules it weekly to the digest channels (`alerts.digests.channels`), once per week across processes, and serves
 * its preview and send-now at `/api/alerts/digests/<id>/preview` and `/send`.
 */
export interface AlertDigest {
  /** Lower case letters, digits and `-`; unique (`host`). `llm` is taken. */
  id: string;
  /** One line for the digest list. */
  summary: string;
  /** The digest of the week [from, to): its figures (any JSON) and the message every channel sends. */
  build(week: AlertWindow): Promise<{ data: Record<string, unknown>; message: ChannelMessage }>;
}

/** What the `alerts` plugin offers other plugins. */
export interface AlertsService {
  /** Adds a source (its id must be new); returns its removal. Call it in `setup`, listing `alerts` in `needs`. */
  registerSource(source: AlertSource): () => void;
  sources(): AlertSourceInfo[];
  /** The managed rules whose id starts with `prefix`, by name, with their last evaluation. */
  managedRules(prefix: string): Promise<ManagedAlertRuleView[]>;
  /**
   * Makes the managed rules under `prefix` exactly `rules`, in one transaction: a rule whose id stays keeps its state
   * (its cooldown, its firing event); one left out is deleted with its state (its events stay in the history). Every
   * id must start with `prefix`; each rule is checked as the alerts API checks one (throws a 400 HttpError naming the
   * key). A whole set at once is how a cap (the host's 24 custom rules) holds under concurrent saves.
   */
  replaceManagedRules(prefix: string, rules: readonly ManagedAlertRule[]): Promise<void>;
  /** Adds the rules whose id is not stored yet (defaults a plugin ships); leaves existing ones as they are. */
  ensureManagedRules(rules: readonly ManagedAlertRule[]): Promise<void>;
  /** Events by the source of their rule. */
  eventsBySource(query: AlertEventsBySourceQuery): Promise<AlertEventView[]>;
  /** The alerting state in force now. */
  alerting(): Promise<AlertingStateView>;
  /** Adds a digest (its id must be new); returns its removal. */
  registerDigest(digest: AlertDigest): () => void;
}

const nullableNumber: JsonSchema = { type: ['number', 'null'] };
const isoTime: JsonSchema = { type: 'string', format: 'date-time' };

/** The JSON Schema of `AlertEventView`: the alerts plugin's API and the llm plugin's public list answer it. */
export const ALERT_EVENT_SCHEMA: JsonSchema = {
  title: 'AlertEvent',
  type: 'object',
  additionalProperties: false,
  required: ['id', 'rule_id', 'rule_name', 'source', 'scope', 'severity', 'status', 'value', 'threshold', 'summary', 'window_ms', 'samples', 'fired_at', 'resolved_at', 'suppressed', 'delivery'],
  properties: {
    id: { type: 'string' },
    rule_id: { type: 'string' },
    rule_name: { type: 'string' },
    source: { type: 'string', description: 'The rule\'s source metric, e.g. `llm.error_rate`.' },
    scope: { type: 'object', description: 'The rule\'s scope: project, template, version, model, route, label.' },
    severity: { enum: ['info', 'warning', 'critical'] },
    status: { enum: ['firing', 'resolved'] },
    value: nullableNumber,
    threshold: nullableNumber,
    summary: { type: 'string' },
    window_ms: { type: 'integer', minimum: 0 },
    samples: { type: 'integer', minimum: 0 },
    fired_at: isoTime,
    resolved_at: { type: ['string', 'null'], format: 'date-time' },
    suppressed: { enum: ['cooldown', 'flapping', null], description: 'Why no channel was asked; null when they were.' },
    delivery: {
      type: 'array',
      items: {
        title: 'AlertEventDelivery',
        type: 'object',
        additionalProperties: false,
        required: ['channel_id', 'state', 'attempts', 'last_error', 'updated_at'],
        properties: {
          channel_id: { type: 'string' },
          state: { enum: ['pending', 'delivered', 'failed'] },
          attempts: { type: 'integer', minimum: 0 },
          last_error: { type: ['string', 'null'] },
          updated_at: isoTime,
        },
      },
    },
  },
};
