import { closedObject, type HttpRoutes } from '@vigil/plugin-sdk';
import { failedUnits } from './failed-units.js';
import { healthFindings, healthScore, sortFindings, type Finding } from './findings.js';
import { gatherHealthFacts } from './health-facts.js';
import type { PendingUpdatesCache } from './pending-updates.js';

const finding = closedObject({
  severity: { enum: ['critical', 'warning', 'info'], description: 'Costs 20, 10 or 3 points.' },
  title: { type: 'string' }, detail: { type: 'string', description: 'What it means and what to do, in plain words.' },
  action: { type: 'string', description: 'The kind of fix: clean, updates, services, memory, temperature, battery, reboot, security.' },
  path: { type: 'string', description: 'The dashboard page where it can be fixed or looked into.' },
}, { title: 'HealthFinding' });

export const healthResponse = closedObject({
  score: { type: 'integer', minimum: 0, maximum: 100 },
  verdict: { enum: ['Excellent', 'Good', 'Needs attention', 'Poor'] },
  findings: { type: 'array', items: finding, description: 'Worst first.' },
  unchecked: { type: 'array', items: { type: 'string' }, description: 'What could not be looked at here (no apt, no systemd), so the score says nothing of it.' },
  taken_at: { type: 'string', format: 'date-time' },
}, { title: 'HealthScore', description: 'perch\'s health score: 100 less 20 per critical finding, 10 per warning and 3 per note.' });

/** `GET /api/healthscore`: file reads, apt's simulation cached an hour (never waited for), systemctl's failed list (5 s timeout). */
export function registerHealthRoutes(http: HttpRoutes, o: { root: string; updates: PendingUpdatesCache; now(): number; moreFindings?(): Promise<Finding[]> }): void {
  const { updates } = o;
  http.route({
    method: 'GET', path: '/api/healthscore', tags: ['host'],
    summary: 'The health score out of 100 with each finding in plain words and where to fix it: disks, pending updates, failed services, memory with swap, temperature, battery wear, a required restart',
    response: healthResponse,
    async handler() {
      // apt takes seconds (more on a loaded machine): the first ask starts it and answers without it.
      const known = updates.peek();
      const facts = await gatherHealthFacts({ root: o.root, updates: async () => known ?? null, failedUnits: () => failedUnits(o.root) });
      const findings = sortFindings([...healthFindings(facts), ...(await o.moreFindings?.().catch(() => []) ?? [])]);
      const unchecked = [
        ...(known === undefined ? ['pending updates (apt is being asked: ask again in a minute)'] : known === null ? ['pending updates (no apt, or it failed)'] : []),
        ...(facts.failedUnits === null ? ['failed services (systemd does not run this machine)'] : []),
        ...(facts.memory === null ? ['memory (no /proc/meminfo)'] : []),
      ];
      return { ...healthScore(findings), findings, unchecked, taken_at: new Date(o.now()).toISOString() };
    },
  });
}
