import { closedObject, httpError, type HttpRoutes, type PluginAuditEntry, type RouteContext } from '@vigil/plugin-sdk';
import { SelfUpdateErrors } from './errors.js';
import { restartAnswerSchema, selfUpdateStatusSchema } from './response-schemas.js';
import { serviceManagerOf, startRelauncher, type RestartFiles } from './restart.js';
import type { Updater } from './updater.js';

const TAGS = ['host'];

/** The feed's URL as shown: without credentials or a query, which may hold a token. */
function shownUrl(url: string | undefined): string | null {
  if (!url) return null;
  const u = new URL(url);
  return `${u.protocol}//${u.host}${u.pathname}`;
}

export interface SelfUpdateRouteDeps {
  updater: Updater;
  keyShown: string | null;
  controlPlaneUrl(): string;
  restartFiles: RestartFiles;
  audit(entry: PluginAuditEntry): Promise<void>;
  /** Ends this process as SIGTERM does. */
  stopProcess(): void;
}

/** Perch's three update endpoints. Owners only: they change what code this machine runs. */
export function registerSelfUpdateRoutes(http: HttpRoutes, d: SelfUpdateRouteDeps): void {
  const { updater } = d;
  const status = async (since: number) => {
    const blocked = updater.blocker();
    return {
      install_method: updater.o.installMethod, install_dir: updater.o.installDir,
      running: { version: updater.o.runningVersion, commit: updater.runningCommit },
      installed_version: updater.installedVersion(),
      can_update: blocked === null, blocked: blocked?.message ?? null,
      source: { release_url: shownUrl(updater.o.releaseUrl), public_key: d.keyShown },
      checkout: await updater.checkout(),
      latest: updater.latest && { ...updater.latest, newer: updater.newer(updater.latest.release) },
      update: updater.job?.page(since) ?? null,
      restart: { service_manager: serviceManagerOf(process.env), restarting: updater.restarting },
    };
  };

  http.route({
    method: 'GET', path: '/api/perchupdate', role: 'owner', tags: TAGS,
    summary: 'Self-update status: install method, running version and commit, the checkout\'s state, the last check, and the update\'s output from `since`',
    description: 'Reads only this machine (a few bounded git calls on a checkout); it never asks the release feed. The update\'s output: at most 2,000 lines an answer; poll with `next` while `update.state` is running.',
    query: { type: 'object', additionalProperties: false, properties: { since: { type: 'integer', minimum: 0, default: 0 } } },
    response: selfUpdateStatusSchema,
    async handler(ctx) {
      ctx.set('Cache-Control', 'no-store');
      return status((ctx.query as { since: number }).since);
    },
  });

  http.route({
    method: 'POST', path: '/api/perchupdate', role: 'owner', tags: TAGS,
    summary: '`check`: asks the release feed for the newest release (the only request self-update sends); `update`: Update now, as a job',
    description: 'Check: one GET of the feed, under `selfupdate.request_timeout`, at most 1 MiB. Update: refused at once (409, nothing fetched or merged) for uncommitted changes, a detached HEAD or a branch without upstream; otherwise it runs as a job (answer 202) that fetches, verifies the release\'s signature, then applies it. Its end is audited as `selfupdate update`.',
    body: closedObject({ action: { enum: ['check', 'update'] } }),
    responses: { 200: selfUpdateStatusSchema, 202: selfUpdateStatusSchema },
    async handler(ctx: RouteContext) {
      const { action } = ctx.request.body as { action: 'check' | 'update' };
      if (action === 'check') {
        const { release } = await updater.check();
        ctx.state.audit_detail = `checked ${shownUrl(updater.o.releaseUrl)}: newest ${release.version}`;
        return status(0);
      }
      const principal = ctx.state.auth;
      const actor = principal?.user?.email ?? 'dashboard token';
      try {
        await updater.start(actor, (job) => {
          const e = job.error;
          void d.audit({
            principal, action: 'selfupdate update', target: job.version ? `release ${job.version}` : 'the newest release',
            status: e ? (e.code === SelfUpdateErrors.STEP_FAILED ? 500 : e.code === SelfUpdateErrors.NOT_VERIFIED ? 422 : e.code === SelfUpdateErrors.FEED ? 502 : 409) : 200,
            address: ctx.ip || null, detail: (e?.message ?? job.outcome?.message ?? '').slice(0, 500),
          });
        });
      } catch (err) {
        ctx.state.audit_detail = `refused: ${(err as Error).message}`.slice(0, 500);
        throw err;
      }
      ctx.state.audit_detail = 'update started';
      ctx.status = 202;
      return status(0);
    },
  });

  http.route({
    method: 'POST', path: '/api/perchrestart', role: 'owner', tags: TAGS,
    summary: 'Restarts Vigil so it runs the installed version: the service manager starts it again, or a detached relauncher does once this process and its port are gone',
    body: { type: 'object', additionalProperties: false, properties: {} },
    status: 202,
    response: restartAnswerSchema,
    handler(ctx) {
      if (updater.job?.state === 'running') throw httpError(SelfUpdateErrors.BUSY, 'an update is running: restart once it has ended');
      if (updater.restarting) throw httpError(SelfUpdateErrors.BUSY, 'Vigil is restarting already');
      const method = startRelauncher(d.controlPlaneUrl(), d.restartFiles);
      updater.restarting = true;
      ctx.state.audit_detail = `restart (${method}) of pid ${process.pid}, running ${updater.o.runningVersion}, installed ${updater.installedVersion() ?? 'unknown'}`;
      // After the answer (and its audit entry) are out.
      setTimeout(d.stopProcess, 300).unref();
      return { restarting: true, method, pid: process.pid };
    },
  });
}
