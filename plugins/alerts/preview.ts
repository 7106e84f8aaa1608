import { judge, windowsNeeded } from './conditions.js';
import type { AlertEngine } from './engine.js';
import { MAX_SERIES, type SourceRegistry } from './source-registry.js';
import type { AlertRule } from './types.js';

const DAY = 86_400_000;
/** Most points a preview judges: a day of one-minute windows. */
const MAX_POINTS = 1_440;

export interface PreviewPoint { at: string; value: number | null; samples: number; breach: boolean | null }

export interface Preview {
  /** Whether the rule would have fired in the last 24 h (or, for `budget`, now). */
  would_fire: boolean;
  /** Times (window ends) at which it would have started firing. */
  firings: string[];
  points: PreviewPoint[];
  note: string;
}

/**
 * "Would this have fired in the last 24 h?": the rule judged at the end of each of its windows over the last day,
 * from stored data, in one series read. Cooldown and flapping are left out: this shows the breaches.
 */
export async function previewRule(rule: AlertRule, sources: SourceRegistry, engine: AlertEngine, now: number): Promise<Preview> {
  const source = sources.get(rule.source);
  if (!source) throw new Error(`no source "${rule.source}" is registered`);
  if (rule.condition.type === 'budget') {
    const v = await engine.verdict(rule, now);
    return { would_fire: v.breach === true, firings: v.breach ? [new Date(now).toISOString()] : [], points: [{ at: new Date(now).toISOString(), value: v.value, samples: v.samples, breach: v.breach }], note: v.note };
  }
  const to = now;
  if (rule.condition.type === 'prompt_version_change') {
    const r = await source.read({ from: to - DAY, to }, rule.scope);
    return { would_fire: (r.value ?? 0) > 0, firings: [], points: [], note: `${r.value ?? 0} new prompt versions in the last 24 h` };
  }
  const points = Math.max(1, Math.min(MAX_POINTS, Math.floor(DAY / rule.window_ms)));
  const extra = Math.max(1, windowsNeeded(rule.condition)) - 1;
  const readings = await sources.readings(source, rule.scope, to, rule.window_ms, Math.min(MAX_SERIES, points + extra));
  const out: PreviewPoint[] = [];
  const firings: string[] = [];
  let previous = false;
  for (let i = readings.length - points; i < readings.length; i++) {
    const v = judge(rule.condition, readings.slice(Math.max(0, i - extra), i + 1), rule.min_samples);
    const at = new Date(to - (readings.length - 1 - i) * rule.window_ms).toISOString();
    out.push({ at, value: v.value, samples: v.samples, breach: v.breach });
    if (v.breach === true && !previous) firings.push(at);
    if (v.breach !== null) previous = v.breach;
  }
  const last = judge(rule.condition, readings.slice(-1 - extra), rule.min_samples);
  return { would_fire: firings.length > 0, firings, points: out, note: `now: ${last.note}` };
}
