// The containers API under perch's names: GET /api/containers, /api/ctrlogs, POST /api/ctraction, GET /api/pgcontainers,
// plus GET /api/ctrlogs/follow for a live log. Bounds: every environment answers within containers.timeout (a list is
// at most 500 containers per environment and 1,000 pods, and 4 MiB read); a log read is at most logs.max_tail lines and
// logs.max_bytes; a followed log ends at logs.follow_for, at logs.max_bytes sent, or when the browser leaves; an action
// has containers.action_timeout.
import { Readable } from 'node:stream';
import { httpError, TEXT_BODY, type HttpRoutes, type PluginAuditEntry, type RouteContext } from '@vigil/plugin-sdk';
import { EngineRefused } from './docker-engine.js';
import { listAll, type Listing } from './environments.js';
import { ContainersErrors } from './errors.js';
import { actionAnswer, actionInput, containersList, logsAnswer, logsQuery, pgContainers } from './response-schemas.js';
import { NoAnswer, Unreachable } from './socket-request.js';
import type { ContainerAction, ContainerRow, Engine, EngineKind, LogRequest } from './types.js';

export interface ContainerRouteDeps {
  /** The environments found now (file checks only). */
  engines(): Promise<Engine[]>;
  lookedFor(): { kind: EngineKind; places: string[] }[];
  timeoutMs: number;
  actionTimeoutMs: number;
  logs: { tail: number; max_tail: number; max_bytes: number; follow_ms: number };
  audit(entry: PluginAuditEntry): Promise<void>;
}

const TAGS = ['containers'];

/** An engine's failure as the API's error: unreachable 504, refused by the engine with its status, else 502. */
function asHttpError(err: unknown): Error {
  if (err instanceof NoAnswer || err instanceof Unreachable) return httpError(ContainersErrors.UNREACHABLE, err.message);
  if (err instanceof EngineRefused) {
    if (err.status === 404) return httpError(ContainersErrors.CONTAINER_UNKNOWN, err.message);
    if (err.status === 400) return httpError(ContainersErrors.NOT_SUPPORTED, err.message);
    return httpError(ContainersErrors.ENGINE_FAILED, err.message);
  }
  return err as Error;
}

const postgresImage = /(^|\/)(postgres|postgis|timescaledb[\w-]*|pgvector)(:|@|$)/i;

/** The host port and address a container publishes PostgreSQL's 5432 on, from its `ip:port->5432/tcp` lines. */
export function publishedPostgres(row: ContainerRow): { host: string | null; port: number | null } {
  for (const p of row.ports) {
    const m = /^(?:(.+):)?(\d+)->5432\/tcp$/.exec(p);
    if (m) return { host: !m[1] || m[1] === '0.0.0.0' || m[1] === '::' || m[1] === '[::]' ? '127.0.0.1' : m[1], port: Number(m[2]) };
  }
  return { host: null, port: null };
}

export function registerContainerRoutes(http: HttpRoutes, d: ContainerRouteDeps): void {
  const engineOf = async (kind: string): Promise<Engine> => {
    const engine = (await d.engines()).find((e) => e.kind === kind);
    if (!engine) throw httpError(ContainersErrors.ENGINE_UNKNOWN, `no ${kind} environment was found on this machine`);
    return engine;
  };
  const listing = async (): Promise<Listing> => listAll(await d.engines(), d.timeoutMs);

  http.route({
    method: 'GET', path: '/api/containers', tags: TAGS,
    summary: 'Containers and pods across the environments found (Docker, Podman, nerdctl, LXD, Incus, Kubernetes), each within containers.timeout',
    description: 'Each environment is asked at once and answers on its own clock: one that does not answer within containers.timeout is listed as unreachable ("no answer in 3 s") and the others\' rows are there. At most 500 containers per environment (the newest) and 1,000 pods.',
    query: { type: 'object', properties: {} },
    response: containersList,
    async handler(ctx) {
      ctx.set('Cache-Control', 'no-store');
      const engines = await d.engines();
      const l = await listAll(engines, d.timeoutMs);
      return {
        environments: l.environments.map((r) => {
          const e = engines.find((x) => x.kind === r.kind)!;
          return { ...r, shell: e.shellPrefix?.() ?? null, follow: Boolean(e.follow) };
        }),
        containers: l.containers, pods: l.pods, looked_for: d.lookedFor(), timeout_ms: d.timeoutMs,
      };
    },
  });

  const logRequest = (ctx: RouteContext): { engine: Promise<Engine>; id: string; env: EngineKind; r: LogRequest } => {
    const q = ctx.query as { env: EngineKind; id: string; tail?: number; container?: string };
    return {
      engine: engineOf(q.env), id: q.id, env: q.env,
      r: { tail: Math.min(q.tail ?? d.logs.tail, d.logs.max_tail), maxBytes: d.logs.max_bytes, timeoutMs: d.timeoutMs, container: q.container },
    };
  };

  http.route({
    method: 'GET', path: '/api/ctrlogs', tags: TAGS, role: 'owner',
    summary: 'The last lines of a container\'s or a pod\'s output (at most containers.logs.max_tail lines and containers.logs.max_bytes)',
    description: 'For the owner only: a program\'s output can hold secrets. A pod is named namespace/name; `container` picks one of its containers.',
    query: logsQuery,
    response: logsAnswer,
    async handler(ctx) {
      const { engine, id, env, r } = logRequest(ctx);
      const e = await engine;
      try {
        const { text, cut } = await e.logs(id, r);
        return { env, id, text, tail: r.tail, cut, max_bytes: r.maxBytes };
      } catch (err) {
        throw asHttpError(err);
      }
    },
  });

  http.route({
    method: 'GET', path: '/api/ctrlogs/follow', tags: TAGS, role: 'owner',
    summary: 'A container\'s or pod\'s output as it comes (plain text), from `tail` lines back; ends at containers.logs.follow_for, at containers.logs.max_bytes, or when the browser leaves',
    query: logsQuery,
    response: TEXT_BODY,
    async handler(ctx) {
      const { engine, id, r } = logRequest(ctx);
      const e = await engine;
      if (!e.follow) throw httpError(ContainersErrors.NOT_SUPPORTED, `${e.kind} logs cannot be followed here; read them with GET /api/ctrlogs`);
      const stop = new AbortController();
      const timer = setTimeout(() => stop.abort(), d.logs.follow_ms);
      timer.unref();
      const ended = () => { clearTimeout(timer); stop.abort(); };
      // The response's close, not the request's: a request's 'close' comes once its (empty) body is read.
      ctx.res.once('close', ended);
      let chunks: AsyncIterable<Buffer>;
      try {
        chunks = await e.follow(id, r, stop.signal);
      } catch (err) {
        ended();
        throw asHttpError(err);
      }
      const cap = d.logs.max_bytes;
      const followFor = d.logs.follow_ms;
      async function* bounded(): AsyncGenerator<Buffer> {
        let sent = 0;
        try {
          for await (const chunk of chunks) {
            const room = cap - sent;
            yield chunk.length > room ? chunk.subarray(0, room) : chunk;
            sent += Math.min(chunk.length, room);
            if (sent >= cap) { yield Buffer.from(`\n[vigil: the follow ended at ${cap} bytes; reload to go on]\n`); return; }
          }
          if (stop.signal.aborted && !ctx.res.destroyed) yield Buffer.from(`\n[vigil: the follow ended after ${Math.round(followFor / 1000)} s; reload to go on]\n`);
        } catch {
          // The engine closed the stream or the time cap destroyed it: the text so far stands.
        } finally {
          ended();
        }
      }
      ctx.type = 'text/plain; charset=utf-8';
      ctx.set('Cache-Control', 'no-store');
      // Nothing between the engine and the browser may hold the text back (a proxy's buffering).
      ctx.set('X-Accel-Buffering', 'no');
      return Readable.from(bounded(), { objectMode: false });
    },
  });

  http.route({
    method: 'POST', path: '/api/ctraction', tags: TAGS,
    summary: 'Start, stop, restart or remove a container (audited); a running container is removed only with force: true',
    description: 'Within containers.action_timeout. Kubernetes pods are read-only here (400). Every request is written to the audit log with its outcome.',
    body: actionInput,
    response: actionAnswer,
    async handler(ctx) {
      const b = ctx.request.body as { env: EngineKind; id: string; action: ContainerAction; force?: boolean };
      const force = b.action === 'remove' && b.force === true;
      const entry = { principal: ctx.state.auth, action: `container ${b.action}${force ? ' (force)' : ''}`, target: `${b.env} ${b.id}`, address: ctx.ip || null };
      let status = 200;
      let detail = 'done';
      try {
        const engine = await engineOf(b.env);
        if (!engine.act || !engine.running) throw httpError(ContainersErrors.NOT_SUPPORTED, `${engine.kind} is read-only here: its pods are listed with their logs, not changed`);
        let running: boolean | undefined;
        try { running = await engine.running(b.id, d.timeoutMs); } catch (err) { throw asHttpError(err); }
        if (running === undefined) throw httpError(ContainersErrors.CONTAINER_UNKNOWN, `${b.env} has no container ${b.id}`);
        if (b.action === 'remove' && running && !force) {
          throw httpError(ContainersErrors.RUNNING, `${b.id} is running: stop it first, or remove it with force (it is killed, then removed)`);
        }
        try { await engine.act(b.id, b.action, force, d.actionTimeoutMs); } catch (err) { throw asHttpError(err); }
        const after = await engine.list(d.timeoutMs).catch(() => undefined);
        const row = after?.containers.find((c) => c.id === b.id || c.name === b.id || c.id.startsWith(b.id)) ?? null;
        detail = row ? `now ${row.state}` : b.action === 'remove' ? 'removed' : 'done';
        return { env: b.env, id: b.id, action: b.action, container: row };
      } catch (err) {
        status = (err as { status?: number }).status ?? 500;
        detail = `refused or failed: ${(err as Error).message}`;
        throw err;
      } finally {
        await d.audit({ ...entry, status, detail });
      }
    },
  });

  http.route({
    method: 'GET', path: '/api/pgcontainers', tags: TAGS,
    summary: 'Containers running a PostgreSQL image, with the host port 5432 is published on, for the database browser to offer',
    query: { type: 'object', properties: {} },
    response: pgContainers,
    async handler() {
      const l = await listing();
      return {
        containers: l.containers.filter((c) => postgresImage.test(c.image)).map((c) => ({
          env: c.env, id: c.id, name: c.name, image: c.image, running: c.running, ...publishedPostgres(c),
        })),
      };
    },
  });

}
