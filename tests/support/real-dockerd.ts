// A real Docker daemon for the containers panel's tests: Debian's `dockerd` (package docker.io) started by the test
// as its own instance (its socket, data and exec roots in a temporary folder, no bridge and no iptables rules, so the
// machine's network is left alone), with an image made here from Debian's static busybox (package busybox-static):
// nothing is pulled from a registry. Stopped with SIGTERM, which also stops its containers and containerd.
import { spawn, execFile, type ChildProcess } from 'node:child_process';
import { mkdirSync, readFileSync, symlinkSync, copyFileSync, existsSync } from 'node:fs';
import { request } from 'node:http';
import { join } from 'node:path';
import { waitFor } from './net.js';

export const BUSYBOX = '/bin/busybox';

export interface RealDockerd {
  socketPath: string;
  /** Runs the docker CLI against this daemon; resolves with stdout. */
  cli(args: string[], input?: Buffer): Promise<string>;
  stop(): Promise<void>;
}

/** Whether the daemon and the busybox binary are installed (the CI script installs both). */
export const dockerdInstalled = (): boolean => existsSync('/usr/sbin/dockerd') && existsSync(BUSYBOX);

const ping = (socketPath: string): Promise<boolean> => new Promise((resolve) => {
  const req = request({ socketPath, path: '/_ping', timeout: 1000 }, (res) => { res.resume(); resolve(res.statusCode === 200); });
  req.on('error', () => resolve(false));
  req.on('timeout', () => { req.destroy(); resolve(false); });
  req.end();
});

/** Starts dockerd in `dir` and imports `mini:1` (busybox as /bin/sh); resolves once it answers. */
export async function startRealDockerd(dir: string): Promise<RealDockerd> {
  const socketPath = join(dir, 'docker.sock');
  mkdirSync(join(dir, 'rootfs', 'bin'), { recursive: true });
  const child: ChildProcess = spawn('/usr/sbin/dockerd', [
    '--host', `unix://${socketPath}`, '--data-root', join(dir, 'data'), '--exec-root', join(dir, 'exec'), '--pidfile', join(dir, 'dockerd.pid'),
    '--bridge', 'none', '--iptables=false', '--ip6tables=false', '--ip-masq=false',
  ], { stdio: ['ignore', 'ignore', 'pipe'] });
  let log = '';
  child.stderr!.on('data', (b: Buffer) => { log = (log + b.toString()).slice(-8000); });
  let exited = false;
  const gone = new Promise<void>((resolve) => child.on('exit', () => { exited = true; resolve(); }));
  await waitFor(async () => {
    if (exited) throw new Error(`dockerd exited:\n${log}`);
    return (await ping(socketPath)) || undefined;
  }, { timeoutMs: 60_000, intervalMs: 100, what: 'dockerd answering /_ping' });
  const cli = (args: string[], input?: Buffer) => new Promise<string>((resolve, reject) => {
    const p = execFile('docker', ['-H', `unix://${socketPath}`, ...args], { timeout: 60_000, maxBuffer: 4 * 1024 * 1024 }, (err, stdout, stderr) => {
      if (err) reject(new Error(`docker ${args.join(' ')}: ${stderr || err.message}`)); else resolve(stdout);
    });
    p.stdin!.end(input);
  });
  const rootfs = join(dir, 'rootfs');
  copyFileSync(BUSYBOX, join(rootfs, 'bin', 'busybox'));
  symlinkSync('busybox', join(rootfs, 'bin', 'sh'));
  const tar = await new Promise<Buffer>((resolve, reject) => {
    execFile('tar', ['-C', rootfs, '-c', '.'], { encoding: 'buffer', maxBuffer: 16 * 1024 * 1024 }, (err, stdout) => (err ? reject(err) : resolve(stdout)));
  });
  await cli(['import', '-', 'mini:1'], tar);
  return {
    socketPath, cli,
    async stop() {
      if (exited) return;
      const pid = Number(readFileSync(join(dir, 'dockerd.pid'), 'utf8').trim()) || child.pid!;
      process.kill(pid, 'SIGTERM');
      const done = await Promise.race([gone.then(() => true), new Promise<boolean>((r) => setTimeout(() => r(false), 20_000))]);
      if (!done) process.kill(pid, 'SIGKILL');
    },
  };
}
