import type { ManagerListing, PackageRow } from './package-row.js';
import { readCommand } from './run-reader.js';

/** `dpkg-query -W` with one tab-separated line per package: name (with :arch for foreign ones), version, KiB, status, summary. */
const DPKG_FORMAT = '${binary:Package}\\t${Version}\\t${Installed-Size}\\t${db:Status-Abbrev}\\t${binary:Summary}\\n';

/** Installed packages from dpkg-query's lines: only those whose status says installed (`ii`, `hi`, …), sizes in bytes. */
export function parseDpkgList(out: string): PackageRow[] {
  const rows: PackageRow[] = [];
  for (const line of out.split('\n')) {
    const [name, version, kib, status, summary] = line.split('\t');
    if (!name || !status || status[1] !== 'i') continue;
    rows.push({ manager: 'apt', name, version, new_version: null, size_bytes: /^\d+$/.test(kib) ? Number(kib) * 1024 : null, description: summary ?? '' });
  }
  return rows;
}

/** Upgrades from `apt-get -s upgrade`: `Inst <pkg>[:arch] [<old>] (<new> <origins> [<arch>])`, by package name. */
export function parseAptUpgrades(out: string): Map<string, string> {
  const upgrades = new Map<string, string>();
  for (const line of out.split('\n')) {
    const m = /^Inst (\S+) (?:\[[^\]]*\] )?\((\S+)/.exec(line);
    if (m) upgrades.set(m[1], m[2]);
  }
  return upgrades;
}

function aptArgs(options: readonly string[]): string[] {
  return options.flatMap((o) => ['-o', o]);
}

/** dpkg's installed list, with apt's pending upgrades when `updates` (apt's lists as of the last refresh; nothing downloaded). */
export async function readApt(o: { aptOptions: readonly string[]; updates: boolean; signal?: AbortSignal }): Promise<ManagerListing> {
  const [list, sim] = await Promise.all([
    readCommand('dpkg-query', ['-W', `-f=${DPKG_FORMAT}`], o.signal),
    o.updates ? readCommand('apt-get', ['-s', '-o', 'Debug::NoLocking=1', ...aptArgs(o.aptOptions), 'upgrade'], o.signal) : undefined,
  ]);
  if (!list.ok) return { rows: [], updates_known: false, note: `dpkg-query failed: ${list.error ?? list.stderr.trim()}` };
  const rows = parseDpkgList(list.stdout);
  if (!sim) return { rows, updates_known: false, note: null };
  if (!sim.ok) return { rows, updates_known: false, note: `apt-get -s upgrade failed: ${(sim.stderr.trim() || sim.error || '').slice(0, 300)}` };
  const upgrades = parseAptUpgrades(sim.stdout);
  for (const row of rows) {
    const next = upgrades.get(row.name) ?? upgrades.get(row.name.split(':')[0]);
    if (next !== undefined) row.new_version = next;
  }
  return { rows, updates_known: true, note: null };
}
