// Failed SSH logins by address and wrong sudo passwords by account, from auth.log's two time formats, over a week.
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { groupFailures, lineTime, readAuthFailures } from '../../../../../plugins/probes/security/auth-failures.js';
import { hostRoot } from '../../../../support/host-root.js';

const NOW = Date.parse('2026-12-04T12:00:00Z');

test('ssh attempts group by address with the users tried; sudo by account, counting its attempts', () => {
  const lines = [
    '2026-12-04T10:00:00.000000+00:00 web sshd[100]: Failed password for invalid user admin from 203.0.113.9 port 50001 ssh2',
    '2026-12-04T10:00:01.000000+00:00 web sshd[100]: Failed password for root from 203.0.113.9 port 50002 ssh2',
    '2026-12-04T10:00:02.000000+00:00 web sshd[101]: Failed publickey for deploy from 2001:db8::7 port 50003 ssh2',
    '2026-12-04T10:00:03.000000+00:00 web sshd[101]: Invalid user admin from 203.0.113.9 port 50001',
    '2026-12-04T10:05:00.000000+00:00 web sudo:    alice : 3 incorrect password attempts ; TTY=pts/0 ; PWD=/home/alice ; USER=root ; COMMAND=/usr/bin/ls',
    '2026-12-04T10:06:00.000000+00:00 web sudo:      bob : user NOT in sudoers ; TTY=pts/1 ; PWD=/home/bob ; USER=root ; COMMAND=/bin/sh',
    // Older than a week: not counted.
    '2026-11-20T10:00:00.000000+00:00 web sshd[99]: Failed password for root from 198.51.100.1 port 1 ssh2',
  ];
  const { sources, more } = groupFailures(lines, NOW);
  assert.is(more, 0);
  assert.equal(sources.map((s) => [s.kind, s.source, s.attempts, s.users]), [
    ['sudo', 'alice', 3, ['alice']],
    ['ssh', '203.0.113.9', 2, ['admin', 'root']],
    // One attempt each: the newer first.
    ['sudo', 'bob', 1, ['bob']],
    ['ssh', '2001:db8::7', 1, ['deploy']],
  ]);
  assert.is(sources[1].last_seen, '2026-12-04T10:00:01.000Z');
});

test('classic syslog times: this year, or last year when that would be in the future', () => {
  const dec = lineTime('Dec  3 23:59:59 web sshd[1]: x', NOW)!;
  assert.is(new Date(dec).getFullYear(), 2026);
  const jan = lineTime('Dec 31 10:00:00 web sshd[1]: x', Date.parse('2027-01-02T00:00:00Z'))!;
  assert.is(new Date(jan).getFullYear(), 2026);
  assert.is(lineTime('garbage', NOW), null);
});

test('the tail of auth.log is read, bounded, and a machine without one reads nothing', async () => {
  const storm = Array.from({ length: 120_000 }, (_, i) => `2026-12-04T09:00:00+00:00 web sshd[${i}]: Failed password for root from 192.0.2.${i % 200} port ${i} ssh2`).join('\n');
  const root = hostRoot({ '/var/log/auth.log': storm });
  const none = hostRoot({ '/etc/hostname': 'x' });
  try {
    const read = await readAuthFailures(root.path, NOW);
    assert.ok(read);
    assert.is(read.from, '/var/log/auth.log');
    assert.ok(read.lines < 120_000, `only the tail: ${read.lines} lines`);
    assert.is(read.sources.length, 50);
    assert.is(read.more, 150);
    assert.is(await readAuthFailures(none.path, NOW), null, 'not the journal of this machine for a root that is not /');
  } finally {
    root.cleanup();
    none.cleanup();
  }
});

test.run();
