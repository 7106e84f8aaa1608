import type { ManagerListing, PackageRow } from './package-row.js';
import { readCommand } from './run-reader.js';

/** `rpm -qa` lines `name\tversion-release\tbytes\tsummary` (dnf and zypper systems). */
export function parseRpmList(out: string, manager: 'dnf' | 'zypper'): PackageRow[] {
  const rows: PackageRow[] = [];
  for (const line of out.split('\n')) {
    const [name, version, size, summary] = line.split('\t');
    if (!name || !version || name === 'gpg-pubkey') continue;
    rows.push({ manager, name, version, new_version: null, size_bytes: /^\d+$/.test(size) ? Number(size) : null, description: summary ?? '' });
  }
  return rows;
}

/** `dnf -q check-update` (exit 100 when there are some): `name.arch  version  repo`. */
export function parseDnfUpdates(out: string): Map<string, string> {
  const map = new Map<string, string>();
  for (const line of out.split('\n')) {
    const m = /^(\S+)\.[A-Za-z0-9_]+\s+(\S+)\s+\S+\s*$/.exec(line);
    if (m) map.set(m[1], m[2]);
  }
  return map;
}

/** `zypper -q lu`: `v | repo | name | current | available | arch` rows. */
export function parseZypperUpdates(out: string): Map<string, string> {
  const map = new Map<string, string>();
  for (const line of out.split('\n')) {
    const cells = line.split('|').map((c) => c.trim());
    if (cells.length >= 6 && cells[0] === 'v') map.set(cells[2], cells[4]);
  }
  return map;
}

/** `pacman -Qi` blocks: Name, Version, Description, Installed Size (`1.5 MiB`). */
export function parsePacmanInfo(out: string): PackageRow[] {
  const rows: PackageRow[] = [];
  for (const block of out.split(/\n\s*\n/)) {
    const field = (key: string): string | undefined => new RegExp(`^${key}\\s*:\\s*(.*)$`, 'm').exec(block)?.[1]?.trim();
    const name = field('Name');
    const version = field('Version');
    if (!name || !version) continue;
    const size = /^([\d.]+)\s*(B|KiB|MiB|GiB)$/.exec(field('Installed Size') ?? '');
    const unit = { B: 1, KiB: 1024, MiB: 1024 ** 2, GiB: 1024 ** 3 } as Record<string, number>;
    rows.push({ manager: 'pacman', name, version, new_version: null, size_bytes: size ? Math.round(Number(size[1]) * unit[size[2]]) : null, description: field('Description') ?? '' });
  }
  return rows;
}

/** `pacman -Qu`: `name old -> new`. */
export function parsePacmanUpdates(out: string): Map<string, string> {
  const map = new Map<string, string>();
  for (const line of out.split('\n')) {
    const m = /^(\S+) \S+ -> (\S+)/.exec(line);
    if (m) map.set(m[1], m[2]);
  }
  return map;
}

/** `snap list` columns: Name Version Rev Tracking Publisher Notes (no sizes or descriptions there). */
export function parseSnapList(out: string): PackageRow[] {
  return out.split('\n').slice(1).filter((l) => l.trim()).map((line) => {
    const [name, version] = line.split(/\s+/);
    return { manager: 'snap' as const, name, version: version ?? '', new_version: null, size_bytes: null, description: '' };
  });
}

/** `snap refresh --list`: the same columns for snaps with a newer revision. */
export function parseSnapUpdates(out: string): Map<string, string> {
  return new Map(parseSnapList(out).map((r) => [r.name, r.version]));
}

/** `flatpak list --app --columns=application,version,size,description`, tab-separated; size like `1.2 GB`. */
export function parseFlatpakList(out: string): PackageRow[] {
  const unit: Record<string, number> = { bytes: 1, kB: 1e3, MB: 1e6, GB: 1e9 };
  return out.split('\n').filter((l) => l.trim()).map((line) => {
    const [name, version, size, description] = line.split('\t');
    const s = /^([\d.]+)\s*(bytes|kB|MB|GB)$/.exec((size ?? '').replace(/\u00a0/g, ' ').trim());
    return { manager: 'flatpak' as const, name, version: version ?? '', new_version: null, size_bytes: s ? Math.round(Number(s[1]) * unit[s[2]]) : null, description: description ?? '' };
  });
}

/** `flatpak remote-ls --updates --columns=application,version`. */
export function parseFlatpakUpdates(out: string): Map<string, string> {
  const map = new Map<string, string>();
  for (const line of out.split('\n')) {
    const [app, version] = line.split('\t');
    if (app?.trim()) map.set(app.trim(), version?.trim() || 'newer');
  }
  return map;
}

function withUpdates(rows: PackageRow[], updates: Map<string, string> | null, note: string | null): ManagerListing {
  if (updates) for (const row of rows) row.new_version = updates.get(row.name) ?? null;
  return { rows, updates_known: updates !== null, note };
}

/** Reads one of dnf, zypper, pacman, snap or flatpak: its installed list and, when asked, its pending updates. */
export async function readOther(manager: 'dnf' | 'zypper' | 'pacman' | 'snap' | 'flatpak', updates: boolean, signal?: AbortSignal): Promise<ManagerListing> {
  const fail = (what: string, out: { error?: string; stderr: string }): ManagerListing => ({ rows: [], updates_known: false, note: `${what} failed: ${(out.stderr.trim() || out.error || '').slice(0, 300)}` });
  switch (manager) {
    case 'dnf':
    case 'zypper': {
      const list = await readCommand('rpm', ['-qa', '--qf', '%{NAME}\\t%{VERSION}-%{RELEASE}\\t%{SIZE}\\t%{SUMMARY}\\n'], signal);
      if (!list.ok) return fail('rpm -qa', list);
      const rows = parseRpmList(list.stdout, manager);
      if (!updates) return withUpdates(rows, null, null);
      if (manager === 'dnf') {
        const u = await readCommand('dnf', ['-q', '-C', 'check-update'], signal);
        return u.ok || u.code === 100 ? withUpdates(rows, parseDnfUpdates(u.stdout), null) : withUpdates(rows, null, `dnf check-update failed: ${u.stderr.trim().slice(0, 300)}`);
      }
      const u = await readCommand('zypper', ['-q', '--no-refresh', 'lu'], signal);
      return u.ok ? withUpdates(rows, parseZypperUpdates(u.stdout), null) : withUpdates(rows, null, `zypper lu failed: ${u.stderr.trim().slice(0, 300)}`);
    }
    case 'pacman': {
      const list = await readCommand('pacman', ['-Qi'], signal);
      if (!list.ok) return fail('pacman -Qi', list);
      const rows = parsePacmanInfo(list.stdout);
      if (!updates) return withUpdates(rows, null, null);
      // pacman -Qu exits 1 when nothing is out of date.
      const u = await readCommand('pacman', ['-Qu'], signal);
      return withUpdates(rows, u.ok || u.code === 1 ? parsePacmanUpdates(u.stdout) : null, u.ok || u.code === 1 ? null : 'pacman -Qu failed');
    }
    case 'snap': {
      const list = await readCommand('snap', ['list'], signal);
      if (!list.ok) return fail('snap list', list);
      const rows = parseSnapList(list.stdout);
      if (!updates) return withUpdates(rows, null, null);
      const u = await readCommand('snap', ['refresh', '--list'], signal);
      return withUpdates(rows, u.ok ? parseSnapUpdates(u.stdout) : new Map(), null);
    }
    case 'flatpak': {
      const list = await readCommand('flatpak', ['list', '--columns=application,version,size,description'], signal);
      if (!list.ok) return fail('flatpak list', list);
      const rows = parseFlatpakList(list.stdout);
      if (!updates) return withUpdates(rows, null, null);
      const u = await readCommand('flatpak', ['remote-ls', '--updates', '--columns=application,version'], signal);
      return withUpdates(rows, u.ok ? parseFlatpakUpdates(u.stdout) : null, u.ok ? null : 'flatpak remote-ls --updates failed');
    }
  }
}
