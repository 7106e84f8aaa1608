import { execFile } from 'node:child_process';

/** Every listing command's limit: a slow package manager never holds a request longer. */
export const READ_TIMEOUT_MS = 30_000;
/** Output a listing may print, in bytes (dpkg's list of 5,000 packages is about 500 KB). */
const MAX_OUTPUT = 64 * 1024 * 1024;

export interface ReadOutcome { ok: boolean; code: number | null; stdout: string; stderr: string; error?: string }

/** Runs a read-only command without a shell, under READ_TIMEOUT_MS; never rejects. */
export function readCommand(program: string, args: string[], signal?: AbortSignal): Promise<ReadOutcome> {
  return new Promise((resolve) => {
    execFile(program, args, {
      timeout: READ_TIMEOUT_MS, maxBuffer: MAX_OUTPUT, signal,
      env: { PATH: process.env.PATH ?? '/usr/bin:/bin', LC_ALL: 'C', LANG: 'C', DEBIAN_FRONTEND: 'noninteractive' },
    }, (err, stdout, stderr) => {
      const code = err ? (typeof (err as { code?: unknown }).code === 'number' ? (err as { code: number }).code : null) : 0;
      resolve({ ok: !err, code, stdout: String(stdout), stderr: String(stderr), error: err ? err.message : undefined });
    });
  });
}
