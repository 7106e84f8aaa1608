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
  alerts: () => import('../plugins/alerts/index.js'),
  channels: () => import('../plugins/channels/index.js'),
  probes: () => import('../plugins/probes/index.js'),
  fleet: () => import('../plugins/fleet/index.js'),
  terminal: () => import('../plugins/terminal/index.js'),
  network: () => import('../plugins/network/index.js'),
  files: () => import('../plugins/files/index.js'),
  privilege: () => import('../plugins/privilege/index.js'),
  systools: () => import('../plugins/systools/index.js'),
  packages: () => import('../plugins/packages/index.js'),
  dbbrowser: () => import('../plugins/dbbrowser/index.js'),
  selfupdate: () => import('../plugins/selfupdate/index.js'),
  apiclient: () => import('../plugins/apiclient/index.js'),
  devtools: () => import('../plugins/devtools/index.js'),
  assistant: () => import('../plugins/assistant/index.js'),
  containers: () => import('../plugins/containers/index.js'),
};

export async function loadBuiltins(): Promise<PluginDefinition[]> {
  return Promise.all(Object.values(loaders).map(async (load) => (await load()).default));
}
