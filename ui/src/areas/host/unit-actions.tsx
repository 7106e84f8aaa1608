// The actions of one systemd unit or timer, each asked before it runs (POST /api/serviceaction or /api/timeraction).
// A system unit's action may need the password sudo asks for: the page's privilege card (privilege-card.tsx) asks for
// it, and the action is tried again after.
import { useState } from 'preact/hooks';
import { ErrorState } from '../../components/error-state.js';
import { postJson } from '../../data/api.js';
import type { ApiError } from '../../data/api-error.js';
import { announce } from '../../shell/announcer.js';
import type { UnitActionAnswer, UnitScope } from './systools-api.js';

export type UnitVerb = 'start' | 'stop' | 'restart' | 'enable' | 'disable';

const PAST: Record<UnitVerb, string> = { start: 'started', stop: 'stopped', restart: 'restarted', enable: 'enabled', disable: 'disabled' };
const LABEL: Record<UnitVerb, string> = { start: 'Start', stop: 'Stop', restart: 'Restart', enable: 'Enable', disable: 'Disable' };

/** What an action does, said before it runs. */
function question(verb: UnitVerb, unit: string, scope: UnitScope, timer: boolean): string {
  const when = scope === 'user' ? 'at your login' : 'at boot';
  switch (verb) {
    case 'start': return timer ? `Start ${unit}? It is armed until the next ${scope === 'user' ? 'login' : 'boot'}.` : `Start ${unit}?`;
    case 'stop': return `Stop ${unit}?${timer ? ' It will not fire until started again.' : ' What it serves stops with it.'}`;
    case 'restart': return `Restart ${unit}? It stops, then starts again.`;
    case 'enable': return `Enable ${unit} ${when}?`;
    case 'disable': return `Disable ${unit}? It will no longer start ${when}; it keeps running now.`;
  }
}

export interface UnitActionsProps {
  unit: string;
  scope: UnitScope;
  verbs: readonly UnitVerb[];
  timer?: boolean;
  onDone(): void;
  /** sudo needs this session's password first: the page shows its prompt. */
  onPasswordNeeded?(): void;
}

export function UnitActions({ unit, scope, verbs, timer = false, onDone, onPasswordNeeded }: UnitActionsProps) {
  const [asking, setAsking] = useState<UnitVerb>();
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<ApiError>();
  const run = async (verb: UnitVerb) => {
    setBusy(true);
    setError(undefined);
    try {
      const path = timer ? '/api/timeraction' : '/api/serviceaction';
      await postJson<UnitActionAnswer>(path, { scope, unit, action: verb }, { what: `${verb} ${unit}` });
      setAsking(undefined);
      announce(`${unit} is ${PAST[verb]}.`);
      onDone();
    } catch (err) {
      const e = err as ApiError;
      if (e.code === 'VIGIL_ERR_PRIVILEGE_PASSWORD_REQUIRED') onPasswordNeeded?.();
      setError(e);
    } finally {
      setBusy(false);
    }
  };
  if (!asking) {
    return (
      <div class="unit-actions">
        {verbs.map((v) => <button key={v} type="button" class="button button-secondary button-small" aria-label={`${LABEL[v]} ${unit}`} onClick={() => { setAsking(v); setError(undefined); }}>{LABEL[v]}…</button>)}
      </div>
    );
  }
  return (
    <form class="confirm" aria-label={`${LABEL[asking]} ${unit}`} onSubmit={(e) => { e.preventDefault(); void run(asking); }}>
      <p>{question(asking, unit, scope, timer)}</p>
      <div class="form-actions">
        <button type="submit" class="button button-primary button-small" disabled={busy}>{busy ? 'Working…' : LABEL[asking]}</button>
        <button type="button" class="button button-ghost button-small" onClick={() => setAsking(undefined)}>Cancel</button>
      </div>
      {error && <ErrorState error={error} compact />}
    </form>
  );
}

/** The actions that make sense for a unit in its state: stop and restart a running one, start a stopped one, and enable or disable its unit file. */
export function verbsFor(active: string, enabled: string | null, timer = false): UnitVerb[] {
  const verbs: UnitVerb[] = active === 'active' || active === 'activating' || active === 'reloading' ? (timer ? ['stop'] : ['stop', 'restart']) : ['start'];
  if (enabled === 'enabled' || enabled === 'enabled-runtime') verbs.push('disable');
  else if (enabled === 'disabled') verbs.push('enable');
  return verbs;
}
