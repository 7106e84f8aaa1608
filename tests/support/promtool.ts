import { spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';

const PROMTOOL = process.env.PROMTOOL ?? '/usr/bin/promtool';

/**
 * Runs `promtool <args>` (in `cwd`, with `input` on stdin). Returns null, after printing why, when promtool is not
 * installed outside CI; in CI a missing promtool is a failure.
 */
export function promtool(args: string[], options: { cwd?: string; input?: string } = {}): { ok: boolean; output: string; status: number | null } | null {
  if (!existsSync(PROMTOOL)) {
    if (process.env.CI) throw new Error(`promtool is required in CI but missing at ${PROMTOOL} (Debian package "prometheus")`);
    console.log(`SKIP promtool ${args.join(' ')}: ${PROMTOOL} not found (install the Debian package "prometheus")`);
    return null;
  }
  const r = spawnSync(PROMTOOL, args, { cwd: options.cwd, input: options.input, encoding: 'utf8', timeout: 60_000 });
  return { ok: r.status === 0, status: r.status, output: `${r.stdout ?? ''}${r.stderr ?? ''}${r.error ? String(r.error) : ''}`.trim() };
}

// node-exporter's memory gauges carry the kernel's /proc/meminfo field names (`node_memory_MemAvailable_bytes`), which
// promtool's lint calls camelCase; Grafana's node dashboards query those names, so that one lint is accepted for them.
const NODE_MEMINFO_LINT = /^node_memory_[A-Za-z0-9_]+_bytes metric names should be written in 'snake_case' not 'camelCase'$/;

/**
 * Runs `promtool check metrics` on exposition text (fed on stdin, as a scrape would be). Null as for `promtool`.
 * `ok` also when the only problems are the camelCase lint on node-exporter's meminfo names (exit status 3 is lint
 * only; a text promtool cannot parse exits 1).
 */
export function promtoolCheck(text: string): { ok: boolean; output: string } | null {
  const result = promtool(['check', 'metrics'], { input: text });
  if (!result || result.ok) return result;
  const problems = result.output.split('\n').filter((l) => l.trim() !== '');
  return { ...result, ok: result.status === 3 && problems.length > 0 && problems.every((l) => NODE_MEMINFO_LINT.test(l)) };
}
