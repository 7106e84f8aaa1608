// The rule editor's fields as text (what the inputs hold) and the API's rule from them, with the first problem.
import type { AlertRule, AlertSource, ConditionType, RuleInput, Severity } from './alerts-api.js';
import { formatDuration, parseDuration } from './rule-text.js';

export interface RuleFields {
  name: string;
  source: string;
  scope: Record<string, string>;
  type: ConditionType;
  threshold: string;
  direction: 'up' | 'down' | 'either';
  pct: string;
  z: string;
  window: string;
  cooldown: string;
  min_samples: string;
  /** Every enabled channel, or the ones ticked. */
  allChannels: boolean;
  channels: string[];
  notify_resolved: boolean;
  severity: Severity;
  enabled: boolean;
}

export const CONDITIONS: { value: ConditionType; label: string }[] = [
  { value: 'gt', label: 'Above a threshold' },
  { value: 'lt', label: 'Below a threshold' },
  { value: 'pct_change', label: 'Changed by a percentage' },
  { value: 'anomaly', label: 'Anomaly (z-score over 24 windows)' },
  { value: 'budget', label: 'Share of the monthly budget' },
  { value: 'prompt_version_change', label: 'A new prompt version' },
];

/** A new rule's fields: the example a first rule most often is. */
export function newRuleFields(sources: readonly AlertSource[]): RuleFields {
  // An error rate that needs no scope can be previewed at once.
  const open = sources.filter((s) => s.required_scopes.length === 0);
  const source = ['gateway.error_rate', 'llm.error_rate'].map((id) => open.find((s) => s.id === id)).find(Boolean) ?? open[0] ?? sources[0];
  return {
    name: '', source: source?.id ?? '', scope: {}, type: 'gt', threshold: '0.05', direction: 'up', pct: '50', z: '3',
    window: '5m', cooldown: '15m', min_samples: '10', allChannels: true, channels: [], notify_resolved: true, severity: 'warning', enabled: true,
  };
}

export function ruleFields(rule: AlertRule): RuleFields {
  const c = rule.condition;
  return {
    name: rule.name, source: rule.source, scope: Object.fromEntries(Object.entries(rule.scope).map(([k, v]) => [k, String(v)])),
    type: c.type, threshold: String(c.threshold ?? ''), direction: c.direction ?? 'either', pct: String(c.pct ?? (c.type === 'budget' ? 100 : 50)), z: String(c.z ?? 3),
    window: formatDuration(rule.window_ms), cooldown: formatDuration(rule.cooldown_ms), min_samples: String(rule.min_samples),
    allChannels: rule.channels === 'all', channels: rule.channels === 'all' ? [] : rule.channels, notify_resolved: rule.notify_resolved,
    severity: rule.severity, enabled: rule.enabled,
  };
}

const number = (text: string): number | undefined => (text.trim() !== '' && Number.isFinite(Number(text)) ? Number(text) : undefined);

/** The rule the fields describe, or the first field that is wrong (its key, and what to write). */
export function ruleInput(f: RuleFields, source: AlertSource | undefined): { input: RuleInput } | { field: string; problem: string } {
  if (!f.name.trim()) return { field: 'name', problem: 'Give the rule a name: it is the title of each notification.' };
  if (!source) return { field: 'source', problem: 'Choose what the rule watches.' };
  const scope: Record<string, string | number> = {};
  for (const key of source.scopes) {
    const v = (f.scope[key] ?? '').trim();
    if (!v) {
      if (source.required_scopes.includes(key)) return { field: `scope.${key}`, problem: `This source needs a ${key}.` };
      continue;
    }
    if (key === 'version') {
      if (!/^[1-9]\d*$/.test(v)) return { field: 'scope.version', problem: 'A version is a whole number from 1.' };
      scope.version = Number(v);
    } else if (key === 'label' && !v.includes('=')) return { field: 'scope.label', problem: 'A label is name=value, e.g. tenant=acme.' };
    else scope[key] = v;
  }
  const condition: RuleInput['condition'] = { type: f.type };
  if (f.type === 'gt' || f.type === 'lt') {
    const t = number(f.threshold);
    if (t === undefined) return { field: 'threshold', problem: 'The threshold is a number, e.g. 0.05 for 5 %.' };
    condition.threshold = t;
  } else if (f.type === 'pct_change' || f.type === 'budget') {
    const p = number(f.pct);
    if (p === undefined || p <= 0) return { field: 'pct', problem: 'A percentage above 0, e.g. 50.' };
    condition.pct = p;
    if (f.type === 'pct_change') condition.direction = f.direction;
  } else if (f.type === 'anomaly') {
    const z = number(f.z);
    if (z === undefined || z <= 0) return { field: 'z', problem: 'A z-score above 0; 3 is usual.' };
    condition.z = z;
  }
  const window = parseDuration(f.window);
  if (!window) return { field: 'window', problem: 'A duration such as 5m, 1h or 90s.' };
  const cooldown = parseDuration(f.cooldown);
  if (!cooldown) return { field: 'cooldown', problem: 'A duration such as 15m or 1h.' };
  if (!/^\d+$/.test(f.min_samples.trim())) return { field: 'min_samples', problem: 'A whole number, 0 or more.' };
  if (!f.allChannels && f.channels.length === 0) return { field: 'channels', problem: 'Tick at least one channel, or choose every channel.' };
  return {
    input: {
      name: f.name.trim(), enabled: f.enabled, source: source.id, scope, condition, window, cooldown, min_samples: Number(f.min_samples),
      channels: f.allChannels ? 'all' : f.channels, notify_resolved: f.notify_resolved, severity: f.severity,
    },
  };
}

/** The example shown where there is no rule yet: YAML that `vigil validate` accepts under `alerts:`. */
export const EXAMPLE_RULE = `alerts:
  rules:
    - id: llm-errors
      name: LLM calls failing
      source: llm.error_rate
      condition: { type: gt, threshold: 0.05 }
      window: 5m
      min_samples: 10
      cooldown: 15m
      channels: all
      severity: warning`;
