// Starting a packet capture: interface, packet count, time limit and a filter, with the warning said before the
// button, and a confirmation in place (a capture is never started but by this).
import { useId, useState } from 'preact/hooks';
import { ErrorState } from '../../components/error-state.js';
import { postJson } from '../../data/api.js';
import type { ApiError } from '../../data/api-error.js';
import { announce } from '../../shell/announcer.js';
import type { Capture, Captures } from './network-api.js';

export function CaptureForm({ list, onStarted }: { list: Captures; onStarted(c: Capture): void }) {
  const id = useId();
  const [iface, setIface] = useState(list.interfaces.includes('lo') ? 'any' : list.interfaces[0] ?? 'any');
  const [packets, setPackets] = useState(String(Math.min(1000, list.limits.max_packets)));
  const [seconds, setSeconds] = useState(String(Math.min(30, list.limits.max_seconds)));
  const [filter, setFilter] = useState('');
  const [asking, setAsking] = useState(false);
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<ApiError>();
  const start = async () => {
    setBusy(true);
    setError(undefined);
    try {
      const c = await postJson<Capture>('/api/capture', { interface: iface, packets: Number(packets), seconds: Number(seconds), filter }, { what: 'the capture' });
      announce(`Capture ${c.name} started.`);
      setAsking(false);
      onStarted(c);
    } catch (err) {
      setError(err as ApiError);
    } finally {
      setBusy(false);
    }
  };
  return (
    <form class="capture-form" onSubmit={(e) => { e.preventDefault(); setAsking(true); }}>
      <div class="capture-form-grid">
        <div class="field">
          <label class="field-label" for={`${id}-if`}>Interface</label>
          <select id={`${id}-if`} class="input" value={iface} onChange={(e) => setIface((e.currentTarget as HTMLSelectElement).value)}>
            {list.interfaces.map((i) => <option key={i} value={i}>{i === 'any' ? 'any (every interface)' : i}</option>)}
          </select>
        </div>
        <div class="field">
          <label class="field-label" for={`${id}-n`}>Packets at most</label>
          <input id={`${id}-n`} class="input" type="number" min={1} max={list.limits.max_packets} required value={packets} onInput={(e) => setPackets((e.currentTarget as HTMLInputElement).value)} />
        </div>
        <div class="field">
          <label class="field-label" for={`${id}-s`}>Seconds at most</label>
          <input id={`${id}-s`} class="input" type="number" min={1} max={list.limits.max_seconds} required value={seconds} onInput={(e) => setSeconds((e.currentTarget as HTMLInputElement).value)} />
        </div>
        <div class="field">
          <label class="field-label" for={`${id}-f`}>Filter (optional)</label>
          <input id={`${id}-f`} class="input input-mono" type="text" maxLength={256} placeholder="tcp port 443" value={filter} onInput={(e) => setFilter((e.currentTarget as HTMLInputElement).value)} />
        </div>
      </div>
      <p class="field-hint">It ends at whichever comes first: the packet count or the time limit.</p>
      {asking ? (
        <div class="confirm" role="group" aria-label="Start the capture">
          <p>Capture up to {packets} packets on <strong>{iface}</strong> for at most {seconds} s{filter ? <> matching <code>{filter}</code></> : ''}? Anything sent in clear text, passwords included, is recorded.</p>
          <div class="form-actions">
            <button type="button" class="button button-primary" disabled={busy} onClick={start}>{busy ? 'Starting…' : 'Start the capture'}</button>
            <button type="button" class="button button-ghost" onClick={() => setAsking(false)}>Cancel</button>
          </div>
        </div>
      ) : (
        <div class="form-actions"><button type="submit" class="button button-secondary">Start a capture…</button></div>
      )}
      {error && <ErrorState error={error} compact />}
    </form>
  );
}
