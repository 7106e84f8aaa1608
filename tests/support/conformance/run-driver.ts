// Runs one conformance driver (drivers.ts) against a scripted server: writes `{ items, options }` to its stdin,
// closes it, and reads the one JSON line it prints.
import { spawn } from 'node:child_process';
import { accessSync, constants } from 'node:fs';
import { delimiter, isAbsolute, join } from 'node:path';
import { repoRoot } from '../paths.js';
import type { ClientDriver } from './drivers.js';

/** The options every driver maps onto its client (docs/llm-wire-contract.md, "Conformance"). */
export interface DriverOptions {
  max_batch_items: number;
  max_buffer_items: number;
  flush_interval_ms: number;
  max_retries: number;
  retry_base_ms: number;
  timeout_ms: number;
}

export interface DriverResult {
  code: number | null;
  /** The parsed line, or undefined when the driver printed none. */
  counts: { sent: number; dropped: number } | undefined;
  stdout: string;
  stderr: string;
}

/** Whether the driver's toolchain can be run here. */
export function toolchainPresent(driver: ClientDriver): boolean {
  const candidates = isAbsolute(driver.toolchain)
    ? [driver.toolchain]
    : (process.env.PATH ?? '').split(delimiter).map((dir) => join(dir, driver.toolchain));
  return candidates.some((file) => { try { accessSync(file, constants.X_OK); return true; } catch { return false; } });
}

/** A deadline for the driver process, so a client that never exits fails its case instead of hanging the suite. */
const DRIVER_DEADLINE_MS = 60_000;

export function runDriver(driver: ClientDriver, env: { baseUrl: string; projectKey: string }, input: { items: unknown[]; options: DriverOptions }): Promise<DriverResult> {
  return new Promise((resolve) => {
    const child = spawn(driver.command, driver.args, {
      cwd: driver.cwd ?? repoRoot,
      env: { ...process.env, VIGIL_BASE_URL: env.baseUrl, VIGIL_PROJECT_KEY: env.projectKey },
      stdio: ['pipe', 'pipe', 'pipe'],
    });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (d) => { stdout += d; });
    child.stderr.on('data', (d) => { stderr += d; });
    const killer = setTimeout(() => child.kill('SIGKILL'), DRIVER_DEADLINE_MS);
    child.on('error', (err) => { stderr += `spawn: ${err.message}`; });
    child.on('close', (code) => {
      clearTimeout(killer);
      const lines = stdout.trim().split('\n').filter(Boolean);
      let counts: DriverResult['counts'];
      try { counts = lines.length ? JSON.parse(lines[lines.length - 1]) : undefined; } catch { counts = undefined; }
      resolve({ code, counts, stdout, stderr });
    });
    child.stdin.on('error', () => { /* a driver that exits without reading fails on its exit code */ });
    child.stdin.end(JSON.stringify(input));
  });
}

