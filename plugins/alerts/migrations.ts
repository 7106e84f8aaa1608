import type { Migration } from '@vigil/plugin-sdk';

/**
 * The alerts' tables; one statement list serves both stores. Times are epoch ms, JSON is TEXT, booleans are 0/1.
 *
 * - rules: `origin` is `config` for rules the config file declares (the file wins) and `store` for the dashboard's.
 * - rule_state: one row per rule, shared by every process. `last_tick` is the last evaluation tick that claimed the
 *   rule: a tick claims it with a compare-and-set, so each rule is evaluated once per tick however many processes run.
 * - events: one per firing, keyed `<rule>:<tick>` (or `<rule>:v:<template>:<version>` for a prompt version), so a
 *   repeated insert is a no-op. `handed_over` turns 1 once the channels have the notification (durably queued there);
 *   each tick hands over the ones a dead process left.
 * - control: the alerting state (one row, id 1): `on`, `stopped`, or `snoozed` until `until`.
 * - cursors: how far the prompt-version catch-up has read.
 * - digests: one row per (project, week) sent, so a digest goes out once; a plugin's digest (the host's) puts its id in `project`.
 */
export const alertsMigrations: Migration[] = [
  {
    version: 1,
    name: 'rules, rule state, events, alerting state, cursors, digests',
    up: `
      CREATE TABLE alerts_rules (
        id TEXT PRIMARY KEY, name TEXT NOT NULL, enabled INTEGER NOT NULL, source TEXT NOT NULL, scope TEXT NOT NULL,
        condition TEXT NOT NULL, window_ms BIGINT NOT NULL, cooldown_ms BIGINT NOT NULL, min_samples INTEGER NOT NULL,
        channels TEXT NOT NULL, notify_resolved INTEGER NOT NULL, severity TEXT NOT NULL, origin TEXT NOT NULL,
        created_at BIGINT NOT NULL, updated_at BIGINT NOT NULL);
      CREATE TABLE alerts_rule_state (
        rule_id TEXT PRIMARY KEY, status TEXT NOT NULL, event_id TEXT, last_notified_at BIGINT, transitions TEXT NOT NULL,
        flapping INTEGER NOT NULL, last_tick BIGINT NOT NULL, last_value DOUBLE PRECISION, last_samples BIGINT,
        last_note TEXT, last_error TEXT, evaluated_at BIGINT);
      CREATE TABLE alerts_events (
        id TEXT PRIMARY KEY, rule_id TEXT NOT NULL, rule_name TEXT NOT NULL, source TEXT NOT NULL, scope TEXT NOT NULL,
        project TEXT, severity TEXT NOT NULL, status TEXT NOT NULL, value DOUBLE PRECISION, threshold DOUBLE PRECISION,
        summary TEXT NOT NULL, window_ms BIGINT NOT NULL, samples BIGINT NOT NULL, fired_at BIGINT NOT NULL,
        resolved_at BIGINT, suppressed TEXT, channels TEXT NOT NULL, notify_resolved INTEGER NOT NULL,
        handed_over INTEGER NOT NULL);
      CREATE INDEX alerts_events_fired ON alerts_events (fired_at);
      CREATE INDEX alerts_events_project ON alerts_events (project, fired_at);
      CREATE INDEX alerts_events_rule ON alerts_events (rule_id, fired_at);
      CREATE TABLE alerts_control (id INTEGER PRIMARY KEY, state TEXT NOT NULL, until BIGINT, changed_at BIGINT NOT NULL);
      CREATE TABLE alerts_cursors (name TEXT PRIMARY KEY, at BIGINT NOT NULL);
      CREATE TABLE alerts_digests (id TEXT PRIMARY KEY, project TEXT NOT NULL, week TEXT NOT NULL, sent_at BIGINT NOT NULL);`,
  },
];
