import { execFile } from 'node:child_process';

export interface BoundedRun {
  code: number | null;
  stdout: string;
  stderr: string;
  /** The output passed `maxBytes` and was cut there. */
  truncated: boolean;
  timedOut: boolean;
}

/**
 * Runs `file` with an argument list (no shell) under a timeout, keeping at most `maxBytes` of each output; a failure
 * is an answer (code, stderr), not a throw, except when the program cannot start at all.
 */
export function runBounded(file: string, args: readonly string[], o: { timeoutMs: number; maxBytes: number }): Promise<BoundedRun> {
  return new Promise((resolve, reject) => {
    execFile(file, args, { timeout: o.timeoutMs, maxBuffer: o.maxBytes, env: { ...process.env, LC_ALL: 'C' }, killSignal: 'SIGKILL' }, (error, stdout, stderr) => {
      const err = error as (NodeJS.ErrnoException & { code?: number | string; killed?: boolean }) | null;
      if (err && typeof err.code === 'string' && err.code !== 'ERR_CHILD_PROCESS_STDIO_MAXBUFFER') return reject(err);
      resolve({
        code: err ? (typeof err.code === 'number' ? err.code : null) : 0,
        stdout: String(stdout), stderr: String(stderr),
        truncated: err?.code === 'ERR_CHILD_PROCESS_STDIO_MAXBUFFER',
        timedOut: Boolean(err?.killed) && err?.code !== 'ERR_CHILD_PROCESS_STDIO_MAXBUFFER',
      });
    });
  });
}
