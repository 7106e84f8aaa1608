import { join } from 'node:path';
import { parseDuration, type PluginContext } from '@vigil/plugin-sdk';
import type { FilesConfig } from './config-schema.js';
import { BackupRunner } from './backup/backup-runner.js';
import { registerBackupRoutes } from './backup/backup-routes.js';
import { Cleanup } from './cleanup/cleanup-targets.js';
import { registerDriveRoutes } from './drives/drive-routes.js';
import { onPath } from './drives/on-path.js';
import { registerSmartRoute } from './drives/smart-route.js';
import { AllowedRoots } from './files/allowed-path.js';
import { registerFileRoutes } from './files/file-routes.js';
import { ScanJobs } from './scan-jobs.js';
import { registerScanRoutes } from './scan-routes.js';
import { registerSettingsRoute } from './settings-route.js';
import { homeTrashDir } from './trash/home-trash.js';
import { registerTrashRoutes } from './trash/trash-routes.js';

export async function startFiles(ctx: PluginContext, config: FilesConfig) {
  const roots = await AllowedRoots.resolve(config.roots, 'the file tools');
  const scanRoots = await AllowedRoots.resolve(config.scan_roots, 'scans');
  const budgetMs = parseDuration(config.budget);
  const maxBudgetMs = parseDuration(config.max_budget);
  const trashDir = homeTrashDir();
  const jobs = new ScanJobs({ maxRunning: config.max_scans, keepMs: 15 * 60_000, keepMax: 32, graceMs: 1500, progressMs: 250 });
  registerScanRoutes(ctx.http, jobs, { scanRoots, budgetMs, maxBudgetMs, maxEntries: config.max_entries, now: Date.now });
  registerFileRoutes(ctx.http, { roots, editLimit: config.edit_limit });
  registerTrashRoutes(ctx.http, { roots, trashDir });
  registerSettingsRoute(ctx.http, { roots, scanRoots, budgetMs, maxBudgetMs, editLimit: config.edit_limit, trashDir, maxScans: config.max_scans });
  // Measuring clean-up targets has slots of its own: a clean-up page never waits for a user's scans.
  const measuring = new ScanJobs({ maxRunning: 3, keepMs: 60_000, keepMax: 8, graceMs: 1500, progressMs: 1000 });
  registerDriveRoutes(ctx.http, { cleanup: new Cleanup(measuring, trashDir), smartctl: () => onPath('smartctl'), helper: () => ctx.services.find('privilege') !== undefined });
  registerSmartRoute(ctx.http, () => ctx.services.find('privilege'));
  const backup = new BackupRunner(join(ctx.dataDir, 'backup.json'));
  await backup.load();
  registerBackupRoutes(ctx.http, { runner: backup, roots, destRoots: scanRoots, now: Date.now });
  // The schedule is looked at every 10 minutes: a daily or weekly run starts when its period has passed (and after
  // downtime, at the first look).
  const tick = ctx.contain('backup schedule', async () => { if (backup.due()) await backup.run(); });
  const timer = setInterval(tick, 10 * 60_000);
  timer.unref();
  return {
    stop: async () => {
      clearInterval(timer);
      await Promise.all([jobs.stopAll(), measuring.stopAll()]);
    },
  };
}
