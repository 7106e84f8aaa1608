import type { Logger, PromptVersionChange, Store } from '@vigil/plugin-sdk';
import type { AlertingStateStore } from './alerting-state.js';
import { judge, judgeBudget, type Verdict } from './conditions.js';
import { EventStore } from './event-store.js';
import type { RuleStore } from './rule-store.js';
import { step, type RuleAction } from './rule-state.js';
import { RuleStateStore } from './rule-state-store.js';
import type { SourceRegistry } from './source-registry.js';
import type { AlertRule } from './types.js';
import { describeWindow } from './wording.js';

/** What a notification is about: the firing, its resolution, the start of flapping, or a settled rule still firing. */
export type NoticeKind = 'firing' | 'resolved' | 'flapping' | 'settled';

/** Hands notifications to the channels, durably (a queued job per notice). */
export interface Notifier {
  notify(kind: NoticeKind, eventId: string): Promise<void>;
}

export interface EngineOptions {
  store: Store;
  rules: RuleStore;
  control: AlertingStateStore;
  sources: SourceRegistry;
  notifier: Notifier;
  intervalMs: number;
  flappingTransitions: number;
  log: Logger;
  now?: () => number;
  /** Rules evaluated at once: reads overlap, and one slow source does not hold the others. */
  concurrency?: number;
}

export interface TickReport {
  tick: number;
  /** False when alerting was stopped or snoozed: nothing was evaluated. */
  on: boolean;
  evaluated: number;
  fired: number;
  resolved: number;
  errors: number;
}

/**
 * The rule engine: each tick (every `intervalMs`, one process at a time through the lease scheduler) claims every
 * enabled rule for the tick, reads its windows ending at the tick's start, judges them, and moves the rule's state,
 * writing events and queuing notices. Windows end on tick boundaries, so every process reads the same windows.
 */
export class AlertEngine {
  readonly events: EventStore;
  readonly states: RuleStateStore;
  private readonly now: () => number;

  constructor(private readonly o: EngineOptions) {
    this.events = new EventStore(o.store);
    this.states = new RuleStateStore(o.store);
    this.now = o.now ?? Date.now;
  }

  /** The tick that `at` falls in, and the end of the windows it reads. */
  tickOf(at: number): { tick: number; to: number } {
    const tick = Math.floor(at / this.o.intervalMs);
    return { tick, to: tick * this.o.intervalMs };
  }

  async tick(): Promise<TickReport> {
    const { tick, to } = this.tickOf(this.now());
    const report: TickReport = { tick, on: false, evaluated: 0, fired: 0, resolved: 0, errors: 0 };
    // While stopped or snoozed nothing is judged: no event is written and no cooldown is spent.
    if (!(await this.o.control.isOn())) return report;
    report.on = true;
    const rules = (await this.o.rules.list()).filter((r) => r.enabled && r.condition.type !== 'prompt_version_change');
    const claimed = await this.states.claim(rules.map((r) => r.id), tick);
    const queue = rules.filter((r) => claimed.has(r.id));
    const work = async () => {
      for (let rule = queue.shift(); rule; rule = queue.shift()) {
        const outcome = await this.evaluate(rule, tick, to);
        report.evaluated++;
        if (outcome === 'error') report.errors++;
        else for (const a of outcome) {
          if (a.kind === 'fire') report.fired++;
          if (a.kind === 'resolve') report.resolved++;
        }
      }
    };
    await Promise.all(Array.from({ length: Math.max(1, this.o.concurrency ?? 8) }, work));
    return report;
  }

  /** The verdict of `rule` at `to`, without any effect: what a tick would judge (the preview uses it). */
  async verdict(rule: AlertRule, to: number): Promise<Verdict> {
    if (rule.condition.type === 'budget') {
      const source = this.o.sources.get(rule.source);
      if (!source?.budget) throw new Error(`source ${rule.source} has no budget`);
      return judgeBudget(rule.condition, await source.budget(rule.scope, to));
    }
    return judge(rule.condition, await this.o.sources.readingsFor(rule, to), rule.min_samples);
  }

  private async evaluate(rule: AlertRule, tick: number, to: number): Promise<RuleAction[] | 'error'> {
    const state = await this.states.get(rule.id);
    let verdict: Verdict;
    try {
      verdict = await this.verdict(rule, to);
    } catch (err) {
      const error = (err as Error).message;
      this.o.log.warn('an alert rule could not be evaluated', { rule: rule.id, error });
      await this.states.save(rule.id, state, { ...state.last, error, at: to });
      return 'error';
    }
    const firing = state.event_id ? await this.events.get(state.event_id) : undefined;
    const { next, actions } = step(state, verdict, {
      now: to, cooldownMs: rule.cooldown_ms, flappingTransitions: this.o.flappingTransitions, notifyResolved: rule.notify_resolved,
      firingWasNotified: firing !== undefined && firing.suppressed === null,
    });
    // Alerting stopped while this tick was reading (a slow source): the firing is not written and spends no cooldown;
    // the rule fires at the first tick after alerting resumes.
    if (actions.some((a) => a.kind === 'fire') && !(await this.o.control.isOn())) return [];
    const eventId = `${rule.id}:${tick}`;
    const notices: [NoticeKind, string][] = [];
    await this.o.store.transaction(async (tx) => {
      for (const action of actions) {
        if (action.kind === 'fire') {
          await this.events.insert(rule, {
            id: eventId, value: verdict.value, threshold: verdict.threshold, samples: verdict.samples, fired_at: to,
            summary: `${rule.name}: ${verdict.note} over ${describeWindow(rule.window_ms)}`, suppressed: action.suppressed,
          }, tx);
          next.event_id = eventId;
          if (action.suppressed === null) notices.push(['firing', eventId]);
        } else if (action.kind === 'resolve' && state.event_id) {
          await this.events.resolve(state.event_id, to, tx);
          if (action.notify) notices.push(['resolved', state.event_id]);
        } else if (action.kind === 'flapping') {
          notices.push(['flapping', next.event_id ?? eventId]);
        } else if (action.kind === 'settled' && next.event_id) {
          notices.push(['settled', next.event_id]);
        }
      }
      await this.states.save(rule.id, next, { value: verdict.value, samples: verdict.samples, note: verdict.note, error: null, at: to }, tx);
    });
    for (const [kind, id] of notices) await this.o.notifier.notify(kind, id);
    return actions;
  }

  /**
   * A new prompt version: fires every enabled `prompt_version_change` rule whose scope takes it, at once. The event id
   * names the version, so the inline firing and the catch-up (and every process) make one event per rule and version.
   * Returns how many events were made.
   */
  async promptVersion(change: PromptVersionChange): Promise<number> {
    if (!(await this.o.control.isOn())) return 0;
    const rules = (await this.o.rules.list()).filter((r) => r.enabled && r.condition.type === 'prompt_version_change'
      && (r.scope.project === undefined || r.scope.project === change.project)
      && (r.scope.template === undefined || r.scope.template === change.template));
    let made = 0;
    for (const rule of rules) {
      const id = `${rule.id}:v:${change.project_id}:${change.template}:${change.version}`;
      const from = change.previous_version === null ? 'its first version' : `version ${change.previous_version} → ${change.version}`;
      const inserted = await this.events.insert(rule, {
        id, value: change.version, threshold: null, samples: 1, fired_at: change.created_at, resolved_at: change.created_at, status: 'resolved',
        summary: `${rule.name}: template "${change.template}" of ${change.project} has a new prompt version (${from})`, suppressed: null,
      });
      if (!inserted) continue;
      made++;
      await this.o.notifier.notify('firing', id);
    }
    return made;
  }
}
