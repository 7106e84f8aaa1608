// perch's backup, backuprun: the settings, the last run and its age; a run on request. Changes are POSTs (audited).
import { stat } from 'node:fs/promises';
import { join } from 'node:path';
import { closedObject, httpError, type HttpRoutes, type JsonSchema } from '@vigil/plugin-sdk';
import { FilesErrors } from '../errors.js';
import { badPath, isUnder, type AllowedRoots } from '../files/allowed-path.js';
import { BACKUP_FOLDER, type BackupRunner, type BackupSettings } from './backup-runner.js';

const TAGS = ['host'];
const settingsSchema = closedObject({
  sources: { type: 'array', items: { type: 'string', maxLength: 4096 }, maxItems: 20 },
  dest: { type: 'string', maxLength: 4096 },
  schedule: { enum: ['off', 'daily', 'weekly'] },
  tidy: { type: 'boolean', description: 'Once a week, remove from the backup the copies of what was deleted from the folders (off: the backup only grows).' },
}, { title: 'BackupSettings', optional: ['tidy'] });
const runSchema: JsonSchema = {
  oneOf: [{ type: 'null' }, closedObject({
    at: { type: 'string', format: 'date-time' }, ok: { type: 'boolean' }, copied: { type: 'integer', minimum: 0 }, removed: { type: 'integer', minimum: 0 }, bytes: { type: 'number', minimum: 0 },
    duration_ms: { type: 'number', minimum: 0 }, error: { type: ['string', 'null'] },
  }, { title: 'BackupRun', optional: ['removed'] })],
};
const stateSchema = closedObject({
  settings: settingsSchema, last: runSchema, running: { type: 'boolean' },
  age_s: { type: ['number', 'null'], description: 'seconds since the last successful run' },
  folder: { type: ['string', 'null'], description: 'where the copies are (point a host backup rule at it)' },
}, { title: 'BackupState' });

export function registerBackupRoutes(http: HttpRoutes, d: { runner: BackupRunner; roots: AllowedRoots; destRoots: AllowedRoots; now(): number }): void {
  const state = () => {
    const { settings, last } = d.runner;
    return {
      settings, last, running: d.runner.busy,
      age_s: last?.ok ? Math.round((d.now() - Date.parse(last.at)) / 1000) : null,
      folder: settings.dest ? join(settings.dest, BACKUP_FOLDER) : null,
    };
  };
  const folder = async (raw: string, roots: AllowedRoots): Promise<string> => {
    const path = await roots.existing(raw);
    if (!(await stat(path)).isDirectory()) throw badPath(`${JSON.stringify(path)} is not a folder`);
    return path;
  };

  http.route({
    method: 'GET', path: '/api/backup', tags: TAGS, role: 'owner',
    summary: 'The backup helper: the folders, the destination, the schedule, the last run and its age',
    response: stateSchema,
    handler: () => state(),
  });

  http.route({
    method: 'POST', path: '/api/backup', tags: TAGS, role: 'owner',
    summary: 'Set the folders to back up (under files.roots), the destination folder (another drive) and the schedule',
    description: 'The destination may not lie inside a source, nor a source inside the destination.',
    body: settingsSchema,
    response: stateSchema,
    async handler(ctx) {
      const body = ctx.request.body as BackupSettings;
      const sources: string[] = [];
      for (const s of body.sources) sources.push(await folder(s, d.roots));
      const dest = body.dest ? await folder(body.dest, d.destRoots) : '';
      for (const s of sources) {
        if (dest && (isUnder(dest, s) || isUnder(s, dest))) throw badPath(`the destination ${JSON.stringify(dest)} and the folder ${JSON.stringify(s)} hold one another`);
      }
      await d.runner.configure({ sources: [...new Set(sources)], dest, schedule: body.schedule, tidy: body.tidy === true });
      return state();
    },
  });

  http.route({
    method: 'POST', path: '/api/backuprun', tags: TAGS, role: 'owner', status: 202,
    summary: 'Start the backup now (a run under way is joined, not started twice); read GET /api/backup until running is false',
    description: 'Answers at once: a large copy takes as long as the drive needs, and no request waits for it. The run\'s outcome is audited as `files backup`.',
    response: stateSchema,
    handler(ctx) {
      if (!d.runner.settings.sources.length || !d.runner.settings.dest) throw httpError(FilesErrors.BACKUP_UNSET, 'choose the folders and the destination first (POST /api/backup)');
      const joined = d.runner.busy;
      const run = d.runner.run();
      if (!joined) {
        const principal = ctx.state.auth;
        const address = ctx.ip;
        void run.then((r) => http.audit({
          principal, action: 'files backup', target: d.runner.settings.dest, status: r.ok ? 200 : 500, address,
          detail: r.ok ? `${r.copied} files, ${r.bytes} bytes copied${r.removed ? `; ${r.removed} copies of deleted files removed` : ''}` : r.error,
        })).catch(() => undefined); // a run that could not even save its outcome is seen in GET /api/backup
      }
      return state();
    },
  });
}
