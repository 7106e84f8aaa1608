// Restart: ends this process and gets the installed version running in its place. Under a service manager, the
// manager starts it again; otherwise a detached relauncher (relaunch.ts) does, once this process and its port are gone.
import { spawn } from 'node:child_process';
import { closeSync, openSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import type { RelaunchPlan } from './relaunch.js';

export type RestartMethod = 'service manager' | 'detached';

/** systemd sets INVOCATION_ID for every process it starts; the unit's `Restart=always` starts Vigil again after it stops. */
export const serviceManagerOf = (env: NodeJS.ProcessEnv): string | null => (env.INVOCATION_ID ? 'systemd' : null);

/** How long the relauncher waits for this process to end and its port to free, ms. */
const WAIT_MS = 120_000;

export interface RestartFiles {
  logFile: string;
  stateFile: string;
}

/**
 * Starts the relauncher (detached: its own session, no shared stdio, unref'd) unless a service manager runs Vigil.
 * The caller then stops this process as SIGTERM does (the runtime drains and exits), once its answer is sent.
 */
export function startRelauncher(controlPlaneUrl: string, files: RestartFiles): RestartMethod {
  if (serviceManagerOf(process.env)) return 'service manager';
  const url = new URL(controlPlaneUrl);
  const plan: RelaunchPlan = {
    pid: process.pid, host: url.hostname.replace(/^\[|\]$/g, ''), port: Number(url.port),
    command: process.execPath, args: [...process.execArgv, ...process.argv.slice(1)], cwd: process.cwd(),
    logFile: files.logFile, stateFile: files.stateFile, waitMs: WAIT_MS,
  };
  const log = openSync(files.logFile, 'a');
  const child = spawn(process.execPath, [fileURLToPath(new URL('./relaunch.js', import.meta.url)), JSON.stringify(plan)], {
    detached: true, stdio: ['ignore', log, log], cwd: process.cwd(), env: process.env,
  });
  closeSync(log);
  child.unref();
  return 'detached';
}
