import { spawn, type ChildProcess } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { vigilBin, repoRoot } from './paths.js';
import { waitFor } from './net.js';

export interface VigilProcess {
  proc: ChildProcess;
  /** Everything the process wrote so far. */
  stdout(): string;
  stderr(): string;
  /** Resolves with the exit code and signal once the process ended. */
  exited: Promise<{ code: number | null; signal: NodeJS.Signals | null }>;
  /** Sends a signal (default SIGTERM) and waits for the exit. */
  stop(signal?: NodeJS.Signals): Promise<{ code: number | null; signal: NodeJS.Signals | null }>;
}

export interface SpawnOptions {
  cwd?: string;
  env?: NodeJS.ProcessEnv;
  /** Run bin/vigil.js as an executable, by its shebang, instead of as `node bin/vigil.js`. */
  asExecutable?: boolean;
}

/** Runs `vigil <args>` from the built tree, as a user would. */
export function spawnVigil(args: string[], options: SpawnOptions = {}): VigilProcess {
  const [command, argv] = options.asExecutable ? [vigilBin, args] : [process.execPath, [vigilBin, ...args]];
  const proc = spawn(command, argv, {
    cwd: options.cwd ?? repoRoot,
    env: { ...process.env, NO_COLOR: '1', ...options.env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let out = '';
  let err = '';
  proc.stdout!.on('data', (d) => { out += d; });
  proc.stderr!.on('data', (d) => { err += d; });
  const exited = new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((resolve) =>
    proc.on('close', (code, signal) => resolve({ code, signal })));
  return {
    proc,
    stdout: () => out,
    stderr: () => err,
    exited,
    async stop(signal = 'SIGTERM') {
      if (proc.exitCode === null && proc.signalCode === null) proc.kill(signal);
      return exited;
    },
  };
}

/** Runs a command to completion: exit code and output. */
export async function runVigil(args: string[], options: SpawnOptions = {}) {
  const p = spawnVigil(args, options);
  const { code } = await p.exited;
  return { code, stdout: p.stdout(), stderr: p.stderr() };
}

/** Writes `yaml` to `<dir>/<name>` and returns its path. */
export function writeConfig(dir: string, yaml: string, name = 'vigil.yaml'): string {
  const file = join(dir, name);
  writeFileSync(file, yaml);
  return file;
}

/** Starts `vigil run` and waits until /api/health answers 200 (or the process dies). */
export async function startVigil(configFile: string, baseUrl: string, options: SpawnOptions & { timeoutMs?: number } = {}): Promise<VigilProcess> {
  const p = spawnVigil(['run', '-config', configFile], options);
  let dead = false;
  void p.exited.then(() => { dead = true; });
  await waitFor(async () => {
    if (dead) throw new Error(`vigil exited before it was healthy:\n${p.stderr()}`);
    const res = await fetch(`${baseUrl}/api/health`).catch(() => undefined);
    return res?.status === 200;
  }, { timeoutMs: options.timeoutMs ?? 15_000, what: `${baseUrl}/api/health` }).catch(async (e) => {
    await p.stop('SIGKILL');
    const failure = new Error(`${(e as Error).message}\nstderr:\n${p.stderr()}`);
    // Said here as well as thrown: uvu drops an error thrown by a `before` hook without a word (its runner returns
    // from `finally`), and most suites start vigil in one, so CI would show only "(0 / N)".
    console.error(`startVigil: ${failure.message}`);
    throw failure;
  });
  return p;
}
