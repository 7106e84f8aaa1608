import type { Verdict } from './conditions.js';

/** Fire/resolve transitions are counted over this span for flapping. */
export const FLAPPING_SPAN_MS = 3_600_000;

/** What the engine keeps of one rule between ticks (one row per rule, shared by every process). */
export interface RuleState {
  status: 'ok' | 'firing';
  /** The firing event, while firing. */
  event_id: string | null;
  /** When a firing of this rule last reached the channels: the cooldown counts from it. Epoch ms. */
  last_notified_at: number | null;
  /** Epoch ms of the fire and resolve transitions within the last `FLAPPING_SPAN_MS`. */
  transitions: number[];
  flapping: boolean;
}

export const INITIAL_STATE: RuleState = { status: 'ok', event_id: null, last_notified_at: null, transitions: [], flapping: false };

/** What a tick does for one rule, besides storing the next state. */
export type RuleAction =
  /** A new event: notified, or recorded only (`suppressed`). */
  | { kind: 'fire'; suppressed: 'cooldown' | 'flapping' | null }
  /** The firing event resolves; `notify` when its firing reached the channels and the rule wants resolved notices. */
  | { kind: 'resolve'; notify: boolean }
  /** The rule just started flapping: one notice, then silence until it settles. */
  | { kind: 'flapping' }
  /** The rule settled (no transition for a whole span) while firing: one notice that it still fires. */
  | { kind: 'settled' };

export interface StepOptions {
  now: number;
  cooldownMs: number;
  /** More transitions than this within `FLAPPING_SPAN_MS` mark the rule flapping. */
  flappingTransitions: number;
  notifyResolved: boolean;
  /** Whether the firing event (when resolving) reached the channels. */
  firingWasNotified: boolean;
}

/**
 * The rule's next state after a verdict, and what to do about it. A verdict of null (too few samples, no baseline)
 * changes nothing. Cooldown: a firing within `cooldownMs` of the last notified one is recorded and not notified.
 * Flapping: when a transition makes more than `flappingTransitions` within the span, the rule is marked flapping and
 * notifies once; until it settles (a whole span without a transition) its events are recorded and not notified.
 */
export function step(state: RuleState, verdict: Pick<Verdict, 'breach'>, o: StepOptions): { next: RuleState; actions: RuleAction[] } {
  const recent = state.transitions.filter((t) => t > o.now - FLAPPING_SPAN_MS);
  const actions: RuleAction[] = [];
  let next: RuleState = { ...state, transitions: recent };
  if (next.flapping && recent.length === 0) {
    next.flapping = false;
    if (next.status === 'firing') actions.push({ kind: 'settled' });
  }
  const wantsFiring = verdict.breach === true;
  if (verdict.breach === null || wantsFiring === (state.status === 'firing')) return { next, actions };

  const transitions = [...recent, o.now];
  const startsFlapping = !next.flapping && transitions.length > o.flappingTransitions;
  next = { ...next, transitions, flapping: next.flapping || startsFlapping };
  if (startsFlapping) actions.push({ kind: 'flapping' });
  if (wantsFiring) {
    const inCooldown = state.last_notified_at !== null && o.now < state.last_notified_at + o.cooldownMs;
    const suppressed = next.flapping ? 'flapping' : inCooldown ? 'cooldown' : null;
    next.status = 'firing';
    if (suppressed === null) next.last_notified_at = o.now;
    actions.push({ kind: 'fire', suppressed });
  } else {
    next.status = 'ok';
    next.event_id = null;
    actions.push({ kind: 'resolve', notify: o.notifyResolved && o.firingWasNotified && !next.flapping });
  }
  return { next, actions };
}
