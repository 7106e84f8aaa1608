// The processes and kernel tables over the fixture laptop's /proc: bounded answers, search, and the shared walk.
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { KernelTable } from '../../../../plugins/probes/kernel-table.js';
import { ProcessTable } from '../../../../plugins/probes/process-table.js';
import { laptop } from './proc/fixture-roots.js';
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { tempDir } from '../../../support/tmp.js';

test('processes: by memory, limited, searched by command line ignoring case; memory as a share of MemTotal', async () => {
  const table = new ProcessTable(laptop);
  const all = await table.top('mem', 100);
  assert.ok(all.total >= 2);
  const rss = all.processes.map((p) => p.rss_bytes);
  assert.equal(rss, [...rss].sort((a, b) => b - a));
  assert.ok(all.processes[0].mem_percent > 0 && all.processes[0].mem_percent <= 100);
  assert.ok(all.interval_ms >= 450, 'a first request measures over half a second');
  const one = await table.top('cpu', 1);
  assert.is(one.processes.length, 1);
  assert.is(one.total, all.total, 'the total counts every process, not the page');
  const someCommand = all.processes.find((p) => p.command)!.command.split(' ')[0];
  const found = await table.top('cpu', 100, someCommand.toUpperCase());
  assert.ok(found.processes.length >= 1 && found.processes.every((p) => p.command.toLowerCase().includes(someCommand.toLowerCase()) || p.name.toLowerCase().includes(someCommand.toLowerCase())));
  assert.is((await table.top('cpu', 100, 'no-such-process-anywhere')).total, 0);
});

test('processes: a search that matches past the cut of a long command line shows the match in the row', async () => {
  // A Chrome or Java command line runs to kilobytes; the row carries at most 1,000 characters of it.
  const tmp = tempDir('proc-long-cmdline');
  const root = tmp.path;
  const dir = join(root, 'proc', '77');
  mkdirSync(dir, { recursive: true });
  writeFileSync(join(dir, 'stat'), '77 (chromium) S 1 77 77 0 -1 0 0 0 0 0 10 5 0 0 20 0 1 0 100 1000 10\n');
  writeFileSync(join(dir, 'status'), 'Name:\tchromium\nVmRSS:\t  1000 kB\n');
  writeFileSync(join(dir, 'cmdline'), ['/usr/lib/chromium/chromium', `--flags=${'x'.repeat(3000)}`, '--user-data-dir=/check/work/main/node_modules/.cache', ''].join('\0'));
  const table = new ProcessTable(root);
  const [row] = (await table.top('cpu', 10, 'NODE_modules')).processes;
  assert.ok(row, 'the process matches by its command line');
  assert.ok(row.command.length <= 1000, `${row.command.length} characters`);
  assert.match(row.command, /^\/usr\/lib\/chromium\/chromium --flags=x+ … x+ --user-data-dir=\/check\/work\/main\/node_modules\/\.cache$/);
  // Without a search, or with a match inside the first 1,000 characters, the row is the command line's head.
  const plain = (await table.top('cpu', 10)).processes[0].command;
  assert.is(plain, `/usr/lib/chromium/chromium --flags=${'x'.repeat(3000)}`.slice(0, 1000));
  assert.is((await table.top('cpu', 10, 'chromium')).processes[0].command, plain);
  tmp.cleanup();
});

test('processes: a request right after another shares its walk instead of waiting half a second again', async () => {
  const table = new ProcessTable(laptop);
  await table.top('cpu', 5);
  const t0 = Date.now();
  await table.top('mem', 5);
  assert.ok(Date.now() - t0 < 400, `answered in ${Date.now() - t0} ms`);
});

test('kernel: search by key or value, bounded by limit, total of all matches', async () => {
  let now = 0;
  const table = new KernelTable(laptop, () => now);
  const all = await table.search(undefined, 500);
  assert.equal(all.tunables.map((t) => t.key), ['kernel.hostname', 'net.ipv4.ip_forward', 'net.ipv4.tcp_rmem', 'vm.swappiness']);
  const swap = await table.search('SWAPPINESS', 500);
  assert.equal(swap.tunables.map((t) => t.key), ['vm.swappiness']);
  const two = await table.search(undefined, 2);
  assert.is(two.tunables.length, 2);
  assert.is(two.total, 4);
  now += 60_000;
  assert.is((await table.search('ipv4', 500)).total, 2);
});

test.run();
