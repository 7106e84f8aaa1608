// The project launcher's API: perch's `GET /api/projectscripts` and `POST /api/projectrun`, plus a run's output
// (`GET /api/projectrun?id&since`, perch's job shape), Stop, and the runs with the history. Every route is for the
// owner: listing a folder's make targets asks make, which evaluates the Makefile (`$(shell …)` included).
import { closedObject, httpError, type HttpRoutes, type RouteContext } from '@vigil/plugin-sdk';
import { DevtoolsErrors } from './errors.js';
import { subfolders, type FolderRoots } from './folder-roots.js';
import { projectRun, projectRunPage, projectRuns, projectScripts, runInput } from './launcher-schemas.js';
import { commandLine, type ScriptKind } from './project-script.js';
import { detectScripts } from './project-scripts.js';
import { HISTORY_PAGE, type FinishedRun, type RunHistory } from './run-history.js';
import { RUN_PAGE_LINES, type Run, type RunRegistry } from './run-registry.js';

export interface LauncherDeps {
  roots: FolderRoots;
  runs: RunRegistry;
  history: RunHistory;
  limits: { max_running: number; timeout_s: number; output_cap_kib: number; history_keep: number };
  actorOf(ctx: RouteContext): string;
}

const TAGS = ['host'];
const OWNER = 'owner' as const;
const RUN_ID = { type: 'string', pattern: '^[0-9a-z]{8,24}$' };
const iso = (ms: number | null) => (ms === null ? null : new Date(ms).toISOString());

function liveView(run: Run, now: number) {
  return {
    id: run.id, folder: run.folder, kind: run.script.kind, name: run.script.name, argv: run.script.argv, command: commandLine(run.script.argv),
    actor: run.actor, state: run.state, exit_code: run.exitCode, signal: run.signal, note: run.note, started_at: iso(run.startedAt)!, ended_at: iso(run.endedAt),
    duration_ms: (run.endedAt ?? now) - run.startedAt, output_bytes: run.output.totalBytes, dropped_bytes: run.output.droppedBytes,
  };
}

function storedView(r: Omit<FinishedRun, 'output_tail'>) {
  return {
    id: r.id, folder: r.folder, kind: r.kind, name: r.name, argv: r.argv, command: commandLine(r.argv), actor: r.actor, state: r.state,
    exit_code: r.exit_code, signal: r.signal, note: r.note, started_at: iso(r.started_at)!, ended_at: iso(r.ended_at),
    duration_ms: r.ended_at - r.started_at, output_bytes: r.output_bytes, dropped_bytes: r.dropped_bytes,
  };
}

export function registerLauncherRoutes(http: HttpRoutes, d: LauncherDeps): void {
  http.route({
    method: 'GET', path: '/api/projectscripts', role: OWNER, tags: TAGS,
    summary: 'The package scripts and make targets of a folder under `devtools.roots`, and its sub-folders for the picker',
    description: 'Without `dir`: the roots only. Bounds: package.json up to 1 MiB; make\'s database read with a 5 s timeout and a 4 MiB cap; 500 scripts and 500 targets; 500 sub-folders (20,000 entries read at most).',
    query: { type: 'object', additionalProperties: false, properties: { dir: { type: 'string', minLength: 1, maxLength: 4096 } } },
    response: projectScripts,
    async handler(ctx) {
      const { dir } = ctx.query as { dir?: string };
      const base = { roots: [...d.roots.roots], limits: d.limits };
      if (!dir) return { ...base, dir: null, parent: null, folders: [...d.roots.roots], folders_more: false, scripts: [], runner: null, makefile: null, notes: [] };
      const folder = await d.roots.folder(dir);
      const [subs, found] = await Promise.all([subfolders(folder), detectScripts(folder)]);
      return {
        ...base, dir: folder, parent: d.roots.parentOf(folder), folders: subs.names, folders_more: subs.more,
        scripts: found.scripts.map((s) => ({ ...s, command: commandLine(s.argv) })), runner: found.runner, makefile: found.makefile, notes: found.notes,
      };
    },
  });

  http.route({
    method: 'POST', path: '/api/projectrun', role: OWNER, tags: TAGS, status: 202,
    summary: 'Runs one package script or make target of a folder as a job: its process group, a wall-clock limit, an output cap',
    description: 'The name must be one the folder\'s detection finds at this moment; the program runs with an argument list, never a shell. At most `devtools.max_running` runs at once (409 past it).',
    body: runInput,
    response: projectRun,
    async handler(ctx) {
      const body = ctx.request.body as { dir: string; kind: ScriptKind; name: string };
      const folder = await d.roots.folder(body.dir);
      const found = await detectScripts(folder);
      const script = found.scripts.find((s) => s.kind === body.kind && s.name === body.name);
      if (!script) throw httpError(DevtoolsErrors.SCRIPT_UNKNOWN, `${folder} has no ${body.kind === 'make' ? 'make target' : `${body.kind} script`} named ${JSON.stringify(body.name)}`);
      const run = d.runs.start(folder, script, d.actorOf(ctx));
      const command = commandLine(script.argv);
      if (!run) throw httpError(DevtoolsErrors.TOO_MANY_RUNS, `${d.limits.max_running} runs are running already: stop one or wait`);
      ctx.state.audit_detail = `${command} in ${folder} (run ${run.id})`;
      return { ...liveView(run, Date.now()), lines: run.output.next };
    },
  });

  http.route({
    method: 'GET', path: '/api/projectrun', role: OWNER, tags: TAGS,
    summary: 'A run and its output lines from `since` on: poll with `next` while it runs, or follow the `host.projectrun` live topic',
    description: `At most ${RUN_PAGE_LINES} lines an answer. A run no longer in memory answers from the history with its output's tail (16 KiB).`,
    query: { type: 'object', additionalProperties: false, required: ['id'], properties: { id: RUN_ID, since: { type: 'integer', minimum: 0, default: 0 } } },
    response: projectRunPage,
    async handler(ctx) {
      ctx.set('Cache-Control', 'no-store');
      const { id, since } = ctx.query as { id: string; since: number };
      const run = d.runs.get(id);
      if (run) {
        const page = run.output.since(since, RUN_PAGE_LINES);
        return { ...liveView(run, Date.now()), live: true, first: run.output.first, next: page.from + page.lines.length, lines: page.lines };
      }
      const stored = await d.history.get(id);
      if (!stored) throw httpError(DevtoolsErrors.RUN_UNKNOWN, `no run ${JSON.stringify(id)}`);
      const lines = stored.output_tail ? stored.output_tail.split('\n') : [];
      const from = Math.min(since, lines.length);
      return { ...storedView(stored), live: false, first: 0, next: lines.length, lines: lines.slice(from, from + RUN_PAGE_LINES) };
    },
  });

  http.route({
    method: 'POST', path: '/api/projectrun/stop', role: OWNER, tags: TAGS,
    summary: 'Stops a run: SIGTERM to its whole process group, SIGKILL to it 5 s later',
    body: closedObject({ id: RUN_ID }),
    response: projectRun,
    handler(ctx) {
      const { id } = ctx.request.body as { id: string };
      const run = d.runs.get(id);
      if (!run) throw httpError(DevtoolsErrors.RUN_UNKNOWN, `no run ${JSON.stringify(id)} in memory`);
      const stopping = d.runs.stop(run, d.actorOf(ctx));
      ctx.state.audit_detail = `${stopping ? 'stopping' : 'had ended:'} ${commandLine(run.script.argv)} in ${run.folder} (run ${run.id})`;
      return { ...liveView(run, Date.now()), lines: run.output.next };
    },
  });

  http.route({
    method: 'GET', path: '/api/projectruns', role: OWNER, tags: TAGS,
    summary: 'The runs in memory (running and recently ended) and the history of finished runs, newest first',
    description: `The history answers at most ${HISTORY_PAGE} runs (\`limit\`), without their output (open one with \`GET /api/projectrun?id=\`).`,
    query: { type: 'object', additionalProperties: false, properties: { limit: { type: 'integer', minimum: 1, maximum: HISTORY_PAGE, default: 50 } } },
    response: projectRuns,
    async handler(ctx) {
      const { limit } = ctx.query as { limit: number };
      const now = Date.now();
      return {
        runs: d.runs.list().map((r) => ({ ...liveView(r, now), lines: r.output.next })),
        history: (await d.history.list(limit)).map((r) => ({ ...storedView(r), lines: 0 })),
      };
    },
  });
}

