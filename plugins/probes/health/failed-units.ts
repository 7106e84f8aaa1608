import { execFile } from 'node:child_process';
import { systemdBooted } from '../host-alerts/checks/unit-check.js';

const SYSTEMCTL_TIMEOUT_MS = 5_000;

/** The names in `systemctl --failed --plain --no-legend` output: the first word of each line. */
export function parseFailedUnits(out: string): string[] {
  return out.split('\n').map((l) => l.trim().split(/\s+/)[0]).filter((u) => u && !u.startsWith('●'));
}

/** Failed system units; null where systemd does not run the machine or systemctl did not answer in 5 s. */
export async function failedUnits(root: string): Promise<string[] | null> {
  if (!(await systemdBooted(root))) return null;
  return new Promise((resolve) => {
    execFile('systemctl', ['--failed', '--plain', '--no-legend', '--no-pager'], { timeout: SYSTEMCTL_TIMEOUT_MS, maxBuffer: 1024 * 1024, env: { ...process.env, LC_ALL: 'C' } },
      (error, stdout) => resolve(error ? null : parseFailedUnits(String(stdout))));
  });
}
