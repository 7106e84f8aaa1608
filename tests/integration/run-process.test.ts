// `vigil run` serves from a child Node process started with its V8 flags when Node's command line lacks them
// (runtime/cli/process-entry.ts): signals reach the child once, exit codes pass through, and the child never
// outlives the `vigil` process.
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { existsSync, readFileSync } from 'node:fs';
import { freePort, waitFor } from '../support/net.js';
import { procStatFields } from '../support/proc-stat.js';
import { tempDir } from '../support/tmp.js';
import { startVigil, writeConfig, type VigilProcess } from '../support/vigil-process.js';

const test = suite('vigil run process');
const work = tempDir();

/** Node's command line of each child of `pid` (Linux: /proc/PID/task/PID/children); none once it ended. */
function children(pid: number): { pid: number; argv: string[] }[] {
  if (!existsSync(`/proc/${pid}`)) return [];
  const list = readFileSync(`/proc/${pid}/task/${pid}/children`, 'utf8').trim();
  const argv = (p: number) => readFileSync(`/proc/${p}/cmdline`, 'utf8').replace(/\0$/, '').split('\0');
  return list ? list.split(' ').map(Number).map((p) => ({ pid: p, argv: argv(p) })) : [];
}

const running: VigilProcess[] = [];

async function start(env: NodeJS.ProcessEnv = {}): Promise<{ vigil: VigilProcess; base: string }> {
  const port = await freePort();
  const base = `http://127.0.0.1:${port}`;
  const yaml = `data_dir: ${work.path}/data-${port}\ncontrol_plane: { listen: 127.0.0.1:${port}, token: t0k }\n`;
  const file = writeConfig(work.path, yaml, `vigil-${port}.yaml`);
  const vigil = await startVigil(file, base, { env });
  running.push(vigil);
  return { vigil, base };
}

const seenChildren: number[] = [];
function vigilChildren(vigil: VigilProcess): { pid: number; argv: string[] }[] {
  const found = children(vigil.proc.pid!).filter((c) => c.argv.some((a) => a.endsWith('bin/vigil.js')));
  seenChildren.push(...found.map((c) => c.pid));
  return found;
}
/** Gone, or a zombie (ended, not yet reaped by whoever adopted it). */
function ended(pid: number): boolean {
  try {
    return procStatFields(`/proc/${pid}/stat`)[0] === 'Z';
  } catch {
    return true;
  }
}
const stopped = (pid: number) => waitFor(() => ended(pid), { what: `process ${pid} to end` });

test('without the flag, it serves from a child started with --max-semi-space-size=64; SIGTERM drains it once, exit 0', async () => {
  const { vigil, base } = await start();
  const [child, ...more] = vigilChildren(vigil);
  assert.ok(child, 'a child vigil process');
  assert.is(more.length, 0);
  assert.ok(child.argv.includes('--max-semi-space-size=64'), child.argv.join(' '));
  assert.equal(child.argv.slice(-3, -1), ['run', '-config']);
  assert.is((await fetch(`${base}/api/health`)).status, 200);
  const { code } = await vigil.stop('SIGTERM');
  assert.is(code, 0);
  await stopped(child.pid);
  const stopping = (vigil.stdout() + vigil.stderr()).split('\n').filter((l) => l.includes('"msg":"stopping"'));
  assert.is(stopping.length, 1, vigil.stdout() + vigil.stderr());
  assert.match(stopping[0], /"reason":"SIGTERM"/);
  assert.not.match(vigil.stdout() + vigil.stderr(), /second signal/);
});

test('when the vigil process is killed outright, the child stops too', async () => {
  const { vigil, base } = await start();
  const [child] = vigilChildren(vigil);
  assert.ok(child, 'a child vigil process');
  // Not vigil.stop(): it waits for the output pipes, which a child that outlived its parent would hold open.
  vigil.proc.kill('SIGKILL');
  await stopped(child.pid);
  assert.ok(await fetch(`${base}/api/health`).then(() => false, () => true), 'nothing listens any more');
});

test('with the flag in NODE_OPTIONS (any value), it serves from the one process', async () => {
  const { vigil, base } = await start({ NODE_OPTIONS: '--max_semi_space_size=32' });
  assert.is(vigilChildren(vigil).length, 0);
  assert.is((await fetch(`${base}/api/health`)).status, 200);
  assert.is((await vigil.stop('SIGTERM')).code, 0);
});

// A failed assertion must not leave a server behind (its output pipes would keep this file running).
test.after(async () => {
  for (const pid of seenChildren) if (!ended(pid)) process.kill(pid, 'SIGKILL');
  for (const v of running) await v.stop('SIGKILL');
  work.cleanup();
});
test.run();
