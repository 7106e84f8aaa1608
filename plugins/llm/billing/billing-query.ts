import type { Store } from '@vigil/plugin-sdk';
import type { EvalScores } from '../eval-scores.js';
import type { ProjectDirectory } from '../project-directory.js';
import type { LlmProject } from '../types.js';
import { DAY_MS } from './usage-rollup.js';

/** Share of a limit at which a project is shown as near it (and an alert rule's usual threshold). */
export const NEAR_LIMIT = 0.8;

/** Projects one billing read covers: the page size of the JSON, and of each read of the CSV. */
export const BILLING_PAGE_MAX = 200;

export type LimitState = 'none' | 'ok' | 'near' | 'over';

export interface LimitUsage {
  /** `items_per_month` (items ingest counted this month, against the plan's limit) or `monthly_usd` (spend against the cap). */
  name: 'items_per_month' | 'monthly_usd';
  used: number;
  limit: number | null;
  /** used / limit; null without a limit. */
  ratio: number | null;
  state: LimitState;
}

export interface ProjectBill {
  project: string;
  plan: string | null;
  /** Stored traces whose time (created_at) is in the month: what the traces list and stats count. */
  items: number;
  errors: number;
  input_tokens: number;
  output_tokens: number;
  /** USD of the application's calls (the stored traces' cost_usd). */
  cost_usd: number;
  /** USD the evals (judges, embeddings) spent on the month's traces, from the evaluators plugin; 0 when it is off. */
  eval_cost_usd: number;
  total_cost_usd: number;
  /** What ingest counted in the month the calls arrived (`llm_usage`): what limits and the budget are held to. */
  counted: { items: number; cost_usd: number; sampled_out: number };
  limits: LimitUsage[];
  /** The worst state of `limits`. */
  state: LimitState;
  /** The plan's other limits in force (the project's current settings, for any month). */
  plan_limits: { items_per_month: number | null; monthly_usd: number | null; items_per_batch: number; body_bytes: number; retention_ms: number };
}

export interface BillingMonth {
  /** `2026-03`. */
  month: string;
  /** Epoch ms, [from, to). */
  from: number;
  to: number;
}

/** The UTC month `2026-03` as epoch-ms bounds. */
export function billingMonth(month: string): BillingMonth {
  const [y, m] = month.split('-').map(Number);
  return { month, from: Date.UTC(y, m - 1, 1), to: Date.UTC(y, m, 1) };
}

const round = (usd: number): number => Math.round(usd * 1e9) / 1e9;

export function limitUsage(name: LimitUsage['name'], used: number, limit: number | null): LimitUsage {
  if (limit === null) return { name, used, limit, ratio: null, state: 'none' };
  const ratio = limit === 0 ? (used > 0 ? Infinity : 0) : used / limit;
  const state: LimitState = ratio >= 1 ? 'over' : ratio >= NEAR_LIMIT ? 'near' : 'ok';
  return { name, used, limit, ratio: Number.isFinite(ratio) ? ratio : 1, state };
}

const ORDER: LimitState[] = ['none', 'ok', 'near', 'over'];
export const worst = (states: readonly LimitState[]): LimitState =>
  states.reduce<LimitState>((w, s) => (ORDER.indexOf(s) > ORDER.indexOf(w) ? s : w), 'none');

/** The limits a project's month is held to, from what ingest counted (`llm_usage`, the arrival month). */
export function projectLimits(project: Pick<LlmProject, 'settings'>, counted: { items: number; cost_usd: number }): LimitUsage[] {
  return [
    limitUsage('items_per_month', counted.items, project.settings.itemsPerMonth),
    limitUsage('monthly_usd', round(counted.cost_usd), project.settings.monthlyBudgetUsd),
  ];
}

type RollupSums = { project_id: string; items: number | string; errors: number | string; input_tokens: number | string; output_tokens: number | string; cost_usd: number | string };

/**
 * The bills of a page of projects (by name) for one month. Bounded: one read of the page's projects, one grouped
 * read of the daily rollup (at most 31 days × 8 arrival days of rows per project, by the (day, project) index), one
 * read of `llm_usage` (one row per project), and one grouped read of the evals' cost (the evaluators' SUM over the
 * month's eval results of the page's projects, by their (project, trace time) index). Never a read of the traces.
 */
export async function readBills(store: Store, projects: ProjectDirectory, scores: EvalScores, m: BillingMonth,
  page: { limit: number; offset: number }): Promise<ProjectBill[]> {
  const rows = await projects.store.page(Math.min(page.limit, BILLING_PAGE_MAX), page.offset);
  if (!rows.length) return [];
  const ids = rows.map((r) => r.id);
  const marks = ids.map(() => '?').join(', ');
  const sums = await store.query<RollupSums>(
    `SELECT project_id, SUM(items) AS items, SUM(errors) AS errors, SUM(input_tokens) AS input_tokens, SUM(output_tokens) AS output_tokens,
       SUM(cost_usd) AS cost_usd FROM ${store.table('usage_daily')}
     WHERE day >= ? AND day < ? AND project_id IN (${marks}) GROUP BY project_id`,
    [Math.floor(m.from / DAY_MS), Math.floor(m.to / DAY_MS), ...ids]);
  const counted = await store.query<{ project_id: string; items: number | string; cost_usd: number | string; sampled_out: number | string }>(
    `SELECT project_id, items, cost_usd, sampled_out FROM ${store.table('usage')} WHERE month = ? AND project_id IN (${marks})`, [m.month, ...ids]);
  const sumOf = new Map(sums.map((s) => [s.project_id, s]));
  const countedOf = new Map(counted.map((c) => [c.project_id, c]));
  const evalCosts = await scores.costByProject(ids, m.from, m.to);
  return rows.map((row) => {
    const project = projects.toProject(row);
    const s = sumOf.get(row.id);
    const c = countedOf.get(row.id);
    const cost = round(Number(s?.cost_usd ?? 0));
    const evalCost = round(evalCosts.get(row.id) ?? 0);
    const month = { items: Number(c?.items ?? 0), cost_usd: round(Number(c?.cost_usd ?? 0)), sampled_out: Number(c?.sampled_out ?? 0) };
    const limits = projectLimits(project, month);
    const st = project.settings;
    return {
      project: row.name, plan: st.plan,
      items: Number(s?.items ?? 0), errors: Number(s?.errors ?? 0),
      input_tokens: Number(s?.input_tokens ?? 0), output_tokens: Number(s?.output_tokens ?? 0),
      cost_usd: cost, eval_cost_usd: evalCost, total_cost_usd: round(cost + evalCost),
      counted: month, limits, state: worst(limits.map((l) => l.state)),
      plan_limits: { items_per_month: st.itemsPerMonth, monthly_usd: st.monthlyBudgetUsd, items_per_batch: st.itemsPerBatch, body_bytes: st.bodyBytes, retention_ms: st.retentionMs },
    };
  });
}
