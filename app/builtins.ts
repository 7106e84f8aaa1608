import type { PluginDefinition } from '@vigil/plugin-sdk';

/**
 * The built-in plugins, in a stable order. Each is imported lazily so a command that needs none of them stays fast;
 * `loadBuiltins` imports them all (config composition and `vigil schema` need every schema).
 */
const loaders: Record<string, () => Promise<{ default: PluginDefinition }>> = {
  governance: () => import('../plugins/governance/index.js'),
  exporters: () => import('../plugins/exporters/index.js'),
  capture: () => import('../plugins/capture/index.js'),
  proxy: () => import('../plugins/proxy/index.js'),
  ui: () => import('../plugins/ui/index.js'),
  llm: () => import('../plugins/llm/index.js'),
  evaluators: () => import('../plugins/evaluators/index.js'),
  apitools: () => import('../plugins/apitools/index.js'),
};

export async function loadBuiltins(): Promise<PluginDefinition[]> {
  return Promise.all(Object.values(loaders).map(async (load) => (await load()).default));
}
