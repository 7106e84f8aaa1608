import { isDeepStrictEqual } from 'node:util';
import { coreConfigSchema } from './config/index.js';
import type { PluginEntry } from './plugins/host.js';
import type { RuntimePlan } from './plan.js';

/** What a changed config file asks of a running runtime. */
export interface ReloadPlan {
  /**
   * Plugins whose section changed, or a file it reads, and which can take it live (`PluginInstance.reload`), with
   * the new section.
   */
  reload: PluginEntry[];
  /** What changed that only a restart applies: core keys, and plugins enabled, disabled or without `reload`. */
  restart: string[];
}

/**
 * Compares the running plan with the file's new one. Core keys (listeners, storage, logging, the plugin list) are
 * read once at start; a plugin's section can change live when the running plugin says it can.
 */
export function planReload(running: RuntimePlan, next: RuntimePlan, canReload: (plugin: string) => boolean): ReloadPlan {
  const restart: string[] = [];
  const core = running.core as unknown as Record<string, unknown>;
  const nextCore = next.core as unknown as Record<string, unknown>;
  // `core` is the whole file as read: its own keys are the core schema's, the rest are plugin sections.
  for (const key of Object.keys(coreConfigSchema.properties ?? {})) {
    // A third-party plugin's `with` is its section, compared below; the list itself is which plugins run.
    const same = key === 'plugins' ? isDeepStrictEqual(uses(core[key]), uses(nextCore[key])) : isDeepStrictEqual(core[key], nextCore[key]);
    if (!same) restart.push(key);
  }
  const before = new Map(running.entries.map((e) => [e.def.name, e]));
  const after = new Map(next.entries.map((e) => [e.def.name, e]));
  for (const name of before.keys()) if (!after.has(name)) restart.push(`${name} (disabled)`);
  for (const name of after.keys()) if (!before.has(name)) restart.push(`${name} (enabled)`);
  const reload: PluginEntry[] = [];
  for (const [name, entry] of after) {
    const was = before.get(name);
    // A file the section reads (`configFiles`) that changed is a change of the section, though its text is the same.
    if (!was || (isDeepStrictEqual(was.config, entry.config) && isDeepStrictEqual(was.files, entry.files))) continue;
    if (canReload(name)) reload.push(entry);
    else restart.push(sectionOf(entry));
  }
  return { reload, restart };
}

const uses = (plugins: unknown): unknown[] => (Array.isArray(plugins) ? plugins.map((p: { use?: unknown }) => p?.use) : []);
/** How the file names a plugin's section: a built-in's top-level keys, a third-party plugin's name. */
const sectionOf = (entry: PluginEntry): string => (entry.def.configKeys ?? [entry.def.name]).join(', ');
