import { homedir } from 'node:os';
import { parseDuration, type PluginContext, type PluginInstance, type RouteContext } from '@vigil/plugin-sdk';
import type { DevtoolsConfig } from './config-schema.js';
import { FolderRoots } from './folder-roots.js';
import { registerGnomeRoutes } from './gnome/gnome-routes.js';
import { Gsettings } from './gnome/gsettings.js';
import { registerLauncherRoutes } from './launcher-routes.js';
import { devtoolsMigrations } from './migrations.js';
import { commandLine } from './project-script.js';
import { RunHistory } from './run-history.js';
import { RunRegistry, type RunLiveMessage } from './run-registry.js';

/** The live stream topic a page follows a run's output on (`GET /api/ui/stream?topics=host.projectrun`). */
export const RUN_TOPIC = 'host.projectrun';

function actorOf(ctx: RouteContext): string {
  const p = ctx.state.auth;
  if (!p) return 'vigil';
  return p.user?.email ?? (p.user ? 'dashboard token' : p.scheme);
}

export async function startDevtools(ctx: PluginContext, config: DevtoolsConfig): Promise<PluginInstance> {
  await ctx.store.migrate(devtoolsMigrations);
  const roots = await FolderRoots.resolve((config.roots ?? [homedir()]).map((r) => ctx.resolvePath(r)));
  const timeoutMs = parseDuration(config.run_timeout);
  const history = new RunHistory(ctx.store, config.history_keep);
  const runs = new RunRegistry({
    limits: { maxRunning: config.max_running, timeoutMs, outputCapBytes: config.output_cap_kib * 1024 },
    history,
    // The user's own environment: their scripts need PATH, HOME and their tool settings. Vigil's make flags are not theirs.
    env: () => {
      const env = { ...process.env };
      for (const k of ['MAKEFLAGS', 'MFLAGS', 'MAKELEVEL']) delete env[k];
      return env;
    },
    publish: (message: RunLiveMessage) => {
      if (ctx.bus.hasSubscribers('ui.event')) ctx.bus.publish('ui.event', { topic: RUN_TOPIC, data: message });
    },
    onRecordFailed: (run, err) => ctx.log.warn('a finished run could not be written to the history', { run: run.id, error: err.message }),
    onEnd: (run) => {
      const seconds = ((run.endedAt ?? run.startedAt) - run.startedAt) / 1000;
      const how = run.state === 'succeeded' ? 'exit 0' : run.state === 'failed' ? `exit ${run.exitCode ?? run.signal}` : run.state.replace('_', ' ');
      void ctx.http.audit({
        principal: undefined, action: 'host project-run ended', target: `${commandLine(run.script.argv)} in ${run.folder}`,
        status: run.state === 'succeeded' ? 200 : run.state === 'failed' ? 500 : 499,
        detail: `run ${run.id} by ${run.actor}: ${how} after ${seconds.toFixed(1)} s${run.note ? `, ${run.note}` : ''}`,
      }).catch(() => undefined);
    },
  });
  registerLauncherRoutes(ctx.http, {
    roots, runs, history, actorOf,
    limits: { max_running: config.max_running, timeout_s: Math.round(timeoutMs / 1000), output_cap_kib: config.output_cap_kib, history_keep: config.history_keep },
  });
  registerGnomeRoutes(ctx.http, new Gsettings());
  let stopped = false;
  return {
    start: () => undefined,
    async stop() {
      if (stopped) return;
      stopped = true;
      await runs.stopAll();
    },
  };
}
