// What the billing page and the projects list compute from the billing and project answers: months to move between,
// the words for a limit's state, and a month's totals. Pure functions.
import type { BillingLimitUsage, BillingMonth, EffectiveProjectSettings, ProjectBill } from '../../data/api.gen.js';

export type { BillingLimitUsage, BillingMonth, ProjectBill };
export type LimitState = ProjectBill['state'];

/** The share of a limit from which a project is near it: the server's `near_ratio` (plugins/llm/billing). */
export const NEAR_RATIO = 0.8;

const MONTH = /^(\d{4})-(0[1-9]|1[0-2])$/;

/** The UTC month of an epoch ms, `2026-03`. */
export const monthOf = (ms: number): string => new Date(ms).toISOString().slice(0, 7);

/** `month` moved by `delta` months; an invalid month reads as the current one. */
export function shiftMonth(month: string, delta: number, now = Date.now()): string {
  const m = MONTH.exec(month);
  if (!m) return monthOf(now);
  return monthOf(Date.UTC(Number(m[1]), Number(m[2]) - 1 + delta, 1));
}

/** `2026-03` → `March 2026`. */
export function monthLabel(month: string): string {
  const m = MONTH.exec(month);
  if (!m) return month;
  return new Date(Date.UTC(Number(m[1]), Number(m[2]) - 1, 1)).toLocaleDateString('en-US', { month: 'long', year: 'numeric', timeZone: 'UTC' });
}

/** A month from the address, or the current one. */
export const monthParam = (value: string | null, now = Date.now()): string => (value && MONTH.test(value) ? value : monthOf(now));

export const STATE_TEXT: Record<LimitState, string> = { none: 'no limits', ok: 'within limits', near: 'near a limit', over: 'at or over a limit' };
export const STATE_TONE: Record<LimitState, 'neutral' | 'success' | 'warning' | 'danger'> = { none: 'neutral', ok: 'success', near: 'warning', over: 'danger' };

/** The state of a used amount against a limit, as the server judges it. */
export function stateOf(used: number, limit: number | null): LimitState {
  if (limit === null) return 'none';
  const ratio = limit === 0 ? (used > 0 ? 1 : 0) : used / limit;
  return ratio >= 1 ? 'over' : ratio >= NEAR_RATIO ? 'near' : 'ok';
}

/** A project's state this month from the projects list (its settings in force and the month's counted usage). */
export function projectState(effective: EffectiveProjectSettings, usage: { items: number; cost_usd: number }): LimitState {
  const states = [stateOf(usage.items, effective.itemsPerMonth), stateOf(usage.cost_usd, effective.monthlyBudgetUsd)];
  return states.includes('over') ? 'over' : states.includes('near') ? 'near' : states.includes('ok') ? 'ok' : 'none';
}

export interface BillTotals { items: number; input_tokens: number; output_tokens: number; cost_usd: number; eval_cost_usd: number; total_cost_usd: number }

export function totalsOf(bills: readonly ProjectBill[]): BillTotals {
  const t: BillTotals = { items: 0, input_tokens: 0, output_tokens: 0, cost_usd: 0, eval_cost_usd: 0, total_cost_usd: 0 };
  for (const b of bills) {
    t.items += b.items;
    t.input_tokens += b.input_tokens;
    t.output_tokens += b.output_tokens;
    t.cost_usd += b.cost_usd;
    t.eval_cost_usd += b.eval_cost_usd;
    t.total_cost_usd += b.total_cost_usd;
  }
  return t;
}

/** The limit of one name, if the bill has it. */
export const limitOf = (bill: ProjectBill, name: BillingLimitUsage['name']): BillingLimitUsage | undefined => bill.limits.find((l) => l.name === name);
