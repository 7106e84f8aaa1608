// The security overview's readers on made-up machines: sshd's first-value-wins with Include and Match, admin groups
// and uid 0, unattended-upgrades switched on and off.
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { readAdminAccounts } from '../../../../../plugins/probes/security/admin-accounts.js';
import { readAutoUpdates } from '../../../../../plugins/probes/security/auto-updates.js';
import { readSshdSettings } from '../../../../../plugins/probes/security/sshd-config.js';
import { hostRoot } from '../../../../support/host-root.js';

test('sshd: the first value of a keyword wins, Include files are read where they stand, reading stops at Match', async () => {
  const root = hostRoot({
    '/etc/ssh/sshd_config': [
      '# PermitRootLogin yes',
      'Include /etc/ssh/sshd_config.d/*.conf',
      'PasswordAuthentication yes',
      'permitrootlogin=yes',
      'Match User backup',
      '  PermitEmptyPasswords yes',
    ].join('\n'),
    '/etc/ssh/sshd_config.d/10-hardening.conf': 'PasswordAuthentication no\n',
    '/etc/ssh/sshd_config.d/50-cloud.conf': 'PasswordAuthentication yes\nInclude /etc/ssh/sshd_config.d/*.conf\n',
  });
  try {
    const s = await readSshdSettings(root.path);
    assert.ok(s);
    assert.is(s.passwordAuthentication, 'no', 'the drop-in came first');
    assert.is(s.permitRootLogin, 'yes', '`key=value` is read, case-insensitively');
    assert.is(s.permitEmptyPasswords, 'no', 'inside Match: not the general setting');
    assert.is(s.files[0], '/etc/ssh/sshd_config');
    assert.ok(s.files.includes('/etc/ssh/sshd_config.d/10-hardening.conf'));
    assert.ok(s.files.length <= 64, 'a file that includes itself is followed a bounded number of times');
  } finally {
    root.cleanup();
  }
});

test('sshd: the defaults where nothing is set, and null without sshd_config', async () => {
  const bare = hostRoot({ '/etc/ssh/sshd_config': '# all defaults\n' });
  const none = hostRoot({ '/etc/hostname': 'x\n' });
  try {
    assert.equal(await readSshdSettings(bare.path), { permitRootLogin: 'prohibit-password', passwordAuthentication: 'yes', permitEmptyPasswords: 'no', files: ['/etc/ssh/sshd_config'] });
    assert.is(await readSshdSettings(none.path), null);
  } finally {
    bare.cleanup();
    none.cleanup();
  }
});

test('admins: members of sudo, wheel and admin; accounts other than root with uid 0', async () => {
  const root = hostRoot({
    '/etc/group': 'root:x:0:\nsudo:x:27:alice,bob\nwheel:x:10:\nusers:x:100:carol\n',
    '/etc/passwd': 'root:x:0:0:root:/root:/bin/bash\ntoor:x:0:0::/root:/bin/sh\nalice:x:1000:1000::/home/alice:/bin/bash\n',
  });
  try {
    assert.equal(await readAdminAccounts(root.path), { groups: [{ name: 'sudo', members: ['alice', 'bob'] }, { name: 'wheel', members: [] }], uidZero: ['toor'] });
  } finally {
    root.cleanup();
  }
});

test('automatic updates: unattended-upgrades on, then off by a later file; none at all', async () => {
  const on = hostRoot({
    '/etc/apt/apt.conf.d/50unattended-upgrades': '// Unattended-Upgrade::Origins-Pattern { };\n',
    '/etc/apt/apt.conf.d/20auto-upgrades': 'APT::Periodic::Update-Package-Lists "1";\nAPT::Periodic::Unattended-Upgrade "1";\n',
  });
  const off = hostRoot({
    '/etc/apt/apt.conf.d/50unattended-upgrades': '',
    '/etc/apt/apt.conf.d/20auto-upgrades': 'APT::Periodic::Unattended-Upgrade "1";\n',
    '/etc/apt/apt.conf.d/99local': '// APT::Periodic::Unattended-Upgrade "1";\nAPT::Periodic::Unattended-Upgrade "0";\n',
  });
  const none = hostRoot({ '/etc/apt/apt.conf.d/70debconf': '' });
  try {
    assert.equal(await readAutoUpdates(on.path), { tool: 'unattended-upgrades', enabled: true, source: '/etc/apt/apt.conf.d/20auto-upgrades' });
    assert.equal(await readAutoUpdates(off.path), { tool: 'unattended-upgrades', enabled: false, source: '/etc/apt/apt.conf.d/99local' });
    assert.equal(await readAutoUpdates(none.path), { tool: null, enabled: false, source: null });
  } finally {
    on.cleanup();
    off.cleanup();
    none.cleanup();
  }
});

test.run();
