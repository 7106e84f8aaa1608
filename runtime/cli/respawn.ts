import { spawn } from 'node:child_process';
import { constants } from 'node:os';

/**
 * V8 flags `vigil run` serves with. They size the heap as the process starts (`v8.setFlagsFromString` later does
 * nothing), so they must be on Node's command line; when they are not, `vigil run` starts itself again with them.
 *
 * A 64 MB semi-space, against Node's 16 MB default: the traffic lane allocates a few KB per request, and with the
 * default young generation each scavenge paused the event loop for several milliseconds, often enough to set the
 * gateway's p99. `bench/gateway-gc.ts` (2 vCPUs, 1,500 req/s paced) measured scavenge pauses of 11.6–22.5 ms per 1,000
 * requests with the default and 1.3–8.4 ms with this (3 runs each). The price is memory: a gateway capturing 5,600
 * req/s in full held 430 MB resident against 362 MB with the default.
 */
export const RUN_V8_FLAGS: readonly string[] = ['--max-semi-space-size=64'];

/** V8 accepts `_` for `-` in a flag's name. */
const flagName = (arg: string): string => arg.split('=')[0].replaceAll('_', '-');

/**
 * The flags of `wanted` (by default `vigil run`'s) that neither Node's command line nor NODE_OPTIONS names, in this
 * process by default: one the operator set, with any value, stays theirs.
 */
export function missingFlags(
  wanted: readonly string[] = RUN_V8_FLAGS,
  execArgv: readonly string[] = process.execArgv,
  nodeOptions = process.env.NODE_OPTIONS ?? '',
): string[] {
  const present = new Set([...execArgv, ...nodeOptions.split(/\s+/)].filter(Boolean).map(flagName));
  return wanted.filter((flag) => !present.has(flagName(flag)));
}

const FORWARDED_SIGNALS: readonly NodeJS.Signals[] = ['SIGINT', 'SIGTERM', 'SIGHUP'];

/**
 * Runs `script argv` in a new Node process with `flags` added to this one's, and resolves to its exit code (128 plus
 * the signal's number when a signal ended it).
 * - The child leads its own process group, so a terminal's Ctrl-C reaches it once, forwarded from here, and not
 *   twice (to `vigil run`, a second signal means "exit without draining").
 * - It shares an IPC channel with this process: when this one dies, even by SIGKILL, the channel closes and the
 *   child stops (`vigil run` listens for that), so it never outlives its parent.
 */
export function respawn(flags: readonly string[], script: string, argv: readonly string[]): Promise<number> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [...process.execArgv, ...flags, script, ...argv], {
      stdio: ['inherit', 'inherit', 'inherit', 'ipc'],
      detached: true,
    });
    const forward = (signal: NodeJS.Signals) => { child.kill(signal); };
    for (const s of FORWARDED_SIGNALS) process.on(s, forward);
    const done = () => { for (const s of FORWARDED_SIGNALS) process.off(s, forward); };
    child.once('error', (err) => { done(); reject(err); });
    child.once('exit', (code, signal) => {
      done();
      resolve(code ?? 128 + (signal ? constants.signals[signal] : 0));
    });
  });
}
