// The network plugin in a `vigil run` as an unprivileged user (nobody), without the privileged helper: a root-owned
// listener shows its user but no process (its descriptors are root's to read), offers the elevated command that finds
// it by port, and cannot be signalled; a listener of Vigil's own user is listed with its pid and stopped; firewall
// rules and packet capture say plainly that they need root or the helper. The test makes the processes as root (CI).
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { spawn, type ChildProcess } from 'node:child_process';
import { chownSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { freePort, waitFor } from '../support/net.js';
import { vigilBin } from '../support/paths.js';
import { tempDir } from '../support/tmp.js';

const TOKEN = 'network-unprivileged-token-0123456789';
const NOBODY = 65534;
const work = tempDir('vigil-network-nobody-');
let vigil: ChildProcess | undefined;
let stderr = '';
let base = '';
const children: ChildProcess[] = [];

interface Port { port: number; pid: number | null; user: string; can_signal: boolean; elevated_command: string | null; inode: number; start_ticks: number | null }

async function call<T>(method: 'GET' | 'POST', path: string, body?: unknown): Promise<{ status: number; body: T }> {
  const res = await fetch(`${base}${path}`, {
    method, headers: { authorization: `Bearer ${TOKEN}`, ...(body === undefined ? {} : { 'content-type': 'application/json' }) },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  return { status: res.status, body: await res.json() as T };
}

async function listener(port: number, uid?: number): Promise<ChildProcess> {
  const child = spawn(process.execPath, ['-e', `require('net').createServer(()=>{}).listen(${port},'127.0.0.1',()=>console.log('ready'));setInterval(()=>{},1000)`],
    { stdio: ['ignore', 'pipe', 'inherit'], ...(uid === undefined ? {} : { uid, gid: uid }) });
  children.push(child);
  let out = '';
  child.stdout!.on('data', (b) => { out += b; });
  await waitFor(() => out.includes('ready'), { what: `a listener on ${port}` });
  return child;
}

const row = async (port: number) => (await call<{ ports: Port[] }>('GET', `/api/net?q=${port}`)).body.ports.find((p) => p.port === port);

test.before(async () => {
  assert.is(process.getuid?.(), 0, 'this suite starts Vigil as nobody and a listener as root: run it as root (CI does)');
  const port = await freePort();
  base = `http://127.0.0.1:${port}`;
  const file = join(work.path, 'vigil.yaml');
  writeFileSync(file, `data_dir: ${work.path}/data\ncontrol_plane: { listen: 127.0.0.1:${port}, token: ${TOKEN} }\nnetwork: {}\n`);
  chownSync(work.path, NOBODY, NOBODY);
  chownSync(file, NOBODY, NOBODY);
  vigil = spawn(process.execPath, [vigilBin, 'run', '-config', file], {
    uid: NOBODY, gid: NOBODY, cwd: work.path, env: { ...process.env, HOME: work.path, NO_COLOR: '1' }, stdio: ['ignore', 'ignore', 'pipe'],
  });
  vigil.stderr!.on('data', (d) => { stderr += d; });
  await waitFor(async () => {
    if (vigil!.exitCode !== null) throw new Error(`vigil exited: ${stderr}`);
    return (await fetch(`${base}/api/health`).catch(() => undefined))?.status === 200;
  }, { timeoutMs: 20_000, what: 'vigil as nobody' });
});

test.after(async () => {
  for (const c of children) if (c.exitCode === null && c.signalCode === null) c.kill('SIGKILL');
  if (vigil && vigil.exitCode === null) {
    vigil.kill('SIGTERM');
    await new Promise((r) => vigil!.once('exit', r));
  }
  work.cleanup();
});

test('a root-owned listener: its user, no process, the elevated command by port, and no signal', async () => {
  const port = await freePort();
  const rootListener = await listener(port);
  const r = await row(port);
  assert.ok(r, 'listed');
  assert.equal([r!.user, r!.pid, r!.can_signal], ['root', null, false]);
  assert.is(r!.elevated_command, `sudo kill -TERM $(sudo lsof -t -iTCP:${port} -sTCP:LISTEN)`);
  const list = await call<{ hidden_processes: number; elevation: { via: string | null; note: string } }>('GET', '/api/net?limit=1');
  assert.ok(list.body.hidden_processes > 0, 'root\'s processes are counted as hidden');
  assert.is(list.body.elevation.via, null);
  // Named by pid anyway (a script): refused, with the command to run.
  const refused = await call<{ error: { code: string; message: string } }>('POST', '/api/killport', { pid: rootListener.pid, inode: r!.inode });
  assert.is(refused.status, 403);
  assert.is(refused.body.error.code, 'VIGIL_ERR_NETWORK_NOT_PERMITTED');
  assert.match(refused.body.error.message, new RegExp(`sudo kill -TERM ${rootListener.pid}`));
  const elevated = await call<{ error: { code: string } }>('POST', '/api/killport', { pid: rootListener.pid, inode: r!.inode, elevated: true });
  assert.is(elevated.status, 503);
  assert.is(elevated.body.error.code, 'VIGIL_ERR_NETWORK_ELEVATION_UNAVAILABLE');
  assert.is(rootListener.exitCode, null, 'still running');
  assert.is(rootListener.signalCode, null);
});

test('a listener of Vigil\'s own user is listed with its pid and stopped', async () => {
  const port = await freePort();
  const mine = await listener(port, NOBODY);
  const r = (await row(port))!;
  assert.equal([r.pid, r.user, r.can_signal, r.elevated_command], [mine.pid, 'nobody', true, null]);
  const ended = new Promise((resolve) => mine.once('exit', (_c, s) => resolve(s)));
  const stop = await call<{ exited: boolean }>('POST', '/api/killport', { pid: r.pid, inode: r.inode, start_ticks: r.start_ticks });
  assert.is(stop.status, 200);
  assert.is(await ended, 'SIGTERM');
});

test('firewall rules and packet capture say they need root or the helper; the firewall state is read all the same', async () => {
  const fw = await call<{ verdict: string; elevation: { via: string | null; note: string } }>('GET', '/api/firewall');
  assert.is(fw.status, 200);
  assert.ok(['on', 'off', 'none'].includes(fw.body.verdict));
  assert.is(fw.body.elevation.via, null);
  assert.match(fw.body.elevation.note, /privilege: \{\}/);
  const rules = await call<{ error: { code: string } }>('POST', '/api/firewallrules', {});
  assert.ok(rules.status === 503, `status ${rules.status}`);
  assert.match(rules.body.error.code, /ELEVATION_UNAVAILABLE|TOOL_MISSING/);
  const capture = await call<{ error: { code: string } }>('POST', '/api/capture', { interface: 'lo', packets: 5, seconds: 2 });
  assert.is(capture.status, 503);
  assert.is(capture.body.error.code, 'VIGIL_ERR_NETWORK_ELEVATION_UNAVAILABLE');
  const list = await call<{ captures: unknown[]; elevation: { via: string | null } }>('GET', '/api/captures');
  assert.equal([list.body.captures.length, list.body.elevation.via], [0, null]);
  const { readdirSync } = await import('node:fs');
  assert.equal(readdirSync(join(work.path, 'data/plugins/network/captures')), [], 'a refused capture leaves no file');
});

test.run();
