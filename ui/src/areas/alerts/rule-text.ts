// Rules in words, for the lists and the editor: conditions, durations, scopes.
import type { Condition, Scope } from './alerts-api.js';

const UNITS: [string, number][] = [['d', 86_400_000], ['h', 3_600_000], ['m', 60_000], ['s', 1000]];

/** Milliseconds as the config writes them: `5m`, `90s`, `1h`; the largest whole unit. */
export function formatDuration(ms: number): string {
  for (const [unit, size] of UNITS) if (ms >= size && ms % size === 0) return `${ms / size}${unit}`;
  return `${ms}ms`;
}

/** A duration typed in the editor, as the API takes it; undefined when it is not one. */
export function parseDuration(text: string): string | undefined {
  const t = text.trim();
  return /^\d+(ms|s|m|h|d)$/.test(t) ? t : undefined;
}

/** `value < 0.7`, `up 50 % on the window before`, `|z| ≥ 3`. */
export function conditionText(c: Condition): string {
  switch (c.type) {
    case 'gt': return `above ${c.threshold}`;
    case 'lt': return `below ${c.threshold}`;
    case 'gte': return `at or above ${c.threshold}`;
    case 'lte': return `at or below ${c.threshold}`;
    case 'pct_change': return `${c.direction ?? 'either'} ${c.pct} % against the window before`;
    case 'anomaly': return `anomaly, |z| ≥ ${c.z ?? 3}`;
    case 'budget': return `${c.pct ?? 100} % of the monthly budget`;
    case 'prompt_version_change': return 'a new prompt version';
  }
}

/** `project=shop, template=support-answer`, or `everything`. */
export function scopeText(scope: Scope): string {
  const parts = Object.entries(scope).map(([k, v]) => `${k}=${v}`);
  return parts.length ? parts.join(', ') : 'everything';
}
