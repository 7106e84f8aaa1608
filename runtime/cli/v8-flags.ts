/**
 * V8 flags `vigil run` should serve with. They size the heap as the process starts (`v8.setFlagsFromString` later
 * does nothing), so they must be on Node's command line: bin/vigil.js's shebang and `npm start` pass them, and
 * `vigil run` warns when they are absent (docs/operations.md, "Young generation").
 *
 * A 64 MB semi-space, against Node's 16 MB default: the traffic lane allocates a few KB per request, and with the
 * default young generation each scavenge pauses the event loop long enough to set the gateway's p99
 * (`bench/gateway-gc.ts`, `bench/gateway-latency.ts`). The price is some resident memory.
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
