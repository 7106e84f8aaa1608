import { closedObject, httpError, PRIVILEGED_VERBS, type HttpRoutes, type JsonSchema, type RouteContext } from '@vigil/plugin-sdk';
import { sudoAccepts, type Elevation } from './elevation.js';
import { PrivilegeErrors } from './errors.js';
import { JOB_LINES, JOB_PAGE_LINES, type Job, type JobRegistry } from './job-registry.js';
import type { PasswordCache } from './password-cache.js';
import type { Privilege } from './privilege-service.js';

export const privilegeStatusSchema = closedObject({
  method: { enum: ['root', 'sudo', 'pkexec', 'none'], description: 'root: Vigil runs as root; sudo: with the password of Vigil\'s user; pkexec: a polkit rule; none: host actions cannot run.' },
  user: { type: 'string', description: 'The user Vigil runs as: sudo wants this user\'s password.' },
  password_needed: { type: 'boolean', description: 'sudo needs this session\'s password before a host action runs.' },
  unlocked: { type: 'boolean', description: 'This session\'s password is held, in memory only.' },
  expires_at: { type: ['string', 'null'], format: 'date-time', description: 'When the held password is forgotten unless used again.' },
  note: { type: ['string', 'null'], description: 'Why host actions cannot run.' },
}, { title: 'PrivilegeStatus' });

const resultSchema = closedObject({
  ok: { type: 'boolean' }, exit_code: { type: ['integer', 'null'] }, signal: { type: ['string', 'null'] }, timed_out: { type: 'boolean' },
  cancelled: { type: 'boolean' }, method: { enum: ['root', 'sudo', 'pkexec'] }, duration_ms: { type: 'integer', minimum: 0 },
}, { title: 'PrivilegedJobResult' });

const jobFields: Record<string, JsonSchema> = {
  id: { type: 'string' },
  title: { type: 'string' },
  verb: { enum: [...PRIVILEGED_VERBS] },
  args: { type: 'array', items: { type: 'string' } },
  actor: { type: 'string', description: 'Who started it.' },
  state: { enum: ['running', 'done', 'failed', 'cancelled'] },
  progress: { type: ['number', 'null'], minimum: 0, maximum: 100, description: 'Percent, when the program reports it (apt does); null otherwise.' },
  started_at: { type: 'string', format: 'date-time' },
  ended_at: { type: ['string', 'null'], format: 'date-time' },
  result: { oneOf: [{ type: 'null' }, resultSchema] },
};
const jobSummarySchema = closedObject({ ...jobFields, lines: { type: 'integer', minimum: 0, description: 'Output lines so far.' } }, { title: 'PrivilegedJobSummary' });
const jobPageSchema = closedObject({
  ...jobFields,
  first: { type: 'integer', minimum: 0, description: `Index of the oldest line still kept (a job keeps its last ${JOB_LINES}).` },
  next: { type: 'integer', minimum: 0, description: 'Pass as `since` for the lines after these.' },
  lines: { type: 'array', items: { type: 'string' }, maxItems: JOB_PAGE_LINES },
}, { title: 'PrivilegedJob' });

function view(job: Job): Record<string, unknown> {
  const r = job.result;
  return {
    id: job.id, title: job.title, verb: job.verb, args: job.args, actor: job.actor, state: job.state, progress: job.progress,
    started_at: new Date(job.startedAt).toISOString(), ended_at: job.endedAt === null ? null : new Date(job.endedAt).toISOString(),
    result: r && { ok: r.ok, exit_code: r.exit_code, signal: r.signal, timed_out: r.timed_out, cancelled: r.cancelled, method: r.method, duration_ms: r.duration_ms },
  };
}

function jobOf(jobs: JobRegistry, id: string): Job {
  const job = jobs.get(id);
  if (!job) throw httpError(PrivilegeErrors.JOB_UNKNOWN, `no job ${JSON.stringify(id)} (jobs are kept an hour after they end)`);
  return job;
}

const JOB_ID = { type: 'string', pattern: '^[0-9a-z]{8,24}$' };

/** The helper's own routes: status, the password prompt's unlock and lock, and the jobs. Owners only: these are root's powers. */
export function registerPrivilegeRoutes(http: HttpRoutes, o: { privilege: Privilege; passwords: PasswordCache; jobs: JobRegistry; elevation: Elevation }): void {
  const { privilege, passwords, jobs, elevation } = o;
  const principal = (ctx: RouteContext) => ctx.state.auth;

  http.route({
    method: 'GET', path: '/api/privilege', role: 'owner', tags: ['host'],
    summary: 'How host actions are elevated here (root, sudo, pkexec or none) and whether this session must give a password first',
    response: privilegeStatusSchema,
    handler: (ctx) => privilege.status(principal(ctx)),
  });

  http.route({
    method: 'POST', path: '/api/privilege/unlock', role: 'owner', tags: ['host'],
    summary: 'Gives sudo the password of Vigil\'s user for this session: checked with sudo at once, held in memory only, never stored or logged',
    description: 'Forgotten after `privilege.password_ttl` without use (15 minutes), at logout, when the session ends, and when Vigil stops. Five wrong passwords in 15 minutes lock the session out of trying for 15 minutes.',
    body: closedObject({ password: { type: 'string', minLength: 1, maxLength: 1024, writeOnly: true } }),
    response: privilegeStatusSchema,
    async handler(ctx) {
      const who = principal(ctx);
      const { password } = ctx.request.body as { password: string };
      if (elevation.method !== 'sudo' || !elevation.passwordNeeded) return privilege.status(who);
      if (!passwords.mayTry(who)) throw httpError(PrivilegeErrors.TOO_MANY_ATTEMPTS, 'five wrong passwords in 15 minutes: wait before trying again');
      const secret = Buffer.from(password, 'utf8');
      if (!(await sudoAccepts(elevation.tool!, Buffer.from(secret)))) {
        secret.fill(0);
        passwords.failed(who);
        throw httpError(PrivilegeErrors.PASSWORD_WRONG, `sudo refused the password of ${privilege.status(who).user}`);
      }
      passwords.set(who, secret);
      return privilege.status(who);
    },
  });

  http.route({
    method: 'POST', path: '/api/privilege/lock', role: 'owner', tags: ['host'],
    summary: 'Forgets this session\'s sudo password now',
    response: privilegeStatusSchema,
    handler(ctx) {
      passwords.forget(principal(ctx));
      return privilege.status(principal(ctx));
    },
  });

  http.route({
    method: 'GET', path: '/api/jobs', role: 'owner', tags: ['host'],
    summary: 'Host action jobs of this process, newest first (kept an hour after they end, 50 at most)',
    response: closedObject({ jobs: { type: 'array', items: jobSummarySchema, maxItems: 50 } }, { title: 'PrivilegedJobs' }),
    handler: () => ({ jobs: jobs.list().map((j) => ({ ...view(j), lines: j.first + j.lines.length })) }),
  });

  http.route({
    method: 'GET', path: '/api/job', role: 'owner', tags: ['host'],
    summary: 'A host action job and its output lines from `since` on (perch\'s shape): poll with the answer\'s `next` while `state` is running',
    description: `At most ${JOB_PAGE_LINES} lines an answer.`,
    query: { type: 'object', additionalProperties: false, required: ['id'], properties: { id: JOB_ID, since: { type: 'integer', minimum: 0, default: 0 } } },
    response: jobPageSchema,
    handler(ctx) {
      ctx.set('Cache-Control', 'no-store');
      const { id, since } = ctx.query as { id: string; since: number };
      const job = jobOf(jobs, id);
      const from = Math.max(since, job.first);
      const lines = job.lines.slice(from - job.first, from - job.first + JOB_PAGE_LINES);
      return { ...view(job), first: job.first, next: from + lines.length, lines };
    },
  });

  http.route({
    method: 'POST', path: '/api/job/cancel', role: 'owner', tags: ['host'],
    summary: 'Cancels a running host action job: SIGTERM, then SIGKILL after 5 s',
    body: closedObject({ id: JOB_ID }),
    response: jobSummarySchema,
    handler(ctx) {
      const job = jobOf(jobs, (ctx.request.body as { id: string }).id);
      job.abort.abort();
      return { ...view(job), lines: job.first + job.lines.length };
    },
  });
}
