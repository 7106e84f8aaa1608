import { httpError, type EvalScoreSummary, type SqlValue, type Store } from '@vigil/plugin-sdk';
import { LlmErrors } from '../errors.js';
import type { EvalScores } from '../eval-scores.js';
import { groupSummary, isoOf, listGroups, rangeOf, type GroupRow } from './trace-groups.js';

/** Users one page lists at most: each brings up to SCORED_TRACES trace ids to the eval score read. */
export const MAX_USERS = 50;
/** A user's eval score is over their latest this many traces in the range: 50 × 100 ids bound the read. */
export const SCORED_TRACES = 100;

export const USERS_DESCRIPTION = `A page holds at most ${MAX_USERS} users. \`eval\` is the eval score summary of each user's latest `
  + `${SCORED_TRACES} traces in the range (\`eval.traces\` says how many were read); eval scores come from the evaluators plugin `
  + 'and are null when it is off or has scored none of them.';

/** A user's eval figures, as a list shows them. */
const evalView = (s: EvalScoreSummary, traces: number) => ({ avg_score: s.avg_score, samples: s.samples, failed: s.failed, traces });

export function userView(r: GroupRow, evals: EvalScoreSummary, scored: number) {
  return {
    user_id: r.key, first_seen: isoOf(r.first_at), last_seen: isoOf(r.last_at), requests: r.traces, sessions: Number(r.other ?? 0),
    errors: r.errors, cost_usd: r.cost_usd, total_tokens: r.total_tokens, avg_latency_ms: r.avg_latency_ms, eval: evalView(evals, scored),
  };
}

/** The latest SCORED_TRACES trace ids of each user in the range, in one read (a window per user). */
async function latestTraceIds(store: Store, projectId: string, users: readonly string[], range: { from: number; to: number }): Promise<Map<string, string[]>> {
  const out = new Map<string, string[]>(users.map((u) => [u, []]));
  if (!users.length) return out;
  const params: SqlValue[] = [projectId, range.from, range.to, ...users, SCORED_TRACES];
  const rows = await store.query<{ user_id: string; id: string }>(
    `SELECT user_id, id FROM (SELECT user_id, id, ROW_NUMBER() OVER (PARTITION BY user_id ORDER BY created_at DESC, id DESC) AS n
       FROM ${store.table('traces')} WHERE project_id = ? AND created_at >= ? AND created_at < ? AND user_id IN (${users.map(() => '?').join(', ')})) ranked
     WHERE n <= ?`, params);
  for (const r of rows) out.get(r.user_id)?.push(r.id);
  return out;
}

/** A page of the project's users in the range (a validated `groupListQuery`), with their eval scores. */
export async function listUsers(store: Store, scores: EvalScores, projectId: string, query: Record<string, unknown>) {
  const page = await listGroups(store, projectId, 'user_id', { ...query, limit: Math.min(Number(query.limit ?? MAX_USERS), MAX_USERS) });
  const ids = await latestTraceIds(store, projectId, page.rows.map((r) => r.key), page);
  const evals = await scores.summaryByTraces(projectId, ids);
  return {
    data: page.rows.map((r) => userView(r, evals.get(r.key)!, ids.get(r.key)!.length)),
    total: page.total, limit: page.limit, offset: page.offset, from: isoOf(page.from), to: isoOf(page.to),
  };
}

/** One user's figures in the range, with their eval scores by definition; 404 without traces in it. */
export async function userDetail(store: Store, scores: EvalScores, projectId: string, userId: string, query: Record<string, unknown>) {
  const range = rangeOf(query);
  const row = await groupSummary(store, projectId, 'user_id', userId, range);
  if (!row) {
    throw httpError(LlmErrors.USER_NOT_FOUND, `the project has no stored trace with user_id ${JSON.stringify(userId)} between ${isoOf(range.from)} and ${isoOf(range.to)}`);
  }
  const ids = await latestTraceIds(store, projectId, [userId], range);
  const evals = (await scores.summaryByTraces(projectId, ids)).get(userId)!;
  return {
    user: userView(row, evals, ids.get(userId)!.length),
    eval_by_definition: evals.by_definition.map((d) => ({ eval_definition_id: d.eval_definition_id, name: d.name, method: d.method, avg_score: d.avg_score, samples: d.samples, failed: d.failed })),
    from: isoOf(range.from), to: isoOf(range.to),
  };
}
