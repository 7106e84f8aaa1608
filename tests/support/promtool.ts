import { spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';

const PROMTOOL = process.env.PROMTOOL ?? '/usr/bin/promtool';

/**
 * Runs `promtool <args>` (in `cwd`, with `input` on stdin). Returns null, after printing why, when promtool is not
 * installed outside CI; in CI a missing promtool is a failure.
 */
export function promtool(args: string[], options: { cwd?: string; input?: string } = {}): { ok: boolean; output: string } | null {
  if (!existsSync(PROMTOOL)) {
    if (process.env.CI) throw new Error(`promtool is required in CI but missing at ${PROMTOOL} (Debian package "prometheus")`);
    console.log(`SKIP promtool ${args.join(' ')}: ${PROMTOOL} not found (install the Debian package "prometheus")`);
    return null;
  }
  const r = spawnSync(PROMTOOL, args, { cwd: options.cwd, input: options.input, encoding: 'utf8', timeout: 60_000 });
  return { ok: r.status === 0, output: `${r.stdout ?? ''}${r.stderr ?? ''}${r.error ? String(r.error) : ''}`.trim() };
}

/** Runs `promtool check metrics` on exposition text (fed on stdin, as a scrape would be). Null as for `promtool`. */
export function promtoolCheck(text: string): { ok: boolean; output: string } | null {
  return promtool(['check', 'metrics'], { input: text });
}
