// A container's actions, each asked before it runs (POST /api/ctraction): start, stop, restart and remove. Remove
// says what is lost, and a running container is removed only when "stop it first (force)" is ticked.
import { useState } from 'preact/hooks';
import { ErrorState } from '../../../components/error-state.js';
import { postJson } from '../../../data/api.js';
import type { ApiError } from '../../../data/api-error.js';
import { announce } from '../../../shell/announcer.js';
import { ENGINE_NAMES, type ContainerActionResult, type ContainerRow, type ContainerVerb } from './containers-api.js';

const LABEL: Record<ContainerVerb, string> = { start: 'Start', stop: 'Stop', restart: 'Restart', remove: 'Remove' };
const PAST: Record<ContainerVerb, string> = { start: 'started', stop: 'stopped', restart: 'restarted', remove: 'removed' };

function Question({ verb, c }: { verb: ContainerVerb; c: ContainerRow }) {
  switch (verb) {
    case 'start': return <p>Start {c.name}? It runs its command ({c.image}) again.</p>;
    case 'stop': return <p>Stop {c.name}? It gets SIGTERM, and SIGKILL after 10 s; what it serves stops with it.</p>;
    case 'restart': return <p>Restart {c.name}? It stops (10 s grace), then starts again.</p>;
    case 'remove': return (
      <>
        <p>Remove {c.name} for good? Lost with it:</p>
        <ul class="ctr-loss">
          <li>every file written inside it since it was created (its writable layer), and its logs;</li>
          <li>its settings: name, ports, environment, mounts.</li>
        </ul>
        <p class="muted">Kept: the image {c.image || ''} and named volumes; bind-mounted folders on this machine are untouched.</p>
      </>
    );
  }
}

export function ContainerActions({ c, onDone }: { c: ContainerRow; onDone(): void }) {
  const [asking, setAsking] = useState<ContainerVerb>();
  const [force, setForce] = useState(false);
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<ApiError>();
  const verbs: ContainerVerb[] = c.running ? ['stop', 'restart', 'remove'] : ['start', 'remove'];
  const run = async (verb: ContainerVerb) => {
    setBusy(true);
    setError(undefined);
    try {
      await postJson<ContainerActionResult>('/api/ctraction', { env: c.env, id: c.id, action: verb, ...(verb === 'remove' && force ? { force: true } : {}) }, { what: `${verb} ${c.name}` });
      setAsking(undefined);
      announce(`${c.name} is ${PAST[verb]}.`);
      onDone();
    } catch (err) {
      setError(err as ApiError);
    } finally {
      setBusy(false);
    }
  };
  if (!asking) {
    return (
      <div class="unit-actions">
        {verbs.map((v) => (
          <button key={v} type="button" class={`button button-small ${v === 'remove' ? 'button-ghost' : 'button-secondary'}`} aria-label={`${LABEL[v]} ${c.name}`}
            onClick={() => { setAsking(v); setForce(false); setError(undefined); }}>{LABEL[v]}…</button>
        ))}
      </div>
    );
  }
  const blocked = asking === 'remove' && c.running && !force;
  return (
    <form class="confirm" aria-label={`${LABEL[asking]} ${c.name} (${ENGINE_NAMES[c.env]})`} onSubmit={(e) => { e.preventDefault(); if (!blocked) void run(asking); }}>
      <Question verb={asking} c={c} />
      {asking === 'remove' && c.running && (
        <label class="check">
          <input type="checkbox" checked={force} onChange={(e) => setForce((e.target as HTMLInputElement).checked)} />
          <span>It is running: kill it first (force)</span>
        </label>
      )}
      <div class="form-actions">
        <button type="submit" class={`button button-small ${asking === 'remove' ? 'button-danger' : 'button-primary'}`} disabled={busy || blocked}>
          {busy ? 'Working…' : asking === 'remove' ? `Remove ${c.name}` : LABEL[asking]}
        </button>
        <button type="button" class="button button-ghost button-small" onClick={() => setAsking(undefined)}>Cancel</button>
      </div>
      {error && <ErrorState error={error} compact />}
    </form>
  );
}
