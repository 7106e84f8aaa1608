import { mkdirSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { userInfo } from 'node:os';
import { isAbsolute, join } from 'node:path';
import { parseDuration, type PluginContext, type PluginInstance } from '@vigil/plugin-sdk';
import type { PrivilegeConfig } from './config-schema.js';
import { findElevation } from './elevation.js';
import { JobRegistry } from './job-registry.js';
import { PasswordCache } from './password-cache.js';
import { Privilege } from './privilege-service.js';
import { registerPrivilegeRoutes } from './routes.js';

/** The 22nd field of /proc/<pid>/stat: when the process started, in clock ticks since boot; null when it is gone. */
async function readStartTime(pid: number): Promise<string | null> {
  try {
    const stat = await readFile(`/proc/${pid}/stat`, 'utf8');
    // The command name (field 2) can hold spaces and parentheses: count fields after its last ')'.
    return stat.slice(stat.lastIndexOf(')') + 2).split(' ')[19] ?? null;
  } catch {
    return null;
  }
}

export async function startPrivilege(ctx: PluginContext, config: PrivilegeConfig): Promise<PluginInstance> {
  const user = userInfo().username;
  const elevation = await findElevation(config.method, process.getuid?.() ?? -1);
  const captureDir = config.capture_dir ? (isAbsolute(config.capture_dir) ? config.capture_dir : ctx.resolvePath(config.capture_dir)) : join(ctx.dataDir, 'captures');
  mkdirSync(captureDir, { recursive: true, mode: 0o700 });
  const passwords = new PasswordCache(parseDuration(config.password_ttl), (principal, onEnd) => ctx.http.whenSessionEnds(principal, onEnd));
  ctx.metrics.gauge('passwords_held', { help: 'Sessions whose sudo password is held in memory now.', collect: (g) => g.set(passwords.size) });
  const jobs = new JobRegistry();
  const privilege = new Privilege({
    elevation, passwords, jobs, log: ctx.log,
    settings: { aptOptions: config.apt_options, captureDir, user, ownPid: process.pid, readStartTime },
    audit: (entry) => ctx.http.audit(entry),
  });
  ctx.services.provide('privilege', privilege);
  registerPrivilegeRoutes(ctx.http, { privilege, passwords, jobs, elevation });
  ctx.log.info('host actions', { method: elevation.method, password_needed: elevation.passwordNeeded, note: elevation.note ?? undefined });
  return {
    start: () => undefined,
    stop: () => {
      jobs.cancelAll();
      passwords.clear();
    },
  };
}
