import { execFile } from 'node:child_process';
import { access } from 'node:fs/promises';
import { join } from 'node:path';
import { CheckUnavailable, type CheckLook } from './check.js';

/** A unit name as systemd allows it (systemd.unit(5)); never starting with `-`, so it cannot read as an option. */
export const UNIT_NAME = /^[A-Za-z0-9_:.@\\][A-Za-z0-9_:.@\\-]{0,255}$/;
/** `systemctl is-active` answers at once; a hung bus must not hold a tick. */
const SYSTEMCTL_TIMEOUT_MS = 5_000;

/** Whether systemd runs this machine: it creates /run/systemd/system at boot (sd_booted(3) checks the same). */
export async function systemdBooted(root: string): Promise<boolean> {
  try {
    await access(join(root, 'run/systemd/system'));
    return true;
  } catch {
    return false;
  }
}

function systemctl(args: string[]): Promise<{ code: number; out: string; err: string }> {
  return new Promise((resolve, reject) => {
    execFile('systemctl', args, { timeout: SYSTEMCTL_TIMEOUT_MS, maxBuffer: 64 * 1024, env: { ...process.env, SYSTEMD_PAGER: '', LC_ALL: 'C' } }, (error, stdout, stderr) => {
      const e = error as (NodeJS.ErrnoException & { code?: number | string; killed?: boolean }) | null;
      if (e?.code === 'ENOENT') return reject(new CheckUnavailable('systemctl is not installed: this machine has no systemd'));
      if (e?.killed) return reject(new CheckUnavailable(`systemctl did not answer within ${SYSTEMCTL_TIMEOUT_MS / 1000} s`));
      resolve({ code: typeof e?.code === 'number' ? e.code : 0, out: String(stdout).trim(), err: String(stderr).trim() });
    });
  });
}

/**
 * 1 when the unit is active, else 0: `systemctl [--user] is-active -- <unit>` (no shell). A machine without systemd,
 * or a user unit without a user session bus, cannot be checked, and says so.
 */
export async function lookAtUnit(root: string, unit: string, user: boolean): Promise<CheckLook> {
  if (!UNIT_NAME.test(unit)) throw new CheckUnavailable(`"${unit}" is not a systemd unit name`);
  if (!(await systemdBooted(root))) throw new CheckUnavailable('systemd does not run this machine (no /run/systemd/system): unit rules cannot be checked here');
  const r = await systemctl([...(user ? ['--user'] : []), 'is-active', '--', unit]);
  const state = r.out.split('\n')[0] ?? '';
  if (!state) throw new CheckUnavailable(`systemctl${user ? ' --user' : ''} could not tell: ${r.err || `exit code ${r.code}`}`);
  return { value: state === 'active' ? 1 : 0, detail: `${user ? 'user unit' : 'unit'} ${unit} is ${state}` };
}
