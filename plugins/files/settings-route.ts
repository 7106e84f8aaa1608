import { homedir } from 'node:os';
import { closedObject, type HttpRoutes } from '@vigil/plugin-sdk';
import type { AllowedRoots } from './files/allowed-path.js';

const paths = { type: 'array', items: { type: 'string' }, maxItems: 32 } as const;

/** `GET /api/files`: what the Storage page needs to start: the roots, the budgets, the home folder. */
export function registerSettingsRoute(http: HttpRoutes, d: {
  roots: AllowedRoots; scanRoots: AllowedRoots; budgetMs: number; maxBudgetMs: number; editLimit: number; trashDir: string; maxScans: number;
}): void {
  http.route({
    method: 'GET', path: '/api/files', tags: ['host'], role: 'owner',
    summary: 'The file tools\' settings: the folders they may touch, scan budgets, the editor\'s limit, the trash folder',
    response: closedObject({
      home: { type: 'string' }, roots: paths, scan_roots: paths, budget_ms: { type: 'integer' }, max_budget_ms: { type: 'integer' },
      edit_limit: { type: 'integer' }, trash_dir: { type: 'string' }, max_scans: { type: 'integer' },
    }, { title: 'FilesSettings' }),
    handler: () => ({
      home: homedir(), roots: d.roots.roots, scan_roots: d.scanRoots.roots, budget_ms: d.budgetMs, max_budget_ms: d.maxBudgetMs,
      edit_limit: d.editLimit, trash_dir: d.trashDir, max_scans: d.maxScans,
    }),
  });
}
