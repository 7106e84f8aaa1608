import type { ManagedAlertRule, ManagedAlertRuleView } from '@vigil/plugin-sdk';

export const BUILTIN_KEYS = ['cpu', 'mem', 'temp', 'disk', 'battery'] as const;
export type BuiltinKey = (typeof BUILTIN_KEYS)[number];

/** Every host rule's id starts with it; the built-ins are `host.builtin.<key>`. */
export const BUILTIN_PREFIX = 'host.builtin.';
/** perch's cooldown of every rule key: 600 s. */
export const DEFAULT_COOLDOWN_MS = 600_000;

interface BuiltinSpec {
  name: string;
  source: string;
  condition: 'gte' | 'lte';
  /** perch's default threshold. */
  th: number;
  min: number;
  max: number;
  unit: string;
  severity: ManagedAlertRule['severity'];
}

/** The five thresholds with perch's defaults. CPU's window is how long it must be sustained. */
export const BUILTINS: Record<BuiltinKey, BuiltinSpec> = {
  cpu: { name: 'CPU busy', source: 'host.cpu_pct', condition: 'gte', th: 90, min: 1, max: 100, unit: '%', severity: 'warning' },
  mem: { name: 'Memory used', source: 'host.mem_pct', condition: 'gte', th: 95, min: 1, max: 100, unit: '%', severity: 'warning' },
  temp: { name: 'Temperature', source: 'host.temp_c', condition: 'gte', th: 85, min: 20, max: 150, unit: '°C', severity: 'critical' },
  disk: { name: 'Disk full', source: 'host.disk_pct', condition: 'gte', th: 90, min: 1, max: 100, unit: '%', severity: 'warning' },
  battery: { name: 'Battery low', source: 'host.battery_pct', condition: 'lte', th: 15, min: 1, max: 99, unit: '%', severity: 'warning' },
};

/** One minute: one sample each; for CPU, "sustained 60 s". */
const WINDOW_MS = 60_000;

export interface BuiltinSetting {
  on: boolean;
  th: number;
  cooldown_ms: number;
}

export function builtinRule(key: BuiltinKey, s: BuiltinSetting): ManagedAlertRule {
  const spec = BUILTINS[key];
  return {
    id: `${BUILTIN_PREFIX}${key}`, name: spec.name, enabled: s.on, source: spec.source, scope: {},
    condition: { type: spec.condition, threshold: s.th }, window_ms: WINDOW_MS, cooldown_ms: s.cooldown_ms, severity: spec.severity,
  };
}

/** The defaults, for rules not stored yet. */
export const defaultBuiltins = (): ManagedAlertRule[] =>
  BUILTIN_KEYS.map((k) => builtinRule(k, { on: true, th: BUILTINS[k].th, cooldown_ms: DEFAULT_COOLDOWN_MS }));

/** perch's `monitor.json` shape `{cpu|mem|temp|disk|battery: {on, th, label}}`, with cooldown and the rule's state. */
export function builtinView(rules: readonly ManagedAlertRuleView[]) {
  const byId = new Map(rules.map((r) => [r.id, r]));
  return Object.fromEntries(BUILTIN_KEYS.map((k) => {
    const r = byId.get(`${BUILTIN_PREFIX}${k}`);
    const spec = BUILTINS[k];
    return [k, {
      on: r?.enabled ?? true, th: r?.condition.threshold ?? spec.th, label: spec.name, unit: spec.unit, cooldown_ms: r?.cooldown_ms ?? DEFAULT_COOLDOWN_MS,
      rule_id: `${BUILTIN_PREFIX}${k}`, status: r?.state.status ?? 'ok', last_value: r?.state.last_value ?? null, last_error: r?.state.last_error ?? null,
    }];
  })) as Record<BuiltinKey, { on: boolean; th: number; label: string; unit: string; cooldown_ms: number; rule_id: string; status: 'ok' | 'firing'; last_value: number | null; last_error: string | null }>;
}
