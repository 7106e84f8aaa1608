import { closedObject, type HttpRoutes, type JsonSchema } from '@vigil/plugin-sdk';
import type { SecurityOverview } from './security-overview.js';

const nullable = (schema: JsonSchema): JsonSchema => ({ oneOf: [{ type: 'null' }, schema] });
const text = { type: 'string' } as const;
const count = { type: 'integer', minimum: 0 } as const;

const securityFinding = closedObject({
  severity: { enum: ['critical', 'warning', 'info'] },
  title: text,
  detail: { type: 'string', description: 'What it means and what to do, in plain words.' },
  path: { type: 'string', description: 'The dashboard page that can fix it or show more.' },
  action: { enum: ['terminal', 'ports', 'overview', 'updates'], description: 'What that page does about it: a terminal to edit a file, the listening ports, this overview, or the packages with updates.' },
}, { title: 'SecurityFinding' });

export const securityResponse = closedObject({
  findings: { type: 'array', items: securityFinding, description: 'Worst first.' },
  ssh: nullable(closedObject({
    permit_root_login: text, password_authentication: text, permit_empty_passwords: text,
    files: { type: 'array', items: text, maxItems: 64, description: 'The files read, main file first, then each Include.' },
  }, { title: 'SshdSettings', description: 'The values sshd applies outside Match blocks (the first value of each keyword wins).' })),
  failed_logins: nullable(closedObject({
    from: { type: 'string', description: 'The log read: /var/log/auth.log, /var/log/secure, or journal.' },
    lines: count,
    sources: {
      type: 'array', maxItems: 50, description: 'Most attempts first, over the last 7 days.',
      items: closedObject({
        kind: { enum: ['ssh', 'sudo'] },
        source: { type: 'string', description: 'The remote address (ssh) or the local account (sudo).' },
        attempts: count,
        users: { type: 'array', items: text, maxItems: 10 },
        last_seen: { type: ['string', 'null'], format: 'date-time' },
      }, { title: 'FailedLoginSource' }),
    },
    more: { ...count, description: 'Sources beyond the list.' },
  }, { title: 'FailedLogins' })),
  admins: nullable(closedObject({
    groups: { type: 'array', items: closedObject({ name: text, members: { type: 'array', items: text } }, { title: 'AdminGroup' }) },
    uid_zero: { type: 'array', items: text, description: 'Accounts other than root with user id 0.' },
  }, { title: 'AdminAccounts' })),
  auto_updates: closedObject({
    tool: { enum: ['unattended-upgrades', 'dnf-automatic', null] }, enabled: { type: 'boolean' }, source: { type: ['string', 'null'] },
  }, { title: 'AutoUpdates' }),
  pending_updates: nullable(closedObject({ total: count, security: count, manager: text }, { title: 'PendingUpdateCounts' })),
  reachable_ports: nullable({
    type: 'array', maxItems: 1000, description: 'Sockets listening on an address other machines can reach; null without the network plugin.',
    items: closedObject({ protocol: { enum: ['tcp', 'udp'] }, address: text, port: { type: 'integer', minimum: 0, maximum: 65535 }, process: { type: ['string', 'null'] } }, { title: 'ReachablePort' }),
  }),
  firewall: nullable(closedObject({ tool: text, active: { type: 'boolean' } }, { title: 'FirewallSummary' })),
  unchecked: { type: 'array', items: text, description: 'What could not be looked at here, so the findings say nothing of it.' },
  taken_at: { type: 'string', format: 'date-time' },
}, { title: 'SecurityOverview', description: 'Read-only: nothing here changes the machine.' });

/** `GET /api/security` (perch's name): file reads, the last 4 MiB of the auth log (or 20,000 journal lines, 5 s), cached 30 s. */
export function registerSecurityRoutes(http: HttpRoutes, security: SecurityOverview): void {
  http.route({
    method: 'GET', path: '/api/security', tags: ['host'],
    summary: 'The security overview: SSH daemon red flags, failed SSH and sudo logins by source, admin accounts, automatic and pending security updates, reachable ports and the firewall, as findings worst first',
    response: securityResponse,
    async handler() {
      const { facts: x, findings, unchecked, takenAt } = await security.report();
      return {
        findings: findings.map(({ weight: _weight, ...f }) => f),
        ssh: x.sshd && { permit_root_login: x.sshd.permitRootLogin, password_authentication: x.sshd.passwordAuthentication, permit_empty_passwords: x.sshd.permitEmptyPasswords, files: x.sshd.files },
        failed_logins: x.failures,
        admins: x.admins && { groups: x.admins.groups, uid_zero: x.admins.uidZero },
        auto_updates: x.autoUpdates,
        pending_updates: x.updates,
        reachable_ports: x.listeners?.slice(0, 1000) ?? null,
        firewall: x.firewall ?? null,
        unchecked,
        taken_at: new Date(takenAt).toISOString(),
      };
    },
  });
}
