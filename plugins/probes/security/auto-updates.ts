import { listDir, readText } from '../proc/read-text.js';

export interface AutoUpdates {
  /** The mechanism found: unattended-upgrades (Debian, Ubuntu), dnf-automatic (Fedora, RHEL), or none. */
  tool: 'unattended-upgrades' | 'dnf-automatic' | null;
  enabled: boolean;
  /** Where the answer was read, for the page to quote. */
  source: string | null;
}

/**
 * Whether security updates install by themselves. unattended-upgrades runs when it is installed and apt's
 * `APT::Periodic::Unattended-Upgrade` is not "0" in /etc/apt/apt.conf.d (the last file to set it wins, as apt reads
 * them in order); dnf-automatic when its timer is enabled (a link in timers.target.wants).
 */
export async function readAutoUpdates(root: string): Promise<AutoUpdates> {
  const hasUnattended = (await readText(root, '/usr/bin/unattended-upgrade')) !== undefined
    || (await listDir(root, '/etc/apt/apt.conf.d')).includes('50unattended-upgrades');
  if (hasUnattended) {
    let value: string | undefined;
    let source: string | null = null;
    for (const file of await listDir(root, '/etc/apt/apt.conf.d')) {
      const text = await readText(root, `/etc/apt/apt.conf.d/${file}`);
      const m = text === undefined ? null : /^\s*APT::Periodic::Unattended-Upgrade\s+"([^"]*)"\s*;/m.exec(stripComments(text));
      if (m) { value = m[1]; source = `/etc/apt/apt.conf.d/${file}`; }
    }
    return { tool: 'unattended-upgrades', enabled: value !== undefined && value !== '0', source };
  }
  const wants = await listDir(root, '/etc/systemd/system/timers.target.wants');
  const timer = wants.find((w) => w.startsWith('dnf-automatic'));
  if (timer || (await readText(root, '/usr/bin/dnf-automatic')) !== undefined) {
    return { tool: 'dnf-automatic', enabled: timer !== undefined, source: timer ? `/etc/systemd/system/timers.target.wants/${timer}` : null };
  }
  return { tool: null, enabled: false, source: null };
}

/** apt.conf's comments: `//` to the end of a line and `#` lines. */
function stripComments(text: string): string {
  return text.split('\n').map((l) => (l.trimStart().startsWith('#') ? '' : l.replace(/\/\/.*$/, ''))).join('\n');
}
