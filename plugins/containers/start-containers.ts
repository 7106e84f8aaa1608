import { parseDuration, type PluginContext, type PluginInstance } from '@vigil/plugin-sdk';
import type { ContainersConfig } from './config-schema.js';
import { detectEngines, placesOf } from './environments.js';
import { LIST_PARSE_TASK_URL, offloadingParser } from './list-parse.js';
import { registerContainerRoutes } from './routes.js';
import { registerShellSource } from './shell-source.js';
import { ENGINE_KINDS, type ListFormat, type ParsedList } from './types.js';

export function startContainers(ctx: PluginContext, config: ContainersConfig): PluginInstance {
  const places = placesOf(config, process.env, (p) => ctx.resolvePath(p));
  // Looked for at each request (a few access() calls): a daemon started after Vigil shows up without a restart.
  // Large list answers (many containers or pods) are parsed off the event loop; one thread, a short queue.
  const pool = ctx.workers.pool<{ format: ListFormat; body: Uint8Array }, ParsedList>({
    filename: LIST_PARSE_TASK_URL, name: 'containers-list', minThreads: 0, maxThreads: 1, maxQueue: 16,
    resourceLimits: { maxOldGenerationSizeMb: 256 },
  });
  const parse = offloadingParser((task) => pool.run(task));
  const engines = () => detectEngines(places, config.kube_context, parse);
  ctx.services.provide('containers', { engines: async () => (await engines()).map((e) => e.kind) });
  registerContainerRoutes(ctx.http, {
    engines,
    lookedFor: () => ENGINE_KINDS.map((kind) => ({
      kind, places: kind === 'nerdctl' && !(config.nerdctl ?? '').includes('/') ? [`${config.nerdctl ?? 'nerdctl'} on PATH`] : places[kind],
    })),
    timeoutMs: parseDuration(config.timeout),
    actionTimeoutMs: parseDuration(config.action_timeout),
    logs: { tail: config.logs.tail, max_tail: config.logs.max_tail, max_bytes: config.logs.max_bytes, follow_ms: parseDuration(config.logs.follow_for) },
    audit: (entry) => ctx.http.audit(entry),
  });
  const unregister = registerShellSource(ctx, engines, parseDuration(config.timeout));
  return { start: () => undefined, stop: () => unregister?.() };
}
