import type { AlertDigest, AlertsService, AlertWindow, ChannelMessage, Queryable } from '@vigil/plugin-sdk';
import { readUptime } from '../proc/uptime.js';
import type { PendingUpdates } from '../health/pending-updates.js';
import { CUSTOM_PREFIX, managedToCustom } from './custom-rules.js';

const DAY_MS = 86_400_000;

export interface HostDigestData {
  from: number;
  to: number;
  /** Averages over the week's hours, %; null without samples. */
  cpu_avg: number | null;
  mem_avg: number | null;
  cpu_peak: number | null;
  /** The fullest partition's average on the week's first and last day with data, %. */
  disk_start: number | null;
  disk_end: number | null;
  /** Host alerts fired in the week, by rule. */
  fired: { rule_name: string; count: number }[];
  /** Host alerts firing now. */
  firing: string[];
  updates: PendingUpdates | null;
  /** Each backup rule's path and age in days at its last check. */
  backups: { target: string; age_days: number | null; error: string | null }[];
  uptime_s: number | null;
}

export interface HostDigestDeps {
  store: Queryable;
  alerts: AlertsService;
  root: string;
  updates(): Promise<PendingUpdates | null>;
}

/** The week's figures from the hourly rollups (one aggregate query each), the host alerts and the backup rules. */
export async function gatherHostDigest(d: HostDigestDeps, week: AlertWindow): Promise<HostDigestData> {
  const num = (v: unknown) => (v == null ? null : Number(v));
  const [[avg], days, fired, firing, rules, updates, uptime] = await Promise.all([
    d.store.query<Record<string, unknown>>(
      `SELECT SUM(cpu_avg * n) / NULLIF(SUM(CASE WHEN cpu_avg IS NULL THEN 0 ELSE n END), 0) AS cpu,
              SUM(mem_avg * n) / NULLIF(SUM(CASE WHEN mem_avg IS NULL THEN 0 ELSE n END), 0) AS mem, MAX(cpu_max) AS cpu_peak
       FROM probes_hourly WHERE hour >= ? AND hour < ?`, [week.from, week.to]),
    d.store.query<{ day: number | string; disk: number | string | null }>(
      `SELECT (hour / ${DAY_MS}) AS day, AVG(disk_max) AS disk FROM probes_hourly WHERE hour >= ? AND hour < ? AND disk_max IS NOT NULL
       GROUP BY (hour / ${DAY_MS}) ORDER BY (hour / ${DAY_MS})`, [week.from, week.to]),
    d.alerts.eventsBySource({ sourcePrefix: 'host.', since: week.from, until: week.to, limit: 200 }),
    d.alerts.eventsBySource({ sourcePrefix: 'host.', status: 'firing', limit: 50 }),
    d.alerts.managedRules(CUSTOM_PREFIX),
    d.updates(),
    readUptime(d.root),
  ]);
  const counts = new Map<string, number>();
  for (const e of fired) counts.set(e.rule_name, (counts.get(e.rule_name) ?? 0) + 1);
  return {
    from: week.from, to: week.to, cpu_avg: num(avg?.cpu), mem_avg: num(avg?.mem), cpu_peak: num(avg?.cpu_peak),
    disk_start: num(days[0]?.disk), disk_end: num(days.at(-1)?.disk),
    fired: [...counts].map(([rule_name, count]) => ({ rule_name, count })).sort((a, b) => b.count - a.count),
    firing: firing.map((e) => e.rule_name),
    updates,
    backups: rules.map(managedToCustom).filter((r) => r.kind === 'backup').map((r) => ({ target: r.target, age_days: r.last_value, error: r.last_error })),
    uptime_s: uptime ?? null,
  };
}

const day = (ms: number) => new Date(ms).toISOString().slice(0, 10);
const pct = (n: number | null) => (n === null ? 'no samples' : `${n.toFixed(1)} %`);
const escape = (s: string) => s.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');

/** The digest's sections, so the text and the HTML say the same. */
function sections(d: HostDigestData): { heading: string; items: string[] }[] {
  const trend = d.disk_start === null || d.disk_end === null ? 'no samples'
    : `${d.disk_start.toFixed(1)} % → ${d.disk_end.toFixed(1)} % (${d.disk_end - d.disk_start >= 0 ? '+' : '−'}${Math.abs(d.disk_end - d.disk_start).toFixed(1)} points)`;
  return [
    { heading: 'Load', items: [`CPU average: ${pct(d.cpu_avg)}${d.cpu_peak === null ? '' : ` (peak minute ${d.cpu_peak.toFixed(0)} %)`}`, `Memory average: ${pct(d.mem_avg)}`, `Fullest disk: ${trend}`,
      ...(d.uptime_s === null ? [] : [`Up for ${(d.uptime_s / 86_400).toFixed(1)} days`])] },
    { heading: 'Alerts fired', items: d.fired.length ? d.fired.map((f) => `${f.rule_name}: ${f.count} time${f.count === 1 ? '' : 's'}`) : ['None.'] },
    { heading: 'Pending', items: [
      ...(d.firing.length ? [`Still firing: ${d.firing.join(', ')}`] : ['No host alert is firing.']),
      d.updates === null ? 'Updates: not checked here (no apt).' : `Updates: ${d.updates.total} pending, ${d.updates.security} of them security fixes.`,
    ] },
    { heading: 'Backups', items: d.backups.length
      ? d.backups.map((b) => `${b.target}: ${b.error ? `cannot be checked (${b.error})` : b.age_days === null ? 'not checked yet' : `last changed ${b.age_days.toFixed(1)} days ago`}`)
      : ['No backup rule: add one under Host alerts to have its age here.'] },
  ];
}

/** The host digest as every channel sends it. */
export function renderHostDigest(d: HostDigestData, hostname: string): ChannelMessage {
  const period = `${day(d.from)} to ${day(d.to - 1)}`;
  const parts = sections(d);
  return {
    title: `Weekly host digest: ${hostname}, ${period}`,
    text: [`${hostname}, the week of ${period} (UTC).`, ...parts.map((p) => `${p.heading}\n${p.items.map((i) => `- ${i}`).join('\n')}`)].join('\n\n'),
    html: [`<p><b>${escape(hostname)}</b>, the week of ${period} (UTC).</p>`,
      ...parts.map((p) => `<h3>${escape(p.heading)}</h3><ul>${p.items.map((i) => `<li>${escape(i)}</li>`).join('')}</ul>`)].join('\n'),
    severity: 'info',
  };
}

/** The host digest for the alerts plugin's digest mechanism (weekly, preview, send-now). */
export function hostDigest(d: HostDigestDeps & { hostname: string }): AlertDigest {
  return {
    id: 'host',
    summary: 'This machine\'s week: CPU and memory averages, the disk trend, host alerts fired and still firing, pending updates, the backups\' age',
    async build(week) {
      const data = await gatherHostDigest(d, week);
      return { data: data as unknown as Record<string, unknown>, message: renderHostDigest(data, d.hostname) };
    },
  };
}
