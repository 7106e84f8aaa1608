// What the overview flags, worst first, and what reaches the health score.
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { securityFindings, type SecurityFacts } from '../../../../../plugins/probes/security/security-findings.js';

const calm: SecurityFacts = {
  sshd: { permitRootLogin: 'prohibit-password', passwordAuthentication: 'no', permitEmptyPasswords: 'no', files: [] },
  admins: { groups: [{ name: 'sudo', members: ['alice'] }], uidZero: [] },
  failures: { from: '/var/log/auth.log', lines: 10, sources: [], more: 0 },
  autoUpdates: { tool: 'unattended-upgrades', enabled: true, source: null },
  updates: { total: 0, security: 0, manager: 'apt' },
  listeners: [{ protocol: 'tcp', address: '0.0.0.0', port: 22, process: 'sshd' }],
  firewall: { tool: 'ufw', active: true },
};

test('a hardened machine has nothing to say', () => {
  assert.equal(securityFindings(calm), []);
});

test('red flags, worst first: empty passwords, a second root, root by password, open databases without a firewall', () => {
  const titles = securityFindings({
    ...calm,
    sshd: { permitRootLogin: 'yes', passwordAuthentication: 'yes', permitEmptyPasswords: 'yes', files: [] },
    admins: { groups: [], uidZero: ['toor'] },
    failures: { from: 'journal', lines: 500, sources: [{ kind: 'ssh', source: '203.0.113.9', attempts: 400, users: ['root'], last_seen: null }], more: 0 },
    updates: { total: 5, security: 2, manager: 'apt' },
    autoUpdates: { tool: 'unattended-upgrades', enabled: false, source: null },
    listeners: [...calm.listeners!, { protocol: 'tcp', address: '::', port: 6379, process: 'redis-server' }],
    firewall: { tool: 'ufw', active: false },
  }).map((f) => `${f.severity}: ${f.title}`);
  assert.equal(titles, [
    'critical: SSH accepts empty passwords',
    'critical: toor has user id 0',
    'critical: SSH lets root log in with a password',
    'warning: 2 security updates pending',
    'warning: Redis listens on :::6379',
    'warning: 1 address tried SSH passwords 100+ times this week',
    'warning: SSH accepts passwords',
    'warning: ufw is installed but not enabled',
    'warning: unattended-upgrades is installed but off',
  ]);
});

test('pending security updates link to the Packages page\'s updatable list', () => {
  const [updates] = securityFindings({ ...calm, updates: { total: 3, security: 1, manager: 'apt' } }).filter((f) => /security update/.test(f.title));
  assert.equal([updates.path, updates.action], ['/host/packages?updatable=1', 'updates']);
});

test('a risky port behind an active firewall is a note; no firewall tool at all is said so', () => {
  const guarded = securityFindings({ ...calm, listeners: [{ protocol: 'tcp', address: '0.0.0.0', port: 5432, process: 'postgres' }] });
  assert.equal(guarded.map((f) => f.severity), ['info']);
  const bare = securityFindings({ ...calm, firewall: null });
  assert.equal(bare.map((f) => f.title), ['No firewall, 1 port open to the network']);
  const unknown = securityFindings({ ...calm, listeners: null, firewall: undefined });
  assert.equal(unknown, [], 'without the network plugin nothing is claimed about ports');
});

test.run();
