import { spawn } from 'node:child_process';
import { StringDecoder } from 'node:string_decoder';
import type { PrivilegedResult } from '@vigil/plugin-sdk';

/** Output a result keeps, in characters: the tail, where a failure's reason is. */
export const OUTPUT_TAIL_BYTES = 256 * 1024;
/** After SIGTERM, a program that has not ended gets SIGKILL this much later. */
const KILL_GRACE_MS = 5_000;
/** The only PATH a privileged program sees. */
export const SYSTEM_PATH = '/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin';

export interface ProgramRun {
  command: string;
  argv: string[];
  env: Record<string, string>;
  /** Written to stdin, then stdin is closed (sudo -S reads the password's line from it). Wiped after it is written. */
  stdin?: Buffer;
  timeoutMs: number;
  endsAtLimit?: boolean;
  onOutput?(text: string): void;
  signal?: AbortSignal;
  method: PrivilegedResult['method'];
}

/**
 * Runs one program without a shell, streaming its output, under a wall-clock limit and a cancel signal (SIGTERM,
 * then SIGKILL). Resolves with how it ended; never rejects for the program's own failure.
 */
export function runProgram(run: ProgramRun): Promise<PrivilegedResult> {
  const started = Date.now();
  return new Promise((resolve) => {
    let tail = '';
    let truncated = false;
    let timedOut = false;
    let cancelled = false;
    let killTimer: NodeJS.Timeout | undefined;
    const child = spawn(run.command, run.argv, { env: { PATH: SYSTEM_PATH, LC_ALL: 'C', LANG: 'C', ...run.env }, stdio: ['pipe', 'pipe', 'pipe'] });
    const stop = (): void => {
      if (child.exitCode !== null || child.signalCode !== null) return;
      child.kill('SIGTERM');
      killTimer ??= setTimeout(() => child.kill('SIGKILL'), KILL_GRACE_MS).unref();
    };
    const limit = setTimeout(() => { timedOut = true; stop(); }, run.timeoutMs).unref();
    const onAbort = (): void => { cancelled = true; stop(); };
    if (run.signal?.aborted) onAbort(); else run.signal?.addEventListener('abort', onAbort, { once: true });
    const take = (decoder: StringDecoder) => (chunk: Buffer): void => {
      const text = decoder.write(chunk);
      if (!text) return;
      tail += text;
      if (tail.length > OUTPUT_TAIL_BYTES) { tail = tail.slice(tail.length - OUTPUT_TAIL_BYTES); truncated = true; }
      run.onOutput?.(text);
    };
    child.stdout.on('data', take(new StringDecoder('utf8')));
    child.stderr.on('data', take(new StringDecoder('utf8')));
    child.stdin.on('error', () => undefined);
    if (run.stdin) {
      const secret = run.stdin;
      child.stdin.end(secret, () => secret.fill(0));
    } else {
      child.stdin.end();
    }
    let spawnError: Error | undefined;
    child.once('error', (err) => { spawnError = err; });
    child.once('close', (code, signal) => {
      clearTimeout(limit);
      if (killTimer) clearTimeout(killTimer);
      run.signal?.removeEventListener('abort', onAbort);
      if (spawnError) { tail += `\n${run.command}: ${spawnError.message}\n`; }
      const normalEnd = run.endsAtLimit === true && timedOut && !cancelled;
      resolve({
        ok: !spawnError && !cancelled && ((code === 0 && !timedOut) || normalEnd),
        exit_code: code, signal, timed_out: timedOut, cancelled, output: tail, output_truncated: truncated,
        method: run.method, duration_ms: Date.now() - started,
      });
    });
  });
}
