import { resolve } from 'node:path';
import type { JsonSchema, PluginDefinition } from '@vigil/plugin-sdk';
import { ConfigValueError, fileDigests } from '@vigil/plugin-sdk';
import {
  ConfigErrors, ConfigError, coreConfigSchema, composeSchema, formatKeyPath, loadConfigFile, validateSection,
  type ConfigProblem, type LoadedConfig,
} from './config/index.js';
import type { Composition } from './composition.js';
import { enabledBuiltins, orderPlugins } from './plugins/order.js';
import { loadThirdPartyPlugin } from './plugins/resolve.js';
import type { PluginEntry } from './plugins/host.js';
import type { CoreConfig } from './core-config.js';

/** Everything decided before anything starts: the validated core config and the ordered, configured plugins. */
export interface RuntimePlan {
  file?: string;
  dir: string;
  core: CoreConfig;
  entries: PluginEntry[];
  loaded: LoadedConfig;
}

export interface PlanOptions {
  /** The built-in plugins the file may enable (and the product's other parts). */
  composition: Composition;
  env?: NodeJS.ProcessEnv;
  /** Plugins given as code (the SDK's test harness), each with its config. */
  extraPlugins?: { def: PluginDefinition; config?: unknown }[];
}

/** Splits a built-in plugin's schema into one schema per owned top-level key. */
function sectionsOf(def: PluginDefinition): { key: string; schema: JsonSchema }[] {
  const keys = def.configKeys ?? [def.name];
  const schema = def.configSchema ?? { type: 'object', properties: {} };
  if (keys.length === 1) return [{ key: keys[0], schema }];
  const props = (schema.properties ?? {}) as Record<string, JsonSchema>;
  return keys.map((key) => ({ key, schema: props[key] ?? {} }));
}

/** The JSON Schema of the whole file, printed by `vigil schema`. */
export async function fullSchema(composition: Composition): Promise<JsonSchema> {
  const builtins = await composition.builtins();
  return composeSchema(coreConfigSchema, builtins.flatMap(sectionsOf));
}

const emptyConfig = (schema: JsonSchema | undefined): unknown =>
  schema?.default !== undefined ? structuredClone(schema.default) : schema?.type === 'array' ? [] : {};

function collect(problems: ConfigProblem[], fn: () => void): void {
  try { fn(); } catch (err) {
    if (err instanceof ConfigError) problems.push(...err.problems);
    else throw err;
  }
}

/** Runs a plugin's `checkConfig`; a ConfigValueError becomes a problem placed in the file under `prefix`. */
function check(problems: ConfigProblem[], loaded: LoadedConfig, def: PluginDefinition, prefix: (string | number)[], value: unknown): void {
  try {
    def.checkConfig?.(value, { resolvePath: (p) => resolve(loaded.dir, p) });
  } catch (err) {
    if (!(err instanceof ConfigValueError)) throw err;
    const path = [...prefix, ...err.keyPath];
    const at = loaded.locate(path);
    problems.push({
      code: ConfigErrors.VALUE, file: loaded.file, line: at?.line ?? 0, column: at?.column ?? 0,
      keyPath: formatKeyPath(path), message: `${formatKeyPath(path)}: ${err.message}`,
    });
  }
}

/** Where key paths of a section at `prefix` are written: the key when it has one, else its value (a list item). */
function sectionLocator(loaded: LoadedConfig, prefix: (string | number)[]): PluginEntry['locate'] {
  return (keyPath) => {
    const path = [...prefix, ...keyPath];
    return loaded.locate(path, 'key') ?? loaded.locate(path);
  };
}

/**
 * Loads and validates a config file and every plugin section it enables. Throws one ConfigError holding every
 * problem found (exit code 2 at the CLI), or a PluginError when a plugin cannot be found or loaded.
 */
export async function planRuntime(file: string, options: PlanOptions): Promise<RuntimePlan> {
  const loaded = loadConfigFile(resolve(file), options.env ?? process.env);
  const builtins = await options.composition.builtins();
  const data = loaded.data as Record<string, unknown>;
  const problems: ConfigProblem[] = [];

  // Pass 1: the core keys strictly; built-in sections only by name (each is checked against its own schema below).
  const loose = builtins.flatMap(sectionsOf).map(({ key }) => ({ key, schema: {} as JsonSchema }));
  collect(problems, () => validateSection(loaded, [], composeSchema(coreConfigSchema, loose), data));
  if (problems.length) throw new ConfigError(problems);
  const core = data as unknown as CoreConfig;

  const thirdParty: PluginEntry[] = [];
  for (const [i, spec] of core.plugins.entries()) {
    const def = await loadThirdPartyPlugin(spec.use, loaded.dir, `plugins[${i}].use`);
    const value = spec.with ?? emptyConfig(def.configSchema);
    if (def.configSchema) collect(problems, () => validateSection(loaded, ['plugins', i, 'with'], def.configSchema!, value));
    if (!problems.length) check(problems, loaded, def, ['plugins', i, 'with'], value);
    thirdParty.push({ def, config: value, locate: sectionLocator(loaded, ['plugins', i, 'with']) });
  }
  for (const extra of options.extraPlugins ?? []) {
    const value = extra.config ?? emptyConfig(extra.def.configSchema);
    if (extra.def.configSchema) collect(problems, () => validateSection(loaded, [extra.def.name], extra.def.configSchema!, value));
    thirdParty.push({ def: extra.def, config: value, locate: sectionLocator(loaded, [extra.def.name]) });
  }

  const enabled = enabledBuiltins(builtins, new Set(Object.keys(data)), thirdParty.map((t) => t.def));
  const builtinEntries: PluginEntry[] = enabled.map((def) => {
    const keys = def.configKeys ?? [def.name];
    // One key: the section is that key's value. Several: an object holding those keys, checked at the top level.
    const prefix = keys.length === 1 ? [keys[0]] : [];
    const value = keys.length === 1
      ? data[keys[0]] ?? emptyConfig(def.configSchema)
      : Object.fromEntries(keys.filter((k) => data[k] !== undefined).map((k) => [k, data[k]]));
    const before = problems.length;
    if (def.configSchema) collect(problems, () => validateSection(loaded, prefix, def.configSchema!, value));
    if (problems.length === before) check(problems, loaded, def, prefix, value);
    return { def, config: value, locate: sectionLocator(loaded, prefix) };
  });
  if (problems.length) throw new ConfigError(problems);

  const all = [...builtinEntries, ...thirdParty];
  const ordered = orderPlugins(all.map((e) => e.def));
  const resolvePath = (p: string) => resolve(loaded.dir, p);
  const entries = ordered.map((def) => {
    const entry = all.find((e) => e.def === def)!;
    const files = def.configFiles?.(entry.config, { resolvePath });
    return files?.length ? { ...entry, files: fileDigests(files) } : entry;
  });
  return { file: loaded.file, dir: loaded.dir, core, entries, loaded };
}
