/** One thing the health score takes points for, in plain words, with where it can be fixed. */
export interface Finding {
  severity: 'critical' | 'warning' | 'info';
  title: string;
  detail: string;
  /** The kind of fix, perch's names where it has one: clean, updates, services, memory, temperature, battery, reboot, security. */
  action: string;
  /** The dashboard page where it can be fixed or looked into. */
  path: string;
}

/** What the score is judged from; a fact that could not be read is null (and named in `unchecked`). */
export interface HealthFacts {
  mounts: { mountPoint: string; usedPercent: number }[];
  memory: { usedPercent: number; swapPercent: number; swapTotal: number } | null;
  hottest: { label: string; celsius: number } | null;
  /** Full charge against design capacity, %, per battery that reports both. */
  batteryHealth: { name: string; percent: number }[];
  updates: { total: number; security: number; manager: string } | null;
  failedUnits: string[] | null;
  rebootRequired: boolean;
}

export const PENALTY = { critical: 20, warning: 10, info: 3 } as const;

/** Where each kind of fix is done in the dashboard: the Packages page installs updates; the terminal runs systemctl. */
const FIX_PATH: Record<string, string> = {
  clean: '/host', updates: '/host/packages?updatable=1', services: '/host/logs?prio=err', memory: '/host/processes?sort=mem',
  temperature: '/host/processes?sort=cpu', battery: '/host', reboot: '/host/terminal',
};

const f = (severity: Finding['severity'], action: string, title: string, detail: string): Finding => ({ severity, title, detail, action, path: FIX_PATH[action] });
const pct = (n: number) => `${Math.round(n)} %`;

/**
 * perch's findings: critical a partition ≥ 92 %; warning a partition ≥ 85 %, security updates pending, failed
 * system units, memory ≥ 90 % with swap ≥ 50 %, the hottest sensor ≥ 85 °C; info other updates pending, a reboot
 * required, a battery holding under 70 % of its design capacity. Worst first.
 */
export function healthFindings(x: HealthFacts): Finding[] {
  const out: Finding[] = [];
  for (const m of x.mounts) {
    if (m.usedPercent >= 92) out.push(f('critical', 'clean', `${m.mountPoint} is almost full (${pct(m.usedPercent)})`, 'Programs fail to save and logs stop at 100 %. Delete or move large files, empty the trash, or clear package caches.'));
    else if (m.usedPercent >= 85) out.push(f('warning', 'clean', `${m.mountPoint} is filling up (${pct(m.usedPercent)})`, 'Free some space before it reaches 92 %: old downloads, caches and container images are the usual culprits.'));
  }
  if (x.updates && x.updates.security > 0) {
    out.push(f('warning', 'updates', `${x.updates.security} security update${x.updates.security === 1 ? '' : 's'} pending`, `Install them soon: ${x.updates.manager === 'apt' ? 'sudo apt-get upgrade' : `your package manager (${x.updates.manager})`}.`));
  }
  if (x.failedUnits && x.failedUnits.length > 0) {
    const n = x.failedUnits.length;
    out.push(f('warning', 'services', `${n} service${n === 1 ? '' : 's'} failed`, `${x.failedUnits.slice(0, 5).join(', ')}${n > 5 ? ', …' : ''}: read their logs, then restart them (systemctl restart <unit>).`));
  }
  if (x.memory && x.memory.usedPercent >= 90 && x.memory.swapTotal > 0 && x.memory.swapPercent >= 50) {
    out.push(f('warning', 'memory', `Memory is short (${pct(x.memory.usedPercent)} used, swap ${pct(x.memory.swapPercent)})`, 'The machine swaps and slows down. Close what you do not need; the processes page shows what uses memory.'));
  }
  if (x.hottest && x.hottest.celsius >= 85) {
    out.push(f('warning', 'temperature', `Running hot: ${x.hottest.label} at ${Math.round(x.hottest.celsius)} °C`, 'Sustained heat throttles the CPU and wears the hardware. Check what keeps it busy, and the fans and vents.'));
  }
  if (x.updates && x.updates.total - x.updates.security > 0) {
    const n = x.updates.total - x.updates.security;
    out.push(f('info', 'updates', `${n} update${n === 1 ? '' : 's'} pending`, 'Not security fixes, but worth installing when convenient.'));
  }
  if (x.rebootRequired) out.push(f('info', 'reboot', 'A restart is required', 'Updates installed need a restart to take effect (/var/run/reboot-required).'));
  for (const b of x.batteryHealth) {
    if (b.percent < 70) out.push(f('info', 'battery', `Battery ${b.name} is worn (${pct(b.percent)} of its design capacity)`, 'It holds less charge than new; plan to replace it if the runtime is too short.'));
  }
  return sortFindings(out);
}

/** Worst first; findings of one severity keep their order. */
export function sortFindings(findings: Finding[]): Finding[] {
  const order = { critical: 0, warning: 1, info: 2 };
  return findings.sort((a, b) => order[a.severity] - order[b.severity]);
}

/** max(0, 100 − Σ penalties) and perch's verdict. */
export function healthScore(findings: readonly Finding[]): { score: number; verdict: string } {
  const score = Math.max(0, 100 - findings.reduce((s, x) => s + PENALTY[x.severity], 0));
  const verdict = score >= 90 ? 'Excellent' : score >= 75 ? 'Good' : score >= 50 ? 'Needs attention' : 'Poor';
  return { score, verdict };
}
