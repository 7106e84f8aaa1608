// Packet captures: the warning, the form, the running one with its limits and a Stop, and the list with View,
// Download and Delete (confirmed). Nothing here starts by itself.
import { useState } from 'preact/hooks';
import { Badge } from '../../components/badge.js';
import { Card } from '../../components/card.js';
import { EmptyState } from '../../components/empty-state.js';
import { ErrorState } from '../../components/error-state.js';
import { Loading } from '../../components/skeleton.js';
import { postJson } from '../../data/api.js';
import { useWhileVisible } from '../../data/live.js';
import { useResource } from '../../data/use-resource.js';
import { formatInteger } from '../../format/numbers.js';
import { announce } from '../../shell/announcer.js';
import { ConfirmAction } from '../alerts/confirm-action.js';
import { CaptureForm } from './capture-form.js';
import { CaptureView } from './capture-view.js';
import { formatBytes } from './host-format.js';
import { ElevationPrompt } from './elevation-prompt.js';
import type { Capture, Captures } from './network-api.js';

const REASONS: Record<NonNullable<Capture['stop_reason']>, string> = {
  packets: 'reached its packet count', time: 'reached its time limit', size: 'reached the size limit', stopped: 'stopped by hand', error: 'failed',
};

function Running({ c, onStop }: { c: Capture; onStop(): void }) {
  const elapsed = Math.min(c.max_seconds, Math.max(0, (Date.now() - Date.parse(c.started_at)) / 1000));
  return (
    <div class="capture-running" role="status">
      <div>
        <strong>Capturing on {c.interface}</strong>{c.filter && <> · <code>{c.filter}</code></>}
        <p class="muted">{Math.round(elapsed)} of {c.max_seconds} s; at most {formatInteger(c.max_packets)} packets · {c.name}</p>
        <progress max={c.max_seconds} value={elapsed} aria-label="Time used of the capture's limit" />
      </div>
      <button type="button" class="button button-secondary" onClick={onStop}>Stop</button>
    </div>
  );
}

export function CapturesCard() {
  const list = useResource<Captures>('/api/captures', 'the captures');
  const [open, setOpen] = useState<string>();
  const running = list.data?.running ?? null;
  // Follow a running capture closely; otherwise the list changes only by this page's own actions.
  useWhileVisible(() => { if (running) list.reload(); }, 1000);
  const data = list.data;
  const stop = async () => {
    if (!running) return;
    const done = await postJson<Capture>('/api/capturestop', { name: running.name }, { what: 'the capture' });
    announce(`Capture stopped with ${done.packets ?? 0} packets.`);
    list.reload();
  };
  const unavailable = data && (data.tcpdump === null ? 'tcpdump is not installed: install it with the package manager (apt install tcpdump) to capture packets.'
    : data.elevation.via === null ? data.elevation.note : null);
  return (
    <Card title="Packet capture" description="tcpdump through the privileged path, bounded by a packet count and a time limit, saved as a pcap file you can view here or download.">
      <p class="capture-warning" role="note"><strong>A capture may record credentials.</strong> Passwords, tokens and cookies sent without encryption are in the file as they were sent. It is kept until you delete it; only the owner can view or download it.</p>
      {list.error && <ErrorState error={list.error} onRetry={list.reload} compact />}
      {list.loading && !data && <Loading label="Reading the captures" lines={3} />}
      {data && (
        <div class="stack">
          <ElevationPrompt elevation={data.elevation} onChange={list.reload} />
          {unavailable ? <p class="network-note" role="note">{unavailable}</p>
            : running ? <Running c={running} onStop={() => void stop()} />
              : <CaptureForm list={data} onStarted={() => list.reload()} />}
          {data.captures.length === 0 ? (
            <EmptyState compact icon="record" title="No captures yet">Start one above: choose an interface, how many packets and how long, and a filter to keep the file small.</EmptyState>
          ) : (
            <ul class="capture-list" aria-label="Captures">
              {data.captures.map((c) => (
                <li key={c.name} class="capture-item">
                  <div class="capture-head">
                    <div class="capture-text">
                      <strong>{c.name}</strong>
                      <span class="muted">
                        {c.interface}{c.filter && ` · ${c.filter}`} · {c.packets === null ? '…' : `${formatInteger(c.packets)} packets`} · {formatBytes(c.bytes)}
                        {c.status === 'running' ? ' · running' : c.stop_reason ? ` · ${REASONS[c.stop_reason]}` : ''}
                      </span>
                      {c.error && <span class="field-error">{c.error}</span>}
                    </div>
                    <div class="capture-actions">
                      {c.status === 'done' && c.stop_reason === 'error' && <Badge tone="danger">failed</Badge>}
                      <button type="button" class="button button-ghost button-small" aria-expanded={open === c.name} onClick={() => setOpen(open === c.name ? undefined : c.name)}>{open === c.name ? 'Hide' : 'View'}</button>
                      <a class="button button-ghost button-small" href={`/api/capturefile?name=${encodeURIComponent(c.name)}`} download={c.name}>Download</a>
                      {c.status === 'done' && (
                        <ConfirmAction small label="Delete…" question={<>Delete <strong>{c.name}</strong>? The file is removed for good.</>} confirm="Delete"
                          run={async () => { await postJson('/api/capturedelete', { name: c.name }, { what: 'the capture' }); announce(`${c.name} deleted.`); if (open === c.name) setOpen(undefined); list.reload(); }} />
                      )}
                    </div>
                  </div>
                  {open === c.name && <CaptureView name={c.name} />}
                </li>
              ))}
            </ul>
          )}
        </div>
      )}
    </Card>
  );
}
