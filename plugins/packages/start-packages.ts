import type { PluginContext, PluginInstance } from '@vigil/plugin-sdk';
import { findManagers } from './managers.js';
import { PackageLists } from './package-list.js';
import { readApt } from './read-apt.js';
import { readOther } from './read-others.js';
import { registerPackageRoutes } from './routes.js';

export async function startPackages(ctx: PluginContext): Promise<PluginInstance> {
  const privilege = ctx.services.get('privilege');
  const managers = await findManagers();
  const lists = new PackageLists((manager, updates, signal) => (manager === 'apt'
    ? readApt({ aptOptions: privilege.aptOptions, updates, signal })
    : readOther(manager, updates, signal)));
  registerPackageRoutes(ctx.http, { lists, managers, privilege });
  return { start: () => undefined, stop: () => lists.stop() };
}
