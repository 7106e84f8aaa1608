/**
 * `vigil fn run FILE.js --input JSON_OR_@FILE`: runs a function file the way the runtime will (same sandbox, same
 * limits), so users can try it before deploying it. Exit codes: 0 ok, 1 the function failed, 2 usage.
 */
import { readFile } from 'node:fs/promises';
import { resolve } from 'node:path';
import type { CommandArgs, CommandDefinition, CommandIo } from '@vigil/plugin-sdk';
import { JsSandboxError, JsSandboxErrors } from './errors.js';
import { jsSandboxDefaults } from './options.js';
import type { JsResult, JsSandbox } from './types.js';

const usage = 'vigil fn run FILE.js [--input JSON|@FILE] [--timeout 250ms] [--memory 64] [--json]';

class FnUsageError extends Error {}

/** Milliseconds from `250`, `250ms` or `1.5s`. */
export function parseTimeoutFlag(text: string): number {
  const m = /^(\d+(?:\.\d+)?)(ms|s)?$/.exec(text.trim());
  const ms = m ? Math.round(Number(m[1]) * (m[2] === 's' ? 1000 : 1)) : NaN;
  if (!Number.isInteger(ms) || ms < 1 || ms > 600_000) {
    throw new FnUsageError(`--timeout takes a duration from 1ms to 600s such as 250ms or 2s, got "${text}"`);
  }
  return ms;
}

/** Megabytes from `64`. */
export function parseMemoryFlag(text: string): number {
  const mb = /^\d+$/.test(text.trim()) ? Number(text) : NaN;
  if (!Number.isInteger(mb) || mb < 8 || mb > 16_384) throw new FnUsageError(`--memory takes a number of MB from 8 to 16384, got "${text}"`);
  return mb;
}

/** The input from `--input`: JSON text, or `@path` to a JSON file (relative to the working directory). */
async function readInput(flag: string | undefined, cwd: string): Promise<unknown> {
  if (flag === undefined) return null;
  let text = flag;
  let where = '--input';
  if (flag.startsWith('@')) {
    where = flag.slice(1);
    try {
      text = await readFile(resolve(cwd, where), 'utf8');
    } catch (err) {
      throw new FnUsageError(`cannot read the input file ${where}: ${(err as Error).message}`);
    }
  }
  try {
    return JSON.parse(text);
  } catch (err) {
    throw new FnUsageError(`${where} is not JSON: ${(err as Error).message} (to pass a file, write --input @FILE)`);
  }
}

async function readSource(file: string | undefined, cwd: string): Promise<{ path: string; source: string }> {
  if (!file) throw new FnUsageError('name the function file: vigil fn run FILE.js');
  const path = resolve(cwd, file);
  try {
    return { path, source: await readFile(path, 'utf8') };
  } catch (err) {
    throw new FnUsageError(`cannot read the function file ${file}: ${(err as Error).message}`);
  }
}

function report(result: JsResult, asJson: boolean, io: CommandIo): number {
  if (asJson) {
    io.out(`${JSON.stringify(result, null, 2)}\n`);
    return result.ok ? 0 : 1;
  }
  for (const line of result.logs ?? []) io.err(`console: ${line}\n`);
  if (result.ok) {
    io.out(`${JSON.stringify(result.value, null, 2)}\n`);
    return 0;
  }
  io.err(`vigil fn run: ${result.error.reason}: ${result.error.message}\n`);
  if (result.error.stack) io.err(`${result.error.stack}\n`);
  return 1;
}

async function run(args: CommandArgs, io: CommandIo): Promise<number> {
  if (args.positionals[0] !== 'run') {
    const what = args.positionals[0] === undefined ? 'a subcommand is needed' : `unknown subcommand "${args.positionals[0]}"`;
    io.err(`vigil fn: ${what}\n\nUsage: ${usage}\n`);
    return 2;
  }
  let sandbox: Promise<JsSandbox> | undefined;
  try {
    const flags = args.flags;
    const timeoutMs = typeof flags.timeout === 'string' ? parseTimeoutFlag(flags.timeout) : jsSandboxDefaults.timeoutMs;
    const memoryLimitMb = typeof flags.memory === 'string' ? parseMemoryFlag(flags.memory) : jsSandboxDefaults.memoryLimitMb;
    if (args.positionals.length > 2) throw new FnUsageError(`one function file at a time, got ${args.positionals.length - 1}`);
    // Loaded here, not at the top: every `vigil` invocation lists this command, few run it.
    const { createJsSandbox } = await import('./sandbox.js');
    // The child process starts while the files are read: its start-up is most of this command's wall time.
    sandbox = createJsSandbox({ processes: 1, isolatesPerProcess: 1, timeoutMs, memoryLimitMb });
    sandbox.catch(() => {});
    const [{ path, source }, input] = await Promise.all([
      readSource(args.positionals[1], io.cwd),
      readInput(typeof flags.input === 'string' ? flags.input : undefined, io.cwd),
    ]);
    const sb = await sandbox;
    let result: JsResult;
    try {
      result = await (await sb.load(source, path)).call(input);
    } catch (err) {
      // load() rejects when the file cannot become a function: report it like a failed call.
      if (!(err instanceof JsSandboxError) || !err.reason) throw err;
      result = { ok: false, error: { reason: err.reason, message: err.message }, durationMs: 0 };
    }
    return report(result, flags.json === true, io);
  } catch (err) {
    if (err instanceof FnUsageError) {
      io.err(`vigil fn run: ${err.message}\n\nUsage: ${usage}\n`);
      return 2;
    }
    // The sandbox refused the input it was given: that is the --input flag's fault, not the function's.
    if (err instanceof JsSandboxError && err.code === JsSandboxErrors.INPUT) {
      io.err(`vigil fn run: --input: ${err.message}\n\nUsage: ${usage}\n`);
      return 2;
    }
    io.err(`vigil fn run: ${(err as Error).message}\n`);
    return 1;
  } finally {
    if (sandbox) await sandbox.then((sb) => sb.close(), () => {});
  }
}

export const fnCommand: CommandDefinition = {
  name: 'fn',
  summary: 'Run a sandboxed JavaScript function file with an input, as the runtime would',
  usage,
  flags: {
    input: { type: 'string', summary: 'The input: JSON text, or @FILE to read JSON from a file (default null)' },
    timeout: { type: 'string', summary: `Wall-clock limit of the call, e.g. 250ms or 2s (default ${jsSandboxDefaults.timeoutMs}ms)` },
    memory: { type: 'string', summary: `Memory limit of the isolate in MB (default ${jsSandboxDefaults.memoryLimitMb})` },
    json: { type: 'boolean', summary: 'Print the whole result (ok, value or error, durationMs, logs) as JSON on stdout' },
  },
  run,
};
