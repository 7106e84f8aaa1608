// `vigil run` serves with a 64 MB young generation (runtime/cli/v8-flags.ts): bin/vigil.js's shebang and `npm start`
// put the flag on Node's command line, and a `vigil run` started without it warns once and serves all the same,
// from the one process.
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { freePort } from '../support/net.js';
import { repoRoot } from '../support/paths.js';
import { tempDir } from '../support/tmp.js';
import { startVigil, writeConfig, type SpawnOptions, type VigilProcess } from '../support/vigil-process.js';

const test = suite('vigil run process');
const work = tempDir();
const running: VigilProcess[] = [];

async function start(options: SpawnOptions = {}): Promise<{ vigil: VigilProcess; base: string }> {
  const port = await freePort();
  const base = `http://127.0.0.1:${port}`;
  const yaml = `data_dir: ${work.path}/data-${port}\ncontrol_plane: { listen: 127.0.0.1:${port}, token: t0k }\n`;
  const file = writeConfig(work.path, yaml, `vigil-${port}.yaml`);
  const vigil = await startVigil(file, base, options);
  running.push(vigil);
  return { vigil, base };
}

/** Node's command line of `pid`, and its children's pids (Linux /proc). */
function commandLine(pid: number): string[] {
  return readFileSync(`/proc/${pid}/cmdline`, 'utf8').replace(/\0$/, '').split('\0');
}
function children(pid: number): string[] {
  const list = existsSync(`/proc/${pid}`) ? readFileSync(`/proc/${pid}/task/${pid}/children`, 'utf8').trim() : '';
  return list ? list.split(' ') : [];
}
const warnings = (v: VigilProcess) => (v.stdout() + v.stderr()).split('\n').filter((l) => l.includes('max-semi-space-size') && l.includes('"level":"warn"'));

test('run as an executable, it serves from one process with the flag on Node\'s command line, and does not warn', async () => {
  const { vigil, base } = await start({ asExecutable: true });
  assert.ok(commandLine(vigil.proc.pid!).includes('--max-semi-space-size=64'), commandLine(vigil.proc.pid!).join(' '));
  assert.equal(children(vigil.proc.pid!), [], 'no second process');
  assert.is((await fetch(`${base}/api/health`)).status, 200);
  assert.is((await vigil.stop('SIGTERM')).code, 0);
  assert.equal(warnings(vigil), []);
});

test('started by a plain `node bin/vigil.js run`, it serves all the same and warns once, naming the flag', async () => {
  const { vigil, base } = await start();
  assert.is((await fetch(`${base}/api/health`)).status, 200);
  assert.is((await vigil.stop('SIGTERM')).code, 0);
  assert.is(warnings(vigil).length, 1, vigil.stderr());
});

test('with the flag in NODE_OPTIONS (any value, either spelling) it does not warn', async () => {
  const { vigil } = await start({ env: { NODE_OPTIONS: '--max_semi_space_size=32' } });
  assert.is((await vigil.stop('SIGTERM')).code, 0);
  assert.equal(warnings(vigil), []);
});

test('npm start passes the flag', () => {
  const { scripts } = JSON.parse(readFileSync(join(repoRoot, 'package.json'), 'utf8')) as { scripts: Record<string, string> };
  assert.match(scripts.start, /^node --max-semi-space-size=64 bin\/vigil\.js run /);
});

// A failed assertion must not leave a server behind (its output pipes would keep this file running).
test.after(async () => {
  for (const v of running) await v.stop('SIGKILL');
  work.cleanup();
});
test.run();
