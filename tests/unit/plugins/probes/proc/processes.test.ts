import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { readProcesses, topProcesses, type ProcessReading } from '../../../../../plugins/probes/proc/processes.js';
import { empty, laptop } from './fixture-roots.js';

test('the fixture: names with spaces and parentheses, CPU ticks, resident bytes, command lines; kernel threads empty', async () => {
  const procs = (await readProcesses(laptop)).sort((a, b) => a.pid - b.pid);
  assert.equal(procs, [
    { pid: 1, ppid: 0, name: 'systemd', state: 'S', cpuTicks: 2000, rssBytes: 12000 * 1024, command: '/sbin/init splash' },
    { pid: 2, ppid: 0, name: 'kthreadd', state: 'S', cpuTicks: 30, rssBytes: 0, command: '' },
    { pid: 4242, ppid: 1, name: 'Web Content) (x)', state: 'R', cpuTicks: 10000, rssBytes: 400000 * 1024, command: '/usr/lib/firefox/firefox -contentproc' },
  ]);
});

const p = (pid: number, cpuTicks: number, rssBytes: number, name = `p${pid}`): ProcessReading =>
  ({ pid, ppid: 1, name, state: 'S', cpuTicks, rssBytes, command: `/bin/${name} --flag` });

test('top by CPU between two readings, by memory, with a search; a new or reused pid is measured from its start', () => {
  const before = [p(10, 100, 5), p(11, 100, 50), p(12, 900, 1)];
  const after = [p(10, 300, 5), p(11, 150, 50), p(12, 50, 1), p(13, 20, 500, 'fresh')];
  // 2 s apart: 200 ticks = 2 s of CPU = 100 % of one core.
  assert.equal(topProcesses(before, after, 2000, { by: 'cpu', limit: 3 }).map((x) => [x.pid, x.cpuPercent]), [[10, 100], [11, 25], [12, 25]]);
  assert.equal(topProcesses(before, after, 2000, { by: 'memory', limit: 2 }).map((x) => x.pid), [13, 11]);
  assert.equal(topProcesses(before, after, 2000, { by: 'cpu', limit: 10, query: 'FRESH' }).map((x) => x.pid), [13]);
  assert.equal(topProcesses(before, after, 2000, { by: 'cpu', limit: 10, query: '--flag' }).length, 4, 'the command line is searched too');
});

test('this machine: this very process is found with its command line, a busy loop shows as CPU', async () => {
  const before = await readProcesses();
  const start = Date.now();
  const used = process.cpuUsage();
  while (Date.now() - start < 300) { /* busy for 300 ms */ }
  const after = await readProcesses();
  const elapsed = Date.now() - start;
  const self = topProcesses(before, after, elapsed, { by: 'cpu', limit: 10_000 }).find((x) => x.pid === process.pid);
  // On a loaded machine the loop gets less than a core: the share must match what the process itself counted.
  const usage = process.cpuUsage(used);
  const counted = ((usage.user + usage.system) / 1000 / elapsed) * 100;
  assert.ok(self, 'this process is listed');
  assert.ok(self.command.includes('node'), self.command);
  assert.ok(self.rssBytes > 10 * 1024 * 1024, `rss ${self.rssBytes}`);
  assert.ok(self.cpuPercent > 5, `cpu ${self.cpuPercent}`);
  // Ticks are 10 ms, and the walks themselves run inside the window: a few ticks' tolerance.
  assert.ok(Math.abs(self.cpuPercent - counted) < 15, `cpu ${self.cpuPercent} against ${counted} counted by the process`);
  assert.equal(await readProcesses(empty), []);
});

test.run();
