import { homedir, userInfo } from 'node:os';
import type { PluginContext, PluginInstance } from '@vigil/plugin-sdk';
import type { SystoolsConfig } from './config-schema.js';
import { UserCrontab } from './cron/user-crontab.js';
import { registerCronRoutes } from './cron/cron-routes.js';
import { registerServiceRoutes } from './services/service-routes.js';
import { registerSshRoutes } from './ssh/ssh-routes.js';

export function startSystools(ctx: PluginContext, config: SystoolsConfig): PluginInstance {
  // Looked up at each action: the helper is optional, and provided when its plugin sets up.
  const privilege = () => ctx.services.find('privilege');
  const audit = (entry: Parameters<typeof ctx.http.audit>[0]) => ctx.http.audit(entry);
  registerServiceRoutes(ctx.http, { root: config.root, privilege, audit, isRoot: process.getuid?.() === 0 });
  registerCronRoutes(ctx.http, { crontab: new UserCrontab(config.crontab_user), user: config.crontab_user ?? userInfo().username, audit });
  registerSshRoutes(ctx.http, { home: config.home ? ctx.resolvePath(config.home) : homedir(), audit });
  return { start: () => undefined, stop: () => undefined };
}
