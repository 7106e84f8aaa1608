import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { startGroupRun } from '../../../../plugins/devtools/process-group-run.js';

const run = (argv: string[], timeoutMs = 60_000) => {
  let out = '';
  const r = startGroupRun({ argv, cwd: process.cwd(), env: process.env, timeoutMs, onOutput: (t) => { out += t; } });
  return { r, out: () => out };
};

test('the argv reaches the program as separate arguments, with no shell between', async () => {
  const { r, out } = run([process.execPath, '-e', 'console.log(JSON.stringify(process.argv.slice(1)))', '$(id)', 'a b', ';ls']);
  const end = await r.ended;
  assert.is(end.exitCode, 0);
  assert.equal(JSON.parse(out()), ['$(id)', 'a b', ';ls']);
});

test('a program that is not installed ends the run with the reason, not an exception', async () => {
  const { r } = run(['vigil-no-such-runner-xyz', 'run', 'build']);
  const end = await r.ended;
  assert.is(end.spawnError, 'vigil-no-such-runner-xyz is not installed or not on the PATH');
  assert.is(end.stopped, false);
});

test('the wall-clock limit stops the run and says so', async () => {
  const { r } = run([process.execPath, '-e', 'setInterval(() => {}, 1000)'], 300);
  const end = await r.ended;
  assert.is(end.timedOut, true);
  assert.is(end.stopped, false);
  assert.is(end.signal, 'SIGTERM');
});

test.run();
