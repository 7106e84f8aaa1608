import { spawn } from 'node:child_process';

export interface BoundedResult {
  /** Exit status; null when ended by a signal (its time limit). */
  code: number | null;
  stdout: string;
  stderr: string;
  timedOut: boolean;
  /** stdout passed `maxBytes` and was cut there. */
  cut: boolean;
}

/** A program that is not installed (ENOENT), as opposed to one that ran and failed. */
export class ProgramMissing extends Error {
  constructor(readonly program: string) {
    super(`${program} is not installed or not on the PATH`);
  }
}

/**
 * Runs a short question to a program (`make -p`, `gsettings get`) with an argument list, never a shell: SIGKILL at
 * `timeoutMs` (these programs hold nothing worth a graceful end), stdout cut at `maxBytes`, stderr at 64 KiB.
 */
export function runBounded(program: string, args: readonly string[], o: { cwd?: string; timeoutMs: number; maxBytes: number; env?: NodeJS.ProcessEnv }): Promise<BoundedResult> {
  return new Promise((resolve, reject) => {
    const child = spawn(program, args, { cwd: o.cwd, stdio: ['ignore', 'pipe', 'pipe'], env: { ...(o.env ?? process.env), LC_ALL: 'C', LANGUAGE: '' } });
    const out: Buffer[] = [];
    const err: Buffer[] = [];
    let outBytes = 0;
    let errBytes = 0;
    let cut = false;
    let timedOut = false;
    const timer = setTimeout(() => { timedOut = true; child.kill('SIGKILL'); }, o.timeoutMs);
    child.stdout.on('data', (b: Buffer) => {
      if (outBytes >= o.maxBytes) { cut = true; return; }
      out.push(b);
      outBytes += b.length;
    });
    child.stderr.on('data', (b: Buffer) => { if (errBytes < 65_536) { err.push(b); errBytes += b.length; } });
    child.on('error', (e: NodeJS.ErrnoException) => {
      clearTimeout(timer);
      reject(e.code === 'ENOENT' ? new ProgramMissing(program) : new Error(`${program} could not be started: ${e.code ?? e.message}`));
    });
    child.on('close', (code) => {
      clearTimeout(timer);
      const all = Buffer.concat(out);
      resolve({ code, timedOut, cut: cut || all.length > o.maxBytes, stdout: all.subarray(0, o.maxBytes).toString('utf8'), stderr: Buffer.concat(err).toString('utf8') });
    });
  });
}
