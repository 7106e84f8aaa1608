// One run's live output: the lines are fetched from GET /api/projectrun?id&since (owner only) whenever the live topic
// says there are new ones, with a slow poll as a fallback while it runs; Stop is asked before it is sent.
import { useEffect, useRef, useState } from 'preact/hooks';
import { Badge } from '../../../components/badge.js';
import { ErrorState } from '../../../components/error-state.js';
import type { ApiError } from '../../../data/api-error.js';
import { getJson, postJson } from '../../../data/api.js';
import { useLive, useWhileVisible } from '../../../data/live.js';
import { announce } from '../../../shell/announcer.js';
import { duration, RUN_TOPIC, size, STATE_TONE, STATE_WORD, type ProjectRunPage } from './projects-api.js';

/** Lines the panel keeps on screen (the server keeps the newest `output_cap_kib`). */
const SHOWN_LINES = 3000;
/** The fallback poll while a run is running: the live notices make it rarely needed. */
const POLL_MS = 3000;

export function RunOutput({ id, onEnd }: { id: string; onEnd(): void }) {
  const [run, setRun] = useState<ProjectRunPage>();
  const [lines, setLines] = useState<string[]>([]);
  const [error, setError] = useState<ApiError>();
  const [asking, setAsking] = useState(false);
  const since = useRef(0);
  const busy = useRef(false);
  const again = useRef(false);
  const endSeen = useRef(false);
  const log = useRef<HTMLPreElement>(null);
  useEffect(() => { since.current = 0; endSeen.current = false; setLines([]); setRun(undefined); setAsking(false); setError(undefined); }, [id]);

  const fetchLines = async (): Promise<void> => {
    // One request at a time; a notice that comes meanwhile asks for one more after it.
    if (busy.current) { again.current = true; return; }
    busy.current = true;
    try {
      do {
        again.current = false;
        const page = await getJson<ProjectRunPage>(`/api/projectrun?id=${encodeURIComponent(id)}&since=${since.current}`, { what: 'the run' });
        // Lines dropped by the cap while we were away: start again from the oldest kept one.
        const gap = page.first > since.current && since.current > 0;
        since.current = page.next;
        setRun(page);
        if (page.lines.length || gap) setLines((old) => [...(gap ? [`… ${size(page.dropped_bytes)} dropped by the output cap …`] : old), ...page.lines].slice(-SHOWN_LINES));
        if (page.lines.length === 2000) again.current = true;
        if (page.state !== 'running' && !endSeen.current) {
          endSeen.current = true;
          announce(`${page.command}: ${STATE_WORD[page.state].toLowerCase()}.`);
          onEnd();
        }
      } while (again.current);
    } catch (err) {
      setError(err as ApiError);
    } finally {
      busy.current = false;
    }
  };
  useEffect(() => { void fetchLines(); }, [id]);
  useLive(RUN_TOPIC, (data) => {
    const notice = data as { id?: string; next?: number; state?: string };
    if (notice.id === id && ((notice.next ?? 0) > since.current || notice.state !== run?.state)) void fetchLines();
  });
  useWhileVisible(() => { if (run?.state === 'running') void fetchLines(); }, POLL_MS);
  // Follow the output as it grows, as a terminal does.
  useEffect(() => { if (log.current) log.current.scrollTop = log.current.scrollHeight; }, [lines.length]);

  const stop = async () => {
    try {
      await postJson('/api/projectrun/stop', { id }, { what: 'stopping the run' });
      setAsking(false);
      announce('Stopping: every process of the run gets SIGTERM, and SIGKILL 5 s later.');
      void fetchLines();
    } catch (err) {
      setError(err as ApiError);
    }
  };
  const running = run?.state === 'running';
  return (
    <section class="run-output" aria-label={run ? `Output of ${run.command}` : 'Run output'}>
      <div class="job-head">
        <code class="inline-code run-command">{run?.command ?? 'Starting…'}</code>
        {run && <Badge tone={STATE_TONE[run.state]}>{STATE_WORD[run.state]}</Badge>}
        {run && <span class="muted">{duration(run.duration_ms)}{run.exit_code !== null ? ` · exit ${run.exit_code}` : ''}</span>}
        {running && !asking && <button type="button" class="button button-secondary button-small" onClick={() => setAsking(true)}>Stop…</button>}
      </div>
      {running && asking && (
        <form class="confirm" aria-label="Stop the run" onSubmit={(e) => { e.preventDefault(); void stop(); }}>
          <p>Stop <code class="inline-code">{run.command}</code>? Every process it started gets SIGTERM, and SIGKILL 5 s later.</p>
          <div class="form-actions">
            <button type="submit" class="button button-danger button-small">Stop the run</button>
            <button type="button" class="button button-ghost button-small" onClick={() => setAsking(false)}>Keep running</button>
          </div>
        </form>
      )}
      {run && <p class="run-where muted">in <code class="inline-code">{run.folder}</code>{run.note ? ` · ${run.note}` : ''}{run.dropped_bytes > 0 ? ` · ${size(run.dropped_bytes)} of earlier output dropped (the output cap keeps the newest)` : ''}{run.live ? '' : ' · from the history: the last 16 KiB'}</p>}
      <pre class="job-log run-log" ref={log} tabIndex={0} aria-label="Output" aria-live="off">{lines.join('\n') || (running ? 'Waiting for output…' : run ? 'No output.' : ' ')}</pre>
      {error && <ErrorState error={error} compact />}
    </section>
  );
}
