import type { PluginDefinition } from '@vigil/plugin-sdk';
import { PluginError, PluginErrors } from './errors.js';

/** Core services a plugin may list in `needs`; they are not provided by plugins. */
export const CORE_SERVICES = new Set(['store', 'http', 'jobs', 'workers', 'sandbox']);

/**
 * Orders plugins so that every provider comes before the plugins that need it (downstream first: a consumer of
 * records starts before their producer). A plugin implicitly provides its own name. Ties keep config order.
 */
export function orderPlugins(plugins: readonly PluginDefinition[]): PluginDefinition[] {
  const providerOf = new Map<string, PluginDefinition>();
  for (const p of plugins) {
    for (const s of [p.name, ...(p.provides ?? [])]) {
      const other = providerOf.get(s);
      if (other && other !== p) {
        throw new PluginError(PluginErrors.DUPLICATE, p.name, `plugins ${other.name} and ${p.name} both provide "${s}"; enable only one of them`);
      }
      providerOf.set(s, p);
    }
  }
  const deps = new Map<PluginDefinition, PluginDefinition[]>();
  for (const p of plugins) {
    const list: PluginDefinition[] = [];
    for (const need of p.needs ?? []) {
      if (CORE_SERVICES.has(need)) continue;
      const provider = providerOf.get(need);
      if (!provider) {
        throw new PluginError(PluginErrors.DEPENDENCY, p.name,
          `plugin ${p.name} needs "${need}", which no enabled plugin provides; add the plugin that provides it to the config`);
      }
      if (provider !== p) list.push(provider);
    }
    for (const opt of p.optional ?? []) {
      const provider = providerOf.get(opt);
      if (provider && provider !== p) list.push(provider);
    }
    deps.set(p, list);
  }
  const ordered: PluginDefinition[] = [];
  const state = new Map<PluginDefinition, 'visiting' | 'done'>();
  const visit = (p: PluginDefinition, path: string[]) => {
    const s = state.get(p);
    if (s === 'done') return;
    if (s === 'visiting') {
      throw new PluginError(PluginErrors.CYCLE, p.name, `plugin dependency cycle: ${[...path, p.name].join(' -> ')}`);
    }
    state.set(p, 'visiting');
    for (const d of deps.get(p) ?? []) visit(d, [...path, p.name]);
    state.set(p, 'done');
    ordered.push(p);
  };
  for (const p of plugins) visit(p, []);
  return ordered;
}

/**
 * Built-in plugins to enable: those whose config keys are present, plus every built-in that an enabled plugin
 * needs (transitively). Optional services do not enable anything.
 */
export function enabledBuiltins(
  builtins: readonly PluginDefinition[],
  configKeys: ReadonlySet<string>,
  thirdParty: readonly PluginDefinition[],
): PluginDefinition[] {
  const byService = new Map<string, PluginDefinition>();
  for (const b of builtins) for (const s of [b.name, ...(b.provides ?? [])]) byService.set(s, b);
  const enabled = new Set<PluginDefinition>();
  const pending: PluginDefinition[] = [];
  const enable = (p: PluginDefinition) => { if (!enabled.has(p)) { enabled.add(p); pending.push(p); } };
  for (const b of builtins) if ((b.configKeys ?? [b.name]).some((k) => configKeys.has(k))) enable(b);
  const walk = (p: PluginDefinition) => {
    for (const need of p.needs ?? []) {
      const b = byService.get(need);
      if (b) enable(b);
    }
  };
  for (const t of thirdParty) walk(t);
  while (pending.length) walk(pending.pop()!);
  return builtins.filter((b) => enabled.has(b));
}
