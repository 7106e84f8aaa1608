// The five built-in thresholds (perch's defaults: CPU 90 % sustained 60 s, memory 95 %, hottest sensor 85 °C, a real
// partition 90 %, battery 15 % unplugged): each on or off, its threshold and its cooldown, saved together
// (POST /api/monitor, keys left out stay as they are).
import { useEffect, useId, useState } from 'preact/hooks';
import { Badge } from '../../components/badge.js';
import { Card } from '../../components/card.js';
import { ErrorState } from '../../components/error-state.js';
import { postJson } from '../../data/api.js';
import type { ApiError } from '../../data/api-error.js';
import { announce } from '../../shell/announcer.js';
import type { BuiltinKey, BuiltinView, MachineCaps, MonitorAnswer } from './host-api.js';

const KEYS: readonly BuiltinKey[] = ['cpu', 'mem', 'temp', 'disk', 'battery'];

/** What each threshold watches, in words. */
const WATCHES: Record<BuiltinKey, string> = {
  cpu: 'All cores busy at or above the threshold for a full minute.',
  mem: 'Memory in use at or above the threshold.',
  temp: 'The hottest sensor at or above the threshold.',
  disk: 'Any real partition (not tmpfs or squashfs) at or above the threshold.',
  battery: 'The charge at or below the threshold while unplugged.',
};

type Draft = Record<BuiltinKey, { on: boolean; th: string; cooldown: string }>;

const draftOf = (b: MonitorAnswer['builtins']): Draft =>
  Object.fromEntries(KEYS.map((k) => [k, { on: b[k].on, th: String(b[k].th), cooldown: String(Math.round(b[k].cooldown_ms / 60_000)) }])) as Draft;

function Row({ k, view, draft, onChange }: { k: BuiltinKey; view: BuiltinView; draft: Draft[BuiltinKey]; onChange(d: Draft[BuiltinKey]): void }) {
  const id = useId();
  return (
    <li class="threshold">
      <div class="threshold-text">
        <span class="threshold-name" id={`${id}-name`}>{view.label}</span>
        <span class="threshold-watch">{WATCHES[k]}</span>
        {view.last_error && <span class="field-error">{view.last_error}</span>}
      </div>
      <div class="threshold-state">
        {!view.on ? <Badge>Off</Badge> : view.status === 'firing' ? <Badge tone="danger">Firing</Badge>
          : view.last_value === null && !view.last_error ? <Badge title="Rules are checked once a minute">Not checked yet</Badge> : <Badge tone="success">OK</Badge>}
        {view.last_value !== null && <span class="muted numeric" title="What the last check saw">now {Math.round(view.last_value * 10) / 10}{view.unit === '%' ? '%' : `\u00a0${view.unit}`}</span>}
      </div>
      <label class="threshold-field">
        <span class="sr-only">{view.label}: threshold in {view.unit}</span>
        <span class="threshold-caption" aria-hidden="true">Threshold ({view.unit})</span>
        <input class="input numeric" type="number" inputMode="decimal" value={draft.th} disabled={!draft.on} onInput={(e) => onChange({ ...draft, th: e.currentTarget.value })} />
        <span class="threshold-unit" aria-hidden="true">{view.unit}</span>
      </label>
      <label class="threshold-field">
        <span class="sr-only">{view.label}: cooldown in minutes</span>
        <span class="threshold-caption" aria-hidden="true">Cooldown (min)</span>
        <input class="input numeric" type="number" min={0} inputMode="numeric" value={draft.cooldown} disabled={!draft.on} onInput={(e) => onChange({ ...draft, cooldown: e.currentTarget.value })} />
        <span class="threshold-unit" aria-hidden="true">min</span>
      </label>
      <button type="button" role="switch" class="switch" aria-checked={draft.on} aria-labelledby={`${id}-name`} onClick={() => onChange({ ...draft, on: !draft.on })}>
        <span class="switch-thumb" />
      </button>
    </li>
  );
}

export function BuiltinRulesCard({ monitor, caps, onSaved }: { monitor: MonitorAnswer; caps: MachineCaps | undefined; onSaved(m: MonitorAnswer): void }) {
  const [draft, setDraft] = useState(() => draftOf(monitor.builtins));
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<ApiError>();
  useEffect(() => setDraft(draftOf(monitor.builtins)), [monitor]);
  // No battery: its rule can never fire, so it is not shown (it stays as stored).
  const keys = KEYS.filter((k) => k !== 'battery' || caps?.battery !== false);
  const changed = keys.filter((k) => {
    const b = monitor.builtins[k];
    const d = draft[k];
    return d.on !== b.on || Number(d.th) !== b.th || Number(d.cooldown) * 60_000 !== b.cooldown_ms;
  });
  const save = async () => {
    setBusy(true);
    setError(undefined);
    try {
      const body = Object.fromEntries(changed.map((k) => [k, { on: draft[k].on, th: Number(draft[k].th), cooldown_ms: Math.round(Number(draft[k].cooldown) * 60_000) }]));
      onSaved(await postJson<MonitorAnswer>('/api/monitor', body, { what: 'the thresholds' }));
      announce('The thresholds are saved.');
    } catch (err) {
      setError(err as ApiError);
    } finally {
      setBusy(false);
    }
  };
  return (
    <Card title="Thresholds" description="Checked once a minute; the cooldown is the least time between two notices of one rule"
      actions={<>
        {changed.length > 0 && <button type="button" class="button button-ghost button-small" onClick={() => setDraft(draftOf(monitor.builtins))}>Undo</button>}
        <button type="button" class="button button-primary button-small" disabled={busy || changed.length === 0} onClick={save}>Save</button>
      </>}>
      <div class="threshold-head" aria-hidden="true"><span /><span>Now</span><span>Threshold</span><span>Cooldown</span><span>On</span></div>
      <ul class="thresholds">
        {keys.map((k) => <Row key={k} k={k} view={monitor.builtins[k]} draft={draft[k]} onChange={(d) => setDraft({ ...draft, [k]: d })} />)}
      </ul>
      {error && <ErrorState error={error} compact />}
    </Card>
  );
}
