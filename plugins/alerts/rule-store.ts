import { httpError, insertWithinCap, parseDuration, uuidv7, type AlertScope, type Store } from '@vigil/plugin-sdk';
import { AlertsErrors, ruleFromConfig, ruleManaged, ruleNotFound } from './errors.js';
import type { AlertCondition, AlertRule, RuleInput, Severity } from './types.js';

export const RULE_DEFAULTS = { window: '5m', cooldown: '15m', min_samples: 1, severity: 'warning' as Severity, notify_resolved: true };

/** A rule with its defaults applied; `id` is the given one or a new UUIDv7. */
export function normaliseRule(input: RuleInput, origin: AlertRule['origin'], now: number): AlertRule {
  return {
    id: input.id ?? uuidv7(),
    name: input.name,
    enabled: input.enabled ?? true,
    source: input.source,
    scope: input.scope ?? {},
    condition: input.condition,
    window_ms: parseDuration(input.window ?? RULE_DEFAULTS.window),
    cooldown_ms: parseDuration(input.cooldown ?? RULE_DEFAULTS.cooldown),
    min_samples: input.min_samples ?? RULE_DEFAULTS.min_samples,
    channels: input.channels ?? 'all',
    notify_resolved: input.notify_resolved ?? RULE_DEFAULTS.notify_resolved,
    severity: input.severity ?? RULE_DEFAULTS.severity,
    origin,
    created_at: now,
    updated_at: now,
  };
}

type RuleRow = Record<string, string | number | null>;
/** Alert rules the store keeps, at most, config-declared ones included: a bound on each tick's work (bench/alert-rules.ts). */
export const MAX_RULES = 1_000;

const COLUMNS = ['id', 'name', 'enabled', 'source', 'scope', 'condition', 'window_ms', 'cooldown_ms', 'min_samples', 'channels', 'notify_resolved', 'severity', 'origin', 'created_at', 'updated_at'];

function fromRow(r: RuleRow): AlertRule {
  return {
    id: String(r.id), name: String(r.name), enabled: Number(r.enabled) === 1, source: String(r.source),
    scope: JSON.parse(String(r.scope)) as AlertScope, condition: JSON.parse(String(r.condition)) as AlertCondition,
    window_ms: Number(r.window_ms), cooldown_ms: Number(r.cooldown_ms), min_samples: Number(r.min_samples),
    channels: JSON.parse(String(r.channels)) as AlertRule['channels'], notify_resolved: Number(r.notify_resolved) === 1,
    severity: String(r.severity) as Severity, origin: String(r.origin) as AlertRule['origin'],
    created_at: Number(r.created_at), updated_at: Number(r.updated_at),
  };
}

const toRow = (r: AlertRule) => [
  r.id, r.name, r.enabled ? 1 : 0, r.source, JSON.stringify(r.scope), JSON.stringify(r.condition), r.window_ms, r.cooldown_ms,
  r.min_samples, JSON.stringify(r.channels), r.notify_resolved ? 1 : 0, r.severity, r.origin, r.created_at, r.updated_at,
];

/** The rules, config-declared and the dashboard's, in one table. */
export class RuleStore {
  private readonly table: string;

  constructor(private readonly store: Store, private readonly now: () => number = Date.now) {
    this.table = store.table('rules');
  }

  async list(): Promise<AlertRule[]> {
    return (await this.store.query<RuleRow>(`SELECT * FROM ${this.table} ORDER BY name, id`)).map(fromRow);
  }

  async get(id: string): Promise<AlertRule | undefined> {
    const [row] = await this.store.query<RuleRow>(`SELECT * FROM ${this.table} WHERE id = ?`, [id]);
    return row ? fromRow(row) : undefined;
  }

  async mustGet(id: string): Promise<AlertRule> {
    const rule = await this.get(id);
    if (!rule) throw ruleNotFound(id);
    return rule;
  }

  /**
   * Makes the config's rules the `config` rules, each written as the file says (the file wins, its `enabled` too);
   * config rules no longer in the file become the dashboard's, so nothing is lost.
   */
  async syncConfig(inputs: readonly RuleInput[]): Promise<void> {
    const now = this.now();
    await this.store.transaction(async (tx) => {
      const existing = new Map((await tx.query<RuleRow>(`SELECT * FROM ${this.table}`)).map((r) => [String(r.id), fromRow(r)]));
      const ids = new Set<string>();
      for (const input of inputs) {
        const before = existing.get(input.id!);
        const rule = normaliseRule(input, 'config', now);
        if (before) rule.created_at = before.created_at;
        ids.add(rule.id);
        await tx.run(`DELETE FROM ${this.table} WHERE id = ?`, [rule.id]);
        await tx.insertMany(this.table, COLUMNS, [toRow(rule)]);
      }
      for (const rule of existing.values()) {
        if (rule.origin === 'config' && !ids.has(rule.id)) await tx.run(`UPDATE ${this.table} SET origin = 'store', updated_at = ? WHERE id = ?`, [now, rule.id]);
      }
    });
  }

  async create(input: RuleInput): Promise<AlertRule> {
    const rule = normaliseRule(input, 'store', this.now());
    // Counted and inserted under one lock: a burst of creates cannot each see room and pass the cap together.
    const done = await insertWithinCap(this.store, { table: this.table, cap: MAX_RULES },
      (tx) => tx.insertMany(this.table, COLUMNS, [toRow(rule)], { onConflict: 'ON CONFLICT DO NOTHING' }));
    if (!done.inserted) throw httpError(AlertsErrors.RULES_FULL, `the store holds ${done.count} alert rules, the most it keeps (${MAX_RULES}); delete one first`);
    if (done.value === 0) throw httpError(AlertsErrors.RULE_EXISTS, `an alert rule "${rule.id}" exists already`);
    return rule;
  }

  async replace(id: string, input: RuleInput): Promise<AlertRule> {
    const current = await this.mustGet(id);
    if (current.origin === 'config') throw ruleFromConfig(id, 'change it');
    if (current.origin === 'plugin') throw ruleManaged(id, 'change it');
    const rule = { ...normaliseRule({ ...input, id }, 'store', this.now()), created_at: current.created_at };
    await this.store.transaction(async (tx) => {
      await tx.run(`DELETE FROM ${this.table} WHERE id = ?`, [id]);
      await tx.insertMany(this.table, COLUMNS, [toRow(rule)]);
    });
    return rule;
  }

  async delete(id: string): Promise<void> {
    const current = await this.mustGet(id);
    if (current.origin === 'config') throw ruleFromConfig(id, 'delete it');
    if (current.origin === 'plugin') throw ruleManaged(id, 'delete it');
    await this.store.run(`DELETE FROM ${this.table} WHERE id = ?`, [id]);
  }

  /** Managed rules whose id starts with `prefix`, by name. */
  async managed(prefix: string): Promise<AlertRule[]> {
    return (await this.store.query<RuleRow>(
      `SELECT * FROM ${this.table} WHERE origin = 'plugin' AND substr(id, 1, ?) = ? ORDER BY name, id`, [prefix.length, prefix])).map(fromRow);
  }

  /**
   * Makes the managed rules under `prefix` exactly `rules` in one transaction (created_at kept for ids that stay);
   * returns the ids deleted. A stored rule of another origin with one of the ids is refused (409).
   */
  async replaceManaged(prefix: string, rules: readonly AlertRule[]): Promise<string[]> {
    return this.store.transaction(async (tx) => {
      const before = new Map((await tx.query<RuleRow>(`SELECT * FROM ${this.table} WHERE substr(id, 1, ?) = ?`, [prefix.length, prefix]))
        .map((r) => [String(r.id), fromRow(r)]));
      for (const rule of rules) {
        const old = before.get(rule.id);
        if (old && old.origin !== 'plugin') throw httpError(AlertsErrors.RULE_EXISTS, `an alert rule "${rule.id}" exists already, not managed by a plugin`);
      }
      const ids = new Set(rules.map((r) => r.id));
      const gone = [...before.values()].filter((r) => r.origin === 'plugin' && !ids.has(r.id)).map((r) => r.id);
      for (const id of [...gone, ...ids]) await tx.run(`DELETE FROM ${this.table} WHERE id = ?`, [id]);
      if (rules.length) {
        await tx.insertMany(this.table, COLUMNS, rules.map((r) => toRow({ ...r, origin: 'plugin', created_at: before.get(r.id)?.created_at ?? r.created_at })));
      }
      return gone;
    });
  }

  /** Adds the managed rules whose id is not stored yet. */
  async ensureManaged(rules: readonly AlertRule[]): Promise<void> {
    if (rules.length === 0) return;
    await this.store.insertMany(this.table, COLUMNS, rules.map((r) => toRow({ ...r, origin: 'plugin' })), { onConflict: 'ON CONFLICT DO NOTHING' });
  }

  /** The bulk switch: every rule, config-declared ones too (the switch is state, not the rule's definition). */
  async setAllEnabled(enabled: boolean): Promise<number> {
    return (await this.store.run(`UPDATE ${this.table} SET enabled = ?, updated_at = ?`, [enabled ? 1 : 0, this.now()])).changes;
  }
}
