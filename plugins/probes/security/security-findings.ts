import type { FirewallState, ReachableListener } from '@vigil/plugin-sdk';
import type { PendingUpdates } from '../health/pending-updates.js';
import type { AdminAccounts } from './admin-accounts.js';
import type { AuthFailures } from './auth-failures.js';
import type { AutoUpdates } from './auto-updates.js';
import type { SshdSettings } from './sshd-config.js';

/** What the security overview judges; a fact that could not be read is null (and the page says so). */
export interface SecurityFacts {
  sshd: SshdSettings | null;
  admins: AdminAccounts | null;
  failures: AuthFailures | null;
  autoUpdates: AutoUpdates;
  updates: PendingUpdates | null;
  /** Null without the network plugin. */
  listeners: ReachableListener[] | null;
  /** Undefined without the network plugin; null when it found no firewall tool. */
  firewall: FirewallState | null | undefined;
}

export interface SecurityFinding {
  severity: 'critical' | 'warning' | 'info';
  /** Sorts findings of one severity: the larger, the worse. */
  weight: number;
  title: string;
  detail: string;
  /** The tab that can fix it or show more. */
  path: string;
  /** What that tab does about it: `terminal` (edit a file, install a package), `ports` (see who listens), `overview` (read on here). */
  action: 'terminal' | 'ports' | 'overview' | 'updates';
}

/** Attempts from one address in a week past which it is a storm, not a typo. */
const STORM_ATTEMPTS = 100;
/** Ports that should never face the network unguarded: remote desktops, databases, caches, Docker's API. */
const RISKY_PORTS: Record<number, string> = {
  23: 'telnet', 2375: 'the Docker API without TLS', 3306: 'MySQL', 3389: 'RDP', 5432: 'PostgreSQL', 5900: 'VNC',
  6379: 'Redis', 9200: 'Elasticsearch', 11211: 'memcached', 27017: 'MongoDB',
};

const ACTION_OF_PATH: Record<string, SecurityFinding['action']> = { '/host/terminal': 'terminal', '/host/network': 'ports', '/host/security': 'overview', '/host/packages?updatable=1': 'updates' };
const finding = (severity: SecurityFinding['severity'], weight: number, title: string, detail: string, path: string): SecurityFinding => ({ severity, weight, title, detail, path, action: ACTION_OF_PATH[path] });
const plural = (n: number, one: string, many = `${one}s`) => `${n.toLocaleString('en-US')} ${n === 1 ? one : many}`;

/** Every finding, worst first: severity, then weight. */
export function securityFindings(x: SecurityFacts): SecurityFinding[] {
  const out: SecurityFinding[] = [];
  if (x.sshd) {
    const { permitRootLogin: root, passwordAuthentication: password, permitEmptyPasswords: empty } = x.sshd;
    if (empty === 'yes') out.push(finding('critical', 100, 'SSH accepts empty passwords', 'PermitEmptyPasswords is yes: an account without a password can log in from the network. Set it to no in /etc/ssh/sshd_config and restart sshd.', '/host/terminal'));
    if (root === 'yes' && password === 'yes') out.push(finding('critical', 90, 'SSH lets root log in with a password', 'PermitRootLogin yes with PasswordAuthentication yes: root\'s password is one guess away from the network. Set PermitRootLogin prohibit-password (keys only) or no.', '/host/terminal'));
    else if (root === 'yes') out.push(finding('warning', 60, 'SSH lets root log in', 'PermitRootLogin is yes. Keys only (prohibit-password) or no is safer; log in as a user and use sudo.', '/host/terminal'));
    if (password === 'yes') out.push(finding('warning', 50, 'SSH accepts passwords', 'PasswordAuthentication is yes: passwords can be guessed from the network. With keys set up, set it to no.', '/host/terminal'));
  }
  if (x.failures) {
    const storms = x.failures.sources.filter((s) => s.kind === 'ssh' && s.attempts >= STORM_ATTEMPTS);
    const ssh = x.failures.sources.filter((s) => s.kind === 'ssh').reduce((n, s) => n + s.attempts, 0);
    const sudo = x.failures.sources.filter((s) => s.kind === 'sudo').reduce((n, s) => n + s.attempts, 0);
    if (storms.length) out.push(finding('warning', 55, `${plural(storms.length, 'address', 'addresses')} tried SSH passwords ${STORM_ATTEMPTS}+ times this week`, `The worst, ${storms[0].source}, tried ${plural(storms[0].attempts, 'time')}. Turn off password logins, or block the addresses in the firewall (fail2ban does it by itself).`, '/host/security'));
    else if (ssh) out.push(finding('info', 20, `${plural(ssh, 'failed SSH login')} this week`, 'Someone tried and failed to log in over SSH. Listed below by address.', '/host/security'));
    if (sudo) out.push(finding('info', 15, `${plural(sudo, 'wrong sudo password')} this week`, 'A local account typed a wrong password for sudo, or is not allowed to use it. Listed below by account.', '/host/security'));
  }
  if (x.admins?.uidZero.length) out.push(finding('critical', 95, `${x.admins.uidZero.join(', ')} ${x.admins.uidZero.length === 1 ? 'has' : 'have'} user id 0`, 'An account other than root with user id 0 is root under another name; unless you made it on purpose, it is a backdoor.', '/host/security'));
  if (x.updates?.security) out.push(finding('warning', 70, `${plural(x.updates.security, 'security update')} pending`, 'Fixes for known holes are waiting to be installed.', '/host/packages?updatable=1'));
  if (x.autoUpdates.tool === null) out.push(finding('info', 10, 'Security updates do not install by themselves', 'Install unattended-upgrades (Debian, Ubuntu) or dnf-automatic (Fedora, RHEL) so fixes arrive without you.', '/host/terminal'));
  else if (!x.autoUpdates.enabled) out.push(finding('warning', 40, `${x.autoUpdates.tool} is installed but off`, x.autoUpdates.tool === 'unattended-upgrades' ? 'Set APT::Periodic::Unattended-Upgrade "1" (dpkg-reconfigure unattended-upgrades does it).' : 'Enable its timer: systemctl enable --now dnf-automatic.timer.', '/host/terminal'));
  if (x.listeners) {
    const risky = x.listeners.filter((l) => RISKY_PORTS[l.port] !== undefined);
    const guarded = x.firewall?.active === true;
    for (const l of risky) {
      out.push(finding(guarded ? 'info' : 'warning', guarded ? 25 : 65, `${RISKY_PORTS[l.port]} listens on ${l.address}:${l.port}`, guarded ? 'The firewall is on; check that its rules keep this port to trusted addresses.' : 'It can be reached from the network and no firewall is on. Bind it to 127.0.0.1 or allow only trusted addresses.', '/host/network'));
    }
    if (x.firewall !== undefined && !guarded && x.listeners.length) {
      out.push(x.firewall === null
        ? finding('warning', 45, `No firewall, ${plural(x.listeners.length, 'port')} open to the network`, 'No firewall tool is installed (ufw, firewalld or nftables); every listening port can be reached.', '/host/network')
        : finding('warning', 45, `${x.firewall.tool} is installed but not enabled`, `Its rules are not enforced; ${plural(x.listeners.length, 'port')} can be reached from the network.`, '/host/network'));
    }
  }
  const order = { critical: 0, warning: 1, info: 2 };
  return out.sort((a, b) => order[a.severity] - order[b.severity] || b.weight - a.weight);
}
