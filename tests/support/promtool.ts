import { spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';

const PROMTOOL = process.env.PROMTOOL ?? '/usr/bin/promtool';

/**
 * Runs `promtool check metrics` on exposition text (fed on stdin, as a scrape would be). Returns null, after printing
 * why, when promtool is not installed outside CI; in CI a missing promtool is a failure.
 */
export function promtoolCheck(text: string): { ok: boolean; output: string } | null {
  if (!existsSync(PROMTOOL)) {
    if (process.env.CI) throw new Error(`promtool is required in CI but missing at ${PROMTOOL} (Debian package "prometheus")`);
    console.log(`SKIP promtool check: ${PROMTOOL} not found (install the Debian package "prometheus")`);
    return null;
  }
  const r = spawnSync(PROMTOOL, ['check', 'metrics'], { input: text, encoding: 'utf8', timeout: 30_000 });
  return { ok: r.status === 0, output: `${r.stdout ?? ''}${r.stderr ?? ''}`.trim() };
}
