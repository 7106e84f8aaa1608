import type { HostNetworkService } from '@vigil/plugin-sdk';
import type { Finding } from '../health/findings.js';
import type { PendingUpdatesCache } from '../health/pending-updates.js';
import { readAdminAccounts } from './admin-accounts.js';
import { readAuthFailures } from './auth-failures.js';
import { readAutoUpdates } from './auto-updates.js';
import { securityFindings, type SecurityFacts, type SecurityFinding } from './security-findings.js';
import { readSshdSettings } from './sshd-config.js';

/** One gathering serves every ask within this long: it reads up to 4 MiB of auth log. */
const CACHE_MS = 30_000;

export interface SecurityReport {
  facts: SecurityFacts;
  findings: SecurityFinding[];
  unchecked: string[];
  takenAt: number;
}

/**
 * The read-only security overview of this machine: SSH daemon settings, failed SSH and sudo logins, admin accounts,
 * automatic updates, pending security updates, and (with the network plugin) reachable ports and the firewall.
 * Gathered at most every 30 s, one gathering at a time.
 */
export class SecurityOverview {
  private cached: { at: number; report: Promise<SecurityReport> } | undefined;

  constructor(private readonly o: {
    root: string;
    updates: PendingUpdatesCache;
    network(): HostNetworkService | undefined;
    now(): number;
  }) {}

  report(): Promise<SecurityReport> {
    const now = this.o.now();
    if (!this.cached || now - this.cached.at >= CACHE_MS) {
      const report = this.gather(now);
      this.cached = { at: now, report };
      report.catch(() => { this.cached = undefined; });
    }
    return this.cached.report;
  }

  /** The findings the health score counts: critical and warning ones, except pending updates (it counts those itself). */
  async healthFindings(): Promise<Finding[]> {
    const { findings } = await this.report();
    return findings
      .filter((f) => f.severity !== 'info' && !/security updates? pending$/.test(f.title))
      .map((f) => ({ severity: f.severity, title: f.title, detail: f.detail, action: 'security', path: f.path }));
  }

  private async gather(now: number): Promise<SecurityReport> {
    const { root } = this.o;
    const network = this.o.network();
    // apt's simulation takes seconds: the cached answer, or none yet (said in `unchecked`).
    const updates = this.o.updates.peek();
    const [sshd, admins, failures, autoUpdates, listeners, firewall] = await Promise.all([
      readSshdSettings(root), readAdminAccounts(root), readAuthFailures(root, now), readAutoUpdates(root),
      network ? network.reachableListeners().catch(() => null) : Promise.resolve(null),
      network ? network.firewall().catch(() => undefined) : Promise.resolve(undefined),
    ]);
    const facts: SecurityFacts = { sshd, admins, failures, autoUpdates, updates: updates ?? null, listeners, firewall };
    const unchecked = [
      ...(sshd === null ? ['the SSH daemon (no /etc/ssh/sshd_config: no SSH server here)'] : []),
      ...(failures === null ? ['failed logins (no auth.log or secure, and the journal could not be read by Vigil\'s user)'] : []),
      ...(admins === null ? ['admin accounts (/etc/group could not be read)'] : []),
      ...(updates === undefined ? ['pending security updates (apt is being asked: look again in a minute)'] : updates === null ? ['pending security updates (no apt, or it failed)'] : []),
      ...(network ? [] : ['reachable ports and the firewall (the network plugin is off)']),
    ];
    return { facts, findings: securityFindings(facts), unchecked, takenAt: now };
  }
}
