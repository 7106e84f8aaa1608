import type { AlertScope } from '@vigil/plugin-sdk';

export type Severity = 'info' | 'warning' | 'critical';

/** What a rule compares; see conditions.ts for each one's exact meaning. */
export type AlertCondition =
  | { type: 'gt' | 'lt' | 'gte' | 'lte'; threshold: number }
  | { type: 'pct_change'; direction: 'up' | 'down' | 'either'; pct: number }
  | { type: 'anomaly'; z?: number }
  | { type: 'budget'; pct?: number }
  | { type: 'prompt_version_change' };

export type ConditionType = AlertCondition['type'];

/** A rule as the config file and the API take it; the code applies the defaults. */
export interface RuleInput {
  id?: string;
  name: string;
  enabled?: boolean;
  source: string;
  scope?: AlertScope;
  condition: AlertCondition;
  /** A duration (`5m`) or ms. */
  window?: string | number;
  cooldown?: string | number;
  min_samples?: number;
  channels?: string[] | 'all';
  notify_resolved?: boolean;
  severity?: Severity;
}

/** A rule with every default applied and durations in ms. */
export interface AlertRule {
  id: string;
  name: string;
  enabled: boolean;
  source: string;
  scope: AlertScope;
  condition: AlertCondition;
  window_ms: number;
  cooldown_ms: number;
  min_samples: number;
  channels: string[] | 'all';
  notify_resolved: boolean;
  severity: Severity;
  /**
   * `config` for rules the config file declares and `plugin` for rules a plugin manages (the host monitor's), both
   * read-only through the alerts API; `store` for the dashboard's.
   */
  origin: 'config' | 'store' | 'plugin';
  created_at: number;
  updated_at: number;
}

export interface AlertsConfig {
  /** How often rules are evaluated. */
  interval: string | number;
  /** More fire/resolve transitions than this within an hour mark a rule `flapping`. */
  flapping_transitions: number;
  /** Events older than this are deleted. */
  history_retention: string | number;
  /** The dashboard's address, for links in notifications; default the control plane's. */
  dashboard_url?: string;
  rules: RuleInput[];
  /** Where the weekly LLM digest goes: none sends no weekly digest. */
  digests: { channels: string[] | 'all' };
}
