// One machine of the grid: its status, CPU, memory, temperature and uptime, and why it is down when it is.
import { useState } from 'preact/hooks';
import { Badge } from '../../components/badge.js';
import { formatUptime } from '../../format/numbers.js';
import { formatAgo } from '../../format/time.js';
import { loadTone, percent, type FleetMachine } from './fleet-api.js';

function Meter({ label, value }: { label: string; value: number | null }) {
  return (
    <div class="fleet-figure">
      <dt>{label}</dt>
      <dd>
        <span class="fleet-figure-value">{percent(value)}</span>
        <span class={`fleet-meter fleet-meter-${loadTone(value)}`} aria-hidden="true"><span style={{ width: `${Math.min(100, Math.max(0, value ?? 0))}%` }} /></span>
      </dd>
    </div>
  );
}

const STATUS = {
  up: { tone: 'success', text: 'up' },
  down: { tone: 'danger', text: 'down' },
  pending: { tone: 'neutral', text: 'waiting for the first poll' },
} as const;

export function MachineTile({ machine, onRemove }: { machine: FleetMachine; onRemove?: () => Promise<void> }) {
  const [asking, setAsking] = useState(false);
  const [busy, setBusy] = useState(false);
  const o = machine.overview;
  const status = STATUS[machine.status];
  const stale = machine.status === 'down' && o !== null;
  return (
    <article class={`fleet-machine fleet-machine-${machine.status}`} data-machine={machine.name} aria-label={`${machine.name}: ${status.text}`}>
      <header class="fleet-machine-head">
        <div class="fleet-machine-name">
          <h3>{machine.name}</h3>
          <p class="muted small">{machine.source === 'self' ? 'this machine' : machine.url}</p>
        </div>
        <Badge tone={status.tone}>{status.text}</Badge>
      </header>
      {o ? (
        <>
          <p class="fleet-machine-os muted small" title={`${o.kernel} ${o.arch}`}>{o.hostname} · {o.os}</p>
          <dl class={`fleet-figures${stale ? ' fleet-figures-stale' : ''}`}>
            <Meter label="CPU" value={o.cpu.percent} />
            <Meter label="Memory" value={o.memory.percent} />
            <div class="fleet-figure"><dt>Temperature</dt><dd class="fleet-figure-value">{o.temperature_c === null ? '—' : `${Math.round(o.temperature_c)}\u00a0°C`}</dd></div>
            <div class="fleet-figure"><dt>Uptime</dt><dd class="fleet-figure-value">{formatUptime(o.uptime_s)}</dd></div>
          </dl>
        </>
      ) : machine.status !== 'down' && <p class="muted small">No figures yet.</p>}
      {machine.status === 'down' && <p class="fleet-error" role="status">{machine.error}</p>}
      <footer class="fleet-machine-foot muted small">
        <span>
          {machine.source === 'self' ? 'read now' : machine.last_seen_at ? `last seen ${formatAgo(Date.parse(machine.last_seen_at))}` : 'never seen'}
          {stale && ' · figures from then'}
          {machine.source === 'config' && ' · config file'}
        </span>
        {onRemove && !asking && <button type="button" class="button button-ghost button-small" onClick={() => setAsking(true)} aria-label={`Remove ${machine.name}`}>Remove</button>}
        {onRemove && asking && (
          <span class="row-actions" role="group" aria-label={`Remove ${machine.name}?`}>
            <button type="button" class="button button-primary button-small" disabled={busy}
              onClick={async () => { setBusy(true); try { await onRemove(); } finally { setBusy(false); setAsking(false); } }}>
              {busy ? 'Removing…' : `Remove ${machine.name}`}
            </button>
            <button type="button" class="button button-ghost button-small" onClick={() => setAsking(false)}>Keep</button>
          </span>
        )}
      </footer>
    </article>
  );
}
