import type { AlertSource, Store } from '@vigil/plugin-sdk';
import type { ProjectDirectory } from '../project-directory.js';
import { monthOf } from '../usage-book.js';
import { projectLimits } from './billing-query.js';

/** The alert source's id: rules on it fire when a project nears or passes its plan's limits. */
export const PLAN_USAGE_SOURCE = 'llm.plan_usage';

/**
 * `llm.plan_usage`: the most used of a project's monthly limits (items per month, budget cap), as a share of it,
 * in the UTC month of the window's end: 0.8 is 80 % of a limit, 1 is at it. Null (no data) for a project without
 * monthly limits. A rule `gte 0.8` fires when a project is near a limit, `gte 1` when it is over. Registered by the
 * llm plugin itself through the alerts service, when that plugin runs. One read of the month's usage row.
 */
export function planUsageSource(store: Store, projects: ProjectDirectory): AlertSource {
  const usage = store.table('usage');
  return {
    id: PLAN_USAGE_SOURCE,
    summary: 'A project\'s most used monthly plan limit (items per month or budget cap) as a share of it: 0.8 is 80 %, 1 is at the limit',
    unit: 'ratio',
    scopes: ['project'],
    requiredScopes: ['project'],
    async read(window, scope) {
      const row = await projects.store.get(scope.project ?? '');
      if (!row) throw new Error(`scope.project: there is no LLM project "${scope.project}"`);
      const project = projects.toProject(row);
      const [month] = await store.query<{ items: number | string; cost_usd: number | string }>(
        `SELECT items, cost_usd FROM ${usage} WHERE project_id = ? AND month = ?`, [row.id, monthOf(window.to - 1)]);
      const ratios = projectLimits(project, { items: Number(month?.items ?? 0), cost_usd: Number(month?.cost_usd ?? 0) })
        .map((l) => l.ratio).filter((r): r is number => r !== null);
      return ratios.length ? { value: Math.max(...ratios), samples: 1 } : { value: null, samples: 0 };
    },
  };
}
