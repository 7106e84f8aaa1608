// Perch's crontab endpoints: GET /api/cron (the table, line by line, with each schedule in words) and
// POST /api/cronsave (one edit: add, edit, disable, enable, delete). An edit changes only its line and is refused when
// the crontab changed since the page read it; saves in this process take turns.
import { httpError, type HttpRoutes, type PluginAuditEntry, type RouteContext } from '@vigil/plugin-sdk';
import { SystoolsErrors } from '../errors.js';
import { cronSaveBody, cronSchema, cronScheduleQuery, cronScheduleSchema } from '../response-schemas.js';
import { describeSchedule, parseSchedule } from './cron-schedule.js';
import { applyEdit, CronEditError, crontabRevision, crontabText, describeLinesSliced, parseCrontab, type CronEdit } from './crontab-text.js';
import type { UserCrontab } from './user-crontab.js';

export interface CronRouteDeps {
  crontab: UserCrontab;
  user: string;
  audit(entry: PluginAuditEntry): Promise<void>;
}

const TAGS = ['host'];

export function registerCronRoutes(http: HttpRoutes, d: CronRouteDeps): void {
  const view = async (text: string) => ({
    available: true, note: null, user: d.user, revision: crontabRevision(text), lines: await describeLinesSliced(parseCrontab(text)),
  });
  // One edit at a time: each reads, checks the revision and writes before the next starts.
  let turn: Promise<unknown> = Promise.resolve();

  http.route({
    // A crontab often holds credentials (a PGPASSWORD= line, a token in a curl command): owners only, as its edits are.
    method: 'GET', path: '/api/cron', tags: TAGS, role: 'owner',
    summary: 'The user\'s crontab, line by line: entries with their schedule in words, comments, variables, blank lines',
    description: 'Read with `crontab -l` (10 s limit; at most 256 KiB). A machine without crontab answers `available: false` with the reason.',
    response: cronSchema,
    async handler(ctx) {
      ctx.set('Cache-Control', 'no-store');
      try {
        return await view(await d.crontab.read());
      } catch (err) {
        if ((err as { code?: string }).code === SystoolsErrors.CRONTAB_MISSING) {
          return { available: false, note: 'crontab is not installed here: install cron (apt install cron) to keep scheduled tasks.', user: d.user, revision: '', lines: [] };
        }
        throw err;
      }
    },
  });

  http.route({
    method: 'GET', path: '/api/cronschedule', tags: TAGS,
    summary: 'A crontab schedule checked and read in words, as the editor is typed in ("0 3 * * 1-5" → every weekday at 03:00)',
    query: cronScheduleQuery, response: cronScheduleSchema,
    handler(ctx) {
      const schedule = String(ctx.query.schedule);
      try {
        return { valid: true, schedule, human: describeSchedule(parseSchedule(schedule)), error: null };
      } catch (err) {
        return { valid: false, schedule, human: null, error: err instanceof Error ? err.message : String(err) };
      }
    },
  });

  http.route({
    method: 'POST', path: '/api/cronsave', tags: TAGS,
    summary: 'One change to the user\'s crontab (add, edit, disable by commenting out, enable, delete); every other line is written back byte for byte',
    description: '`revision` is the one GET /api/cron answered: a crontab changed since is not overwritten (409). The new table is installed with `crontab -`, which checks it again. Answers the crontab as GET /api/cron does.',
    body: cronSaveBody, response: cronSchema,
    handler(ctx) {
      const run = turn.then(() => save(ctx));
      turn = run.catch(() => undefined);
      return run;
    },
  });

  async function save(ctx: RouteContext) {
    const body = ctx.request.body as { revision: string; op: CronEdit['op']; line?: number; schedule?: string; command?: string };
    const text = await d.crontab.read();
    if (crontabRevision(text) !== body.revision) throw httpError(SystoolsErrors.CRON_CHANGED, 'the crontab changed since this page read it; reload and make the change again');
    let edit: CronEdit;
    if (body.op === 'add') edit = { op: 'add', schedule: body.schedule ?? '', command: body.command ?? '' };
    else if (body.line === undefined) throw httpError(SystoolsErrors.CRON_LINE, `${body.op} needs the line of the entry`);
    else if (body.op === 'edit') edit = { op: 'edit', line: body.line, schedule: body.schedule ?? '', command: body.command ?? '' };
    else edit = { op: body.op, line: body.line };
    let next: string;
    try {
      next = crontabText(applyEdit(parseCrontab(text), edit));
    } catch (err) {
      if (err instanceof CronEditError) {
        throw httpError({ schedule: SystoolsErrors.CRON_SCHEDULE, command: SystoolsErrors.CRON_COMMAND, line: SystoolsErrors.CRON_LINE }[err.kind], err.message);
      }
      throw err;
    }
    const target = `crontab of ${d.user}${edit.op === 'add' ? '' : ` line ${edit.line + 1}`}`;
    try {
      await d.crontab.write(next);
    } catch (err) {
      await d.audit({ principal: ctx.state.auth, action: `host crontab ${edit.op}`, target, status: 502, address: ctx.ip || null, detail: 'crontab refused the table' });
      throw err;
    }
    await d.audit({ principal: ctx.state.auth, action: `host crontab ${edit.op}`, target, status: 200, address: ctx.ip || null, detail: null });
    return view(next);
  }
}
