import { existsSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseDuration, type PluginContext, type PluginInstance } from '@vigil/plugin-sdk';
import type { SelfUpdateConfig } from './config-schema.js';
import { registerSelfUpdateRoutes } from './routes.js';
import { Updater } from './updater.js';

/** The package this Vigil runs from: the folder above dist/ (or above plugins/ when run from sources) with vigil's package.json. */
function runningPackageRoot(): string {
  const here = dirname(fileURLToPath(import.meta.url));
  for (const candidate of [join(here, '..', '..', '..'), join(here, '..', '..')]) {
    try {
      if ((JSON.parse(readFileSync(join(candidate, 'package.json'), 'utf8')) as { name?: string }).name === 'vigil') return candidate;
    } catch { /* try the next */ }
  }
  return join(here, '..', '..', '..');
}

export async function startSelfUpdate(ctx: PluginContext, config: SelfUpdateConfig): Promise<PluginInstance> {
  const installDir = config.install_dir ? ctx.resolvePath(config.install_dir) : runningPackageRoot();
  // A configured folder is judged by itself; the running one as the runtime judged it.
  const installMethod = config.install_dir ? (existsSync(join(installDir, '.git')) ? 'git checkout' : installDirMethod(installDir)) : ctx.runtime.installMethod;
  const keyFile = config.public_key ? ctx.resolvePath(config.public_key) : undefined;
  const updater = new Updater({
    installDir, installMethod, runningVersion: ctx.runtime.version, releaseUrl: config.release_url, keyFile,
    requestTimeoutMs: parseDuration(config.request_timeout), stepTimeoutMs: parseDuration(config.step_timeout), workRoot: ctx.dataDir,
  });
  await updater.init();
  registerSelfUpdateRoutes(ctx.http, {
    updater, keyShown: keyFile ?? null,
    controlPlaneUrl: () => ctx.runtime.controlPlaneUrl(),
    restartFiles: { logFile: join(ctx.dataDir, 'restart.log'), stateFile: join(ctx.dataDir, 'restart.json') },
    audit: (entry) => ctx.http.audit(entry),
    stopProcess: () => process.kill(process.pid, 'SIGTERM'),
  });
  return { start: () => undefined, stop: () => undefined };
}

function installDirMethod(dir: string) {
  return dir.includes('/node_modules/') ? 'npm package' as const : 'source tree' as const;
}
