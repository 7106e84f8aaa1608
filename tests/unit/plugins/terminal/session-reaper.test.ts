// Real processes: a session made with setsid, holding a background job in its own process group and a child that
// ignores SIGHUP, all ended by endSession.
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { spawn } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { endSession, sessionMembers } from '../../../../plugins/terminal/session-reaper.js';
import { waitFor } from '../../../support/net.js';

const alive = (pid: number): boolean => {
  if (!existsSync(`/proc/${pid}/stat`)) return false;
  const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
  return stat.slice(stat.lastIndexOf(')') + 2)[0] !== 'Z';
};

test('every process of the session ends: its own group, a job in another group, one that ignores SIGHUP', async () => {
  // setsid makes sh a session leader, as forkpty does; set -m gives the background job a process group of its own.
  const script = 'set -m; sleep 1000 >/dev/null & trap "" HUP; sleep 1001 >/dev/null & echo started; wait';
  const leader = spawn('setsid', ['bash', '-c', script], { stdio: ['ignore', 'pipe', 'ignore'] });
  let out = '';
  leader.stdout.on('data', (d) => { out += d; });
  const sid = leader.pid!;
  let members: { pid: number; pgid: number }[] = [];
  try {
    await waitFor(() => out.includes('started'), { what: 'the session to start' });
    members = (await waitFor(async () => { const m = await sessionMembers(sid); return m.length >= 3 ? m : undefined; }, { what: 'three members' }))!;
    assert.ok(members.some((m) => m.pid === sid), 'the leader is a member');
    assert.ok(new Set(members.map((m) => m.pgid)).size >= 2, `several process groups: ${JSON.stringify(members)}`);
    const killed = await endSession(sid, { graceMs: 500 });
    assert.ok(killed >= 1, 'the one ignoring SIGHUP needed SIGKILL');
    await waitFor(() => members.every((m) => !alive(m.pid)), { timeoutMs: 3_000, what: 'every member to end' });
    assert.equal(await sessionMembers(sid), []);
  } finally {
    for (const m of members) try { process.kill(m.pid, 'SIGKILL'); } catch { /* ended */ }
    leader.stdout.destroy();
  }
});

test('a session that does not exist ends at once', async () => {
  assert.is(await endSession(2 ** 22 + 12345, { graceMs: 10 }), 0);
});

test.run();
