// This machine now: CPU, memory, disks, network, temperatures, battery and GPU where present, and the health score.
// It opens on GET /api/host/live and then follows the 2 s live sample while it is open and the tab is visible (the
// server samples every 2 s only while someone watches; nothing is polled while the tab is hidden).
import { useEffect, useState } from 'preact/hooks';
import { ErrorState } from '../../components/error-state.js';
import { PageHeader } from '../../components/page-header.js';
import { Skeleton } from '../../components/skeleton.js';
import { Stat, Stats } from '../../components/stat.js';
import { useWhileVisible } from '../../data/live.js';
import { useResource } from '../../data/use-resource.js';
import { formatUptime } from '../../format/numbers.js';
import { formatClock } from '../../format/time.js';
import { LiveBadge } from '../../shell/live-badge.js';
import { BatteryCard } from './battery-card.js';
import { CpuCard } from './cpu-card.js';
import { scoreTone } from './finding-links.js';
import { GpuCard } from './gpu-card.js';
import { HealthCard } from './health-card.js';
import type { HealthReport, LiveReading, MachineCaps, MachineSummary, MountRow } from './host-api.js';
import { formatBytes, formatCelsius, formatLoad, formatShare, LIMITS, limitTone } from './host-format.js';
import { useLiveHost } from './live-host.js';
import { MemoryCard } from './memory-card.js';
import { NetworkCard } from './network-card.js';
import { StorageCard } from './storage-card.js';
import { TemperatureCard } from './temperature-card.js';

/** The health score changes slowly (updates, failed units, disks): once a minute is enough. */
const HEALTH_REFRESH_MS = 60_000;

function Summary({ now, health }: { now: LiveReading; health: HealthReport | undefined }) {
  const hottest = now.temperatures.reduce<number | null>((h, t) => (h === null || t.celsius > h ? t.celsius : h), null);
  const fullest = now.disks.reduce<MountRow | null>((f, m) => (m.percent !== null && (f === null || m.percent > (f.percent ?? -1)) ? m : f), null);
  const busy = now.cpu.total?.busy ?? null;
  return (
    <Stats label="This machine now">
      <Stat label="CPU" value={formatShare(busy)} tone={limitTone(busy, LIMITS.cpu)} detail={`load ${formatLoad(now.cpu.load[0] ?? 0)}${now.cpu.cores.length ? ` on ${now.cpu.cores.length} cores` : ''}`} />
      <Stat label="Memory" value={formatShare(now.memory?.percent)} tone={limitTone(now.memory?.percent, LIMITS.memory)} detail={now.memory ? `${formatBytes(now.memory.available_bytes)} available` : 'not readable'} />
      <Stat label="Fullest disk" value={formatShare(fullest?.percent)} tone={limitTone(fullest?.percent, LIMITS.disk)} detail={fullest ? fullest.mount : 'no partition read'} />
      {hottest !== null && <Stat label="Hottest sensor" value={formatCelsius(hottest)} tone={limitTone(hottest, LIMITS.temperature)} detail={`of ${now.temperatures.length} sensors`} />}
      <Stat label="Up for" value={formatUptime(now.uptime_s)} detail="since the last boot" />
      {health && <Stat label="Health" value={`${health.score}/100`} tone={scoreTone(health.score)} detail={health.verdict} />}
    </Stats>
  );
}

function OverviewSkeleton() {
  return (
    <div class="stack" role="status" aria-label="Reading this machine">
      <div class="stats stats-skeleton">{Array.from({ length: 6 }, (_, i) => <Skeleton key={i} height={78} />)}</div>
      <div class="host-grid">{Array.from({ length: 4 }, (_, i) => <Skeleton key={i} height={260} />)}</div>
    </div>
  );
}

export default function HostOverviewPage() {
  const live = useLiveHost();
  const caps = useResource<MachineCaps>('/api/caps', 'what this machine has');
  const machine = useResource<MachineSummary>('/api/overview', 'this machine\'s name');
  const health = useResource<HealthReport>('/api/healthscore', 'the health score');
  useWhileVisible(health.reload, HEALTH_REFRESH_MS);
  const [updated, setUpdated] = useState<number>();
  const now = live.now;
  useEffect(() => { if (now) setUpdated(Date.now()); }, [now]);
  // What /api/caps says the machine lacks is not shown at all; before it answers, what the sample holds decides.
  const hasBattery = (caps.data?.battery ?? true) && (now?.batteries.length ?? 0) > 0;
  const hasGpu = (caps.data?.gpu ?? true) && (now?.gpus.length ?? 0) > 0;
  const m = machine.data;
  const subtitle = m ? `${m.hostname} · ${m.os} · kernel ${m.kernel} · ${m.arch}` : 'The machine Vigil runs on, live.';
  return (
    <>
      <PageHeader title="This machine" subtitle={subtitle}
        actions={<>
          <LiveBadge />
          {updated && <span class="updated" aria-live="off">Updated {formatClock(updated)}</span>}
        </>} />
      {live.error && <ErrorState error={live.error} onRetry={live.reload} />}
      {!now && !live.error && <OverviewSkeleton />}
      {now && (
        <div class="stack">
          <Summary now={now} health={health.data} />
          <div class="host-grid">
            <CpuCard now={now} line={live.lines.cpu} />
            {now.memory && <MemoryCard memory={now.memory} line={live.lines.memory} />}
            <StorageCard now={now} read={live.lines.read} write={live.lines.write} />
            <NetworkCard now={now} rx={live.lines.rx} tx={live.lines.tx} />
            {now.temperatures.length > 0 && <TemperatureCard now={now} />}
            {hasBattery && <BatteryCard batteries={now.batteries} />}
            {hasGpu && <GpuCard gpus={now.gpus} />}
            {health.data && <HealthCard health={health.data} />}
            {/* A build without the health score (its route answers 404) shows no card for it. */}
            {health.error && !health.data && health.error.kind !== 'not_found' && <ErrorState error={health.error} onRetry={health.reload} compact />}
          </div>
        </div>
      )}
    </>
  );
}
