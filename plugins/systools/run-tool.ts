import { spawn } from 'node:child_process';

export interface ToolResult {
  /** Exit status; null when the program was ended by a signal (its time limit). */
  code: number | null;
  stdout: string;
  stderr: string;
  timedOut: boolean;
}

export interface ToolOptions {
  timeoutMs: number;
  /** Bytes kept of each of stdout and stderr; the rest is dropped (the caller's bound). */
  maxBytes?: number;
  /** Written to stdin, then stdin is closed. */
  input?: string;
  env?: NodeJS.ProcessEnv;
}

/** A tool that is not installed (ENOENT), as opposed to one that ran and failed. */
export class ToolMissing extends Error {
  constructor(readonly program: string) {
    super(`${program} is not installed`);
  }
}

/**
 * Runs a program with an argument list (never a shell) under a time limit: SIGTERM at the limit, SIGKILL 2 s later.
 * The result never carries the argument list, so a secret in it (a key's passphrase) reaches no message or log.
 */
export function runTool(program: string, args: readonly string[], options: ToolOptions): Promise<ToolResult> {
  const max = options.maxBytes ?? 4 * 1024 * 1024;
  return new Promise((resolve, reject) => {
    const child = spawn(program, args, {
      stdio: ['pipe', 'pipe', 'pipe'],
      env: { ...(options.env ?? process.env), LC_ALL: 'C', SYSTEMD_PAGER: '', SYSTEMD_COLORS: '0' },
    });
    const out: Buffer[] = [];
    const err: Buffer[] = [];
    let outBytes = 0;
    let errBytes = 0;
    let timedOut = false;
    let killer: NodeJS.Timeout | undefined;
    const timer = setTimeout(() => {
      timedOut = true;
      child.kill('SIGTERM');
      killer = setTimeout(() => child.kill('SIGKILL'), 2_000);
      killer.unref();
    }, options.timeoutMs);
    child.stdout.on('data', (b: Buffer) => { if (outBytes < max) { out.push(b); outBytes += b.length; } });
    child.stderr.on('data', (b: Buffer) => { if (errBytes < max) { err.push(b); errBytes += b.length; } });
    child.on('error', (e: NodeJS.ErrnoException) => {
      clearTimeout(timer);
      reject(e.code === 'ENOENT' ? new ToolMissing(program) : new Error(`${program} could not be started: ${e.code ?? e.message}`));
    });
    child.on('close', (code) => {
      clearTimeout(timer);
      if (killer) clearTimeout(killer);
      resolve({
        code, timedOut,
        stdout: Buffer.concat(out).subarray(0, max).toString('utf8'),
        stderr: Buffer.concat(err).subarray(0, max).toString('utf8'),
      });
    });
    // A program that exits before reading its input closes the pipe: that is its answer, not a crash of ours.
    child.stdin.on('error', () => undefined);
    child.stdin.end(options.input ?? '');
  });
}
