import { ALERT_SCOPE_KEYS, type AlertReading, type AlertSource, type AlertSourceInfo } from '@vigil/plugin-sdk';
import { windowsNeeded } from './conditions.js';
import type { AlertRule, RuleInput } from './types.js';

const SOURCE_ID = /^[a-z][a-z0-9_]*(\.[a-z0-9_]+)+$/;
/** The most windows one read asks for (a preview of 24 h of 1-minute windows, with an anomaly baseline). */
export const MAX_SERIES = 1_500;

/** The registered sources, by id. Built-in ones are registered through the same `registerSource` as a third party's. */
export class SourceRegistry {
  private readonly byId = new Map<string, { source: AlertSource; plugin: string }>();

  register(source: AlertSource, plugin: string): () => void {
    if (typeof source?.id !== 'string' || !SOURCE_ID.test(source.id)) {
      throw new TypeError(`alerts: a source id is <area>.<metric> in lower case (host.cpu_pct), got ${JSON.stringify(source?.id)}`);
    }
    if (typeof source.read !== 'function') throw new TypeError(`alerts: source ${source.id} has no read(window, scope)`);
    const unknown = [...source.scopes, ...(source.requiredScopes ?? [])].filter((k) => !ALERT_SCOPE_KEYS.includes(k));
    if (unknown.length) throw new TypeError(`alerts: source ${source.id} names unknown scope keys: ${unknown.join(', ')}`);
    if (this.byId.has(source.id)) throw new TypeError(`alerts: source ${source.id} is registered already (by ${this.byId.get(source.id)!.plugin})`);
    const entry = { source, plugin };
    this.byId.set(source.id, entry);
    return () => { if (this.byId.get(source.id) === entry) this.byId.delete(source.id); };
  }

  get(id: string): AlertSource | undefined {
    return this.byId.get(id)?.source;
  }

  list(): AlertSourceInfo[] {
    return [...this.byId.values()].map(({ source, plugin }) => ({
      id: source.id, summary: source.summary, unit: source.unit, scopes: [...source.scopes], required_scopes: [...(source.requiredScopes ?? [])],
      budget: typeof source.budget === 'function', plugin,
    })).sort((a, b) => a.id.localeCompare(b.id));
  }

  /** Why `rule` cannot be evaluated, as `key: problem`; undefined when it can. */
  problem(rule: RuleInput | AlertRule): string | undefined {
    const source = this.get(rule.source);
    if (!source) return `source: no source "${rule.source}" is registered (${this.list().map((s) => s.id).join(', ') || 'none is'})`;
    const scope = rule.scope ?? {};
    for (const key of Object.keys(scope)) {
      if (!source.scopes.includes(key as never)) return `scope.${key}: ${source.id} is scoped by ${source.scopes.join(', ') || 'nothing'}`;
    }
    for (const key of source.requiredScopes ?? []) {
      if (scope[key] === undefined) return `scope.${key}: ${source.id} needs it`;
    }
    if (rule.condition.type === 'budget' && !source.budget) return `condition: ${source.id} has no budget; budget rules use llm.cost_usd`;
    return undefined;
  }

  /** `count` consecutive windows of `stepMs` ending at `to`, oldest first: one read when the source can, else one per window. */
  async readings(source: AlertSource, scope: AlertRule['scope'], to: number, stepMs: number, count: number): Promise<AlertReading[]> {
    if (count > MAX_SERIES) throw new RangeError(`at most ${MAX_SERIES} windows are read at once, not ${count}`);
    if (count === 1) return [await source.read({ from: to - stepMs, to }, scope)];
    if (source.series) {
      const series = await source.series({ to, stepMs, count }, scope);
      if (series.length !== count) throw new Error(`source ${source.id} answered ${series.length} windows for ${count}`);
      return series;
    }
    return Promise.all(Array.from({ length: count }, (_, i) => source.read({ from: to - (count - i) * stepMs, to: to - (count - i - 1) * stepMs }, scope)));
  }

  /** The readings a rule's condition needs at `to`. */
  readingsFor(rule: AlertRule, to: number): Promise<AlertReading[]> {
    const source = this.get(rule.source);
    if (!source) return Promise.reject(new Error(`no source "${rule.source}" is registered`));
    return this.readings(source, rule.scope, to, rule.window_ms, Math.max(1, windowsNeeded(rule.condition)));
  }
}
