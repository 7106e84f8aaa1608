// The scripts and targets of the chosen folder, each with Run…: the exact command line is shown before it runs.
import { useState } from 'preact/hooks';
import { Badge } from '../../../components/badge.js';
import { ErrorState } from '../../../components/error-state.js';
import type { ApiError } from '../../../data/api-error.js';
import { postJson } from '../../../data/api.js';
import { announce } from '../../../shell/announcer.js';
import type { ProjectRun, ProjectScript } from './projects-api.js';

const keyOf = (s: ProjectScript) => `${s.kind}:${s.name}`;

export function ScriptList({ dir, scripts, onStarted }: { dir: string; scripts: ProjectScript[]; onStarted(run: ProjectRun): void }) {
  const [asking, setAsking] = useState<string>();
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<ApiError>();
  const run = async (s: ProjectScript) => {
    setBusy(true);
    setError(undefined);
    try {
      const started = await postJson<ProjectRun>('/api/projectrun', { dir, kind: s.kind, name: s.name }, { what: `running ${s.command}` });
      setAsking(undefined);
      announce(`${s.command} started.`);
      onStarted(started);
    } catch (err) {
      setError(err as ApiError);
    } finally {
      setBusy(false);
    }
  };
  return (
    <ul class="script-list" aria-label="Scripts and targets">
      {scripts.map((s) => (
        <li key={keyOf(s)} class="script-item">
          <div class="script-line">
            <span class="script-name">{s.name}</span>
            <Badge tone={s.kind === 'make' ? 'neutral' : 'accent'}>{s.kind === 'make' ? 'make' : `${s.kind} script`}</Badge>
            {s.default_goal && <Badge tone="success" title="make runs this target when none is named">default</Badge>}
            {asking !== keyOf(s) && <button type="button" class="button button-secondary button-small script-run" aria-label={`Run ${s.command}`} onClick={() => { setAsking(keyOf(s)); setError(undefined); }}>Run…</button>}
          </div>
          {s.detail && <code class="script-detail">{s.detail}</code>}
          {asking === keyOf(s) && (
            <form class="confirm" aria-label={`Run ${s.command}`} onSubmit={(e) => { e.preventDefault(); void run(s); }}>
              <p>Run this in <code class="inline-code">{dir}</code>?</p>
              <pre class="script-command">{s.command}</pre>
              <div class="form-actions">
                <button type="submit" class="button button-primary button-small" disabled={busy}>{busy ? 'Starting…' : 'Run'}</button>
                <button type="button" class="button button-ghost button-small" onClick={() => setAsking(undefined)}>Cancel</button>
              </div>
              {error && <ErrorState error={error} compact />}
            </form>
          )}
        </li>
      ))}
    </ul>
  );
}
