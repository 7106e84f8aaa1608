import type { EffectiveSettings } from '../types.js';
import type { MonthUsage, UsageDelta } from '../usage-book.js';

/** What a batch may do, decided from its project's month under the reservation's lock. */
export interface BatchPlan extends UsageDelta {
  /** Items granted, from the start of the batch; those after are over the month's item limit. */
  granted: number;
  /** For each granted item: kept, or dropped by budget sampling. */
  keep: boolean[];
}

/**
 * The plan of a batch of valid items with these costs (USD, in order): as many items as the month's limit leaves,
 * and of those, every item whose call starts past the budget (the month's spend before it, this batch's earlier
 * items included, is at the cap) kept only at the sample rate. Sampled-out items count as accepted, with their
 * cost: they happened, the project spent it.
 */
export function planBatch(month: MonthUsage, costs: readonly number[], settings: EffectiveSettings, random: () => number): BatchPlan {
  const limit = settings.itemsPerMonth;
  const granted = limit === null ? costs.length : Math.max(0, Math.min(costs.length, limit - month.items));
  const budget = settings.monthlyBudgetUsd;
  const keep: boolean[] = new Array(granted);
  let spent = month.cost_usd;
  let cost = 0;
  let sampledOut = 0;
  for (let i = 0; i < granted; i++) {
    const over = budget !== null && spent >= budget;
    keep[i] = !over || random() < settings.overBudgetSampleRate;
    if (!keep[i]) sampledOut++;
    spent += costs[i];
    cost += costs[i];
  }
  return { granted, keep, items: granted, cost_usd: cost, sampled_out: sampledOut };
}
