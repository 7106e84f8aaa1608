import type { AlertsService, ChannelsService, ManagedAlertRule, ManagedAlertRuleView } from '@vigil/plugin-sdk';
import type { AlertEngine } from './engine.js';
import { badRule } from './errors.js';
import { eventViews } from './event-views.js';
import { ruleProblem } from './rule-check.js';
import type { RuleStore } from './rule-store.js';
import type { SourceRegistry } from './source-registry.js';
import type { AlertRule } from './types.js';

/** Managed rules always evaluate one window and notify when they resolve; the rest is the plugin's to choose. */
function toRule(m: ManagedAlertRule, now: number): AlertRule {
  return {
    id: m.id, name: m.name, enabled: m.enabled, source: m.source, scope: m.scope, condition: m.condition, window_ms: m.window_ms,
    cooldown_ms: m.cooldown_ms, min_samples: 1, channels: m.channels ?? 'all', notify_resolved: true, severity: m.severity,
    origin: 'plugin', created_at: now, updated_at: now,
  };
}

function checked(prefix: string, rules: readonly ManagedAlertRule[], sources: SourceRegistry): void {
  const seen = new Set<string>();
  for (const [i, m] of rules.entries()) {
    if (!m.id.startsWith(prefix)) throw badRule(`rules[${i}].id: "${m.id}" does not start with "${prefix}"`);
    if (seen.has(m.id)) throw badRule(`rules[${i}].id: "${m.id}" is given twice`);
    seen.add(m.id);
    if (!(m.window_ms >= 1000) || !(m.cooldown_ms >= 0)) throw badRule(`rules[${i}]: window_ms is at least 1000 and cooldown_ms at least 0`);
    const problem = ruleProblem(toRule(m, 0), sources);
    if (problem) throw badRule(`rules[${i}].${problem}`);
  }
}

type ManagedPart = Pick<AlertsService, 'managedRules' | 'replaceManagedRules' | 'ensureManagedRules' | 'eventsBySource' | 'alerting'>;

/** The part of the `alerts` service through which a plugin manages its own rules and reads their events and the state. */
export function managedRulesService(deps: {
  rules: RuleStore; engine(): AlertEngine; sources: SourceRegistry; control: { get(): Promise<{ state: 'on' | 'stopped' | 'snoozed'; until: number | null }> };
  channels(): ChannelsService | undefined; now(): number;
}): ManagedPart {
  const { rules, sources } = deps;
  return {
    async managedRules(prefix): Promise<ManagedAlertRuleView[]> {
      const [list, states] = await Promise.all([rules.managed(prefix), deps.engine().states.all()]);
      return list.map((r) => {
        const s = states.get(r.id);
        return {
          id: r.id, name: r.name, enabled: r.enabled, source: r.source, scope: r.scope, condition: r.condition as ManagedAlertRule['condition'],
          window_ms: r.window_ms, cooldown_ms: r.cooldown_ms, severity: r.severity, channels: r.channels,
          state: { status: s?.status ?? 'ok', last_value: s?.last.value ?? null, last_note: s?.last.note ?? null, last_error: s?.last.error ?? null, evaluated_at: s?.last.at ?? null },
        };
      });
    },
    async replaceManagedRules(prefix, list) {
      checked(prefix, list, sources);
      const now = deps.now();
      const gone = await rules.replaceManaged(prefix, list.map((m) => toRule(m, now)));
      for (const id of gone) await deps.engine().states.deleteRule(id);
    },
    async ensureManagedRules(list) {
      checked('', list, sources);
      const now = deps.now();
      await rules.ensureManaged(list.map((m) => toRule(m, now)));
    },
    async eventsBySource(q) {
      const list = await deps.engine().events.list({
        source_prefix: q.sourcePrefix, limit: Math.min(200, Math.max(1, q.limit)), offset: 0,
        ...(q.since !== undefined ? { since: q.since } : {}), ...(q.until !== undefined ? { until: q.until } : {}), ...(q.status ? { status: q.status } : {}),
      });
      return eventViews(list, deps.channels());
    },
    async alerting() {
      const s = await deps.control.get();
      return { state: s.state, until: s.until };
    },
  };
}
