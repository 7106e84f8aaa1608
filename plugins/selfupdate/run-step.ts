import { spawn } from 'node:child_process';

export interface StepResult {
  /** Exit status; null when ended by a signal (its time limit, or a cancel). */
  code: number | null;
  timedOut: boolean;
  /** The last `keepBytes` of stdout, for callers that read a program's answer (`git rev-parse`). */
  stdout: string;
  /** The last `keepBytes` of stderr, for the refusal's message. */
  stderr: string;
}

export interface StepOptions {
  cwd: string;
  timeoutMs: number;
  /** Each chunk of output as it arrives (stdout and stderr), for the update's log. */
  onOutput?(text: string): void;
  /** Bytes kept of each stream for the result; the log sees everything (it keeps its own bound). Default 1 MiB. */
  keepBytes?: number;
  env?: NodeJS.ProcessEnv;
}

/** Keeps the last `max` bytes of a stream: the end of a failing program's output is where it says why. */
function tail(max: number) {
  let chunks: Buffer[] = [];
  let bytes = 0;
  return {
    push(b: Buffer) {
      chunks.push(b);
      bytes += b.length;
      while (bytes - chunks[0].length >= max) bytes -= chunks.shift()!.length;
    },
    text(): string {
      const all = Buffer.concat(chunks);
      chunks = [all];
      return all.subarray(Math.max(0, all.length - max)).toString('utf8');
    },
  };
}

/**
 * Runs one program of an update with an argument list (never a shell) under a time limit: SIGTERM at the limit,
 * SIGKILL 5 s later. A program that is missing rejects; one that runs and fails resolves with its code.
 */
export function runStep(program: string, args: readonly string[], options: StepOptions): Promise<StepResult> {
  const keep = options.keepBytes ?? 1024 * 1024;
  return new Promise((resolve, reject) => {
    const child = spawn(program, args, {
      cwd: options.cwd, stdio: ['ignore', 'pipe', 'pipe'],
      // No prompt may wait for a terminal that is not there (git asking for a password would hang to the limit).
      env: { ...(options.env ?? process.env), GIT_TERMINAL_PROMPT: '0', LC_ALL: 'C' },
    });
    const out = tail(keep);
    const err = tail(keep);
    let timedOut = false;
    let killer: NodeJS.Timeout | undefined;
    const timer = setTimeout(() => {
      timedOut = true;
      child.kill('SIGTERM');
      killer = setTimeout(() => child.kill('SIGKILL'), 5_000);
      killer.unref();
    }, options.timeoutMs);
    child.stdout.on('data', (b: Buffer) => { out.push(b); options.onOutput?.(b.toString('utf8')); });
    child.stderr.on('data', (b: Buffer) => { err.push(b); options.onOutput?.(b.toString('utf8')); });
    child.on('error', (e: NodeJS.ErrnoException) => {
      clearTimeout(timer);
      reject(new Error(e.code === 'ENOENT' ? `${program} is not installed` : `${program} could not be started: ${e.code ?? e.message}`));
    });
    child.on('close', (code) => {
      clearTimeout(timer);
      if (killer) clearTimeout(killer);
      resolve({ code, timedOut, stdout: out.text(), stderr: err.text() });
    });
  });
}
