import type { LlmProjectRef, LlmService } from '@vigil/plugin-sdk';
import type { EventStore } from '../event-store.js';

export const WEEK_MS = 7 * 86_400_000;
/** Templates scored in one digest, at most: one query each. */
const MAX_TEMPLATES = 50;
/** Pages of 1,000 prompt versions read for one digest, at most. */
const MAX_VERSION_PAGES = 10;

/** What the weekly LLM digest of a project says. Times are epoch ms; `from`..`to` is the week, `to` exclusive. */
export interface LlmDigestData {
  project: string;
  from: number;
  to: number;
  requests: number;
  previous_requests: number;
  cost_usd: number;
  previous_cost_usd: number;
  /** Per template with eval results in the week, most scored first. */
  scores: { template: string; avg_score: number; samples: number }[];
  versions: { template: string; version: number; created_at: number }[];
  alerts: { rule_name: string; fired: number }[];
}

/** The last whole UTC week (Monday 00:00 to the next Monday 00:00) before `at`. */
export function lastWeek(at: number): { from: number; to: number } {
  const day = new Date(at);
  const midnight = Date.UTC(day.getUTCFullYear(), day.getUTCMonth(), day.getUTCDate());
  const sinceMonday = (day.getUTCDay() + 6) % 7;
  const to = midnight - sinceMonday * 86_400_000;
  return { from: to - WEEK_MS, to };
}

/**
 * Gathers a project's week through the llm service (two weekly windows in one query, an eval summary per template,
 * the versions made in the week) and the alert history: every read bounded, whatever the project holds.
 */
export async function gatherLlmDigest(llm: LlmService, events: EventStore, project: LlmProjectRef, week: { from: number; to: number }): Promise<LlmDigestData> {
  const [windows, templates, alerts] = await Promise.all([
    llm.traceWindows({ project_id: project.id, to: week.to, stepMs: WEEK_MS, count: 2 }),
    llm.templates(project.id),
    events.firedBetween(project.name, week.from, week.to),
  ]);
  const [previous, current] = windows;
  const scores: LlmDigestData['scores'] = [];
  for (const template of templates.slice(0, MAX_TEMPLATES)) {
    const s = await llm.evalScores({ project_id: project.id, template, from: week.from, to: week.to });
    if (s.avg_score !== null) scores.push({ template, avg_score: s.avg_score, samples: s.samples });
  }
  scores.sort((a, b) => b.samples - a.samples || a.template.localeCompare(b.template));
  return {
    project: project.name, from: week.from, to: week.to,
    requests: current.requests, previous_requests: previous.requests, cost_usd: current.cost_usd, previous_cost_usd: previous.cost_usd,
    scores, versions: await versionsOf(llm, project.id, week), alerts: alerts.map((a) => ({ rule_name: a.rule_name, fired: Number(a.n) })),
  };
}

/** The project's prompt versions made in the week, oldest first (the service pages every project's, 1,000 at a time). */
async function versionsOf(llm: LlmService, projectId: string, week: { from: number; to: number }): Promise<LlmDigestData['versions']> {
  const out: LlmDigestData['versions'] = [];
  const seen = new Set<string>();
  let since = week.from;
  for (let page = 0; page < MAX_VERSION_PAGES; page++) {
    const list = await llm.promptVersions(since, 1000);
    for (const v of list) {
      const key = `${v.project_id}\0${v.template}\0${v.version}`;
      if (v.created_at >= week.to || seen.has(key)) continue;
      seen.add(key);
      if (v.project_id === projectId) out.push({ template: v.template, version: v.version, created_at: v.created_at });
    }
    const last = list.at(-1);
    if (list.length < 1000 || !last || last.created_at >= week.to) break;
    since = last.created_at;
  }
  return out;
}
