// A running host action (a privileged job): its progress, its output as it arrives (GET /api/job?id=&since=, polled
// only while the tab is visible and the job runs), and a Cancel button. Shared by the Host pages that start jobs.
import { useEffect, useRef, useState } from 'preact/hooks';
import { Badge } from '../../components/badge.js';
import { ErrorState } from '../../components/error-state.js';
import type { ApiError } from '../../data/api-error.js';
import { getJson, postJson } from '../../data/api.js';
import type { PrivilegedJob } from '../../data/api.gen.js';
import { useWhileVisible } from '../../data/live.js';

/** Lines the panel keeps on screen (the server keeps 10,000). */
const SHOWN_LINES = 2000;
const POLL_MS = 700;

/** apt's `pmstatus:<pkg>:<percent>:<what>` progress lines, shown as words. */
function readable(line: string): string {
  const m = /^(?:pm|dl)status:[^:]*:([\d.]+):(.*)$/.exec(line);
  return m ? `[${Math.round(Number(m[1]))}%] ${m[2]}` : line;
}

const TONE = { running: 'accent', done: 'success', failed: 'danger', cancelled: 'warning' } as const;
const WORD = { running: 'Running', done: 'Done', failed: 'Failed', cancelled: 'Cancelled' } as const;

export function JobPanel({ id, onEnd }: { id: string; onEnd?(job: PrivilegedJob): void }) {
  const [job, setJob] = useState<PrivilegedJob>();
  const [lines, setLines] = useState<string[]>([]);
  const [error, setError] = useState<ApiError>();
  const since = useRef(0);
  const ended = useRef(false);
  const log = useRef<HTMLPreElement>(null);
  useEffect(() => { since.current = 0; ended.current = false; setLines([]); setJob(undefined); }, [id]);
  const poll = async () => {
    if (ended.current) return;
    try {
      const page = await getJson<PrivilegedJob>(`/api/job?id=${encodeURIComponent(id)}&since=${since.current}`, { what: 'the job' });
      since.current = page.next;
      setJob(page);
      if (page.lines.length) setLines((old) => [...old, ...page.lines.map(readable)].slice(-SHOWN_LINES));
      if (page.state !== 'running') { ended.current = true; onEnd?.(page); }
    } catch (err) {
      setError(err as ApiError);
    }
  };
  useEffect(() => { void poll(); }, [id]);
  useWhileVisible(() => void poll(), POLL_MS);
  // Follow the output as it grows, as a terminal does.
  useEffect(() => { if (log.current) log.current.scrollTop = log.current.scrollHeight; }, [lines.length]);
  const cancel = async () => {
    try { await postJson(`/api/job/cancel`, { id }, { what: 'cancelling the job' }); } catch (err) { setError(err as ApiError); }
  };
  const progress = job?.progress ?? null;
  return (
    <section class="job-panel" aria-label={job?.title ?? 'Job'}>
      <div class="job-head">
        <strong>{job?.title ?? 'Starting…'}</strong>
        {job && <Badge tone={TONE[job.state]}>{WORD[job.state]}</Badge>}
        {job?.state === 'running' && <button type="button" class="button button-secondary button-small" onClick={() => void cancel()}>Cancel</button>}
      </div>
      <div class="meter-track job-progress" role="progressbar" aria-label={`Progress of ${job?.title ?? 'the job'}`}
        aria-valuemin={0} aria-valuemax={100} aria-valuenow={progress ?? undefined} aria-valuetext={progress === null ? 'working' : `${Math.round(progress)}%`}>
        <span class={`meter-fill${progress === null && job?.state === 'running' ? ' job-indeterminate' : ''}`} style={{ width: `${progress ?? (job?.state === 'running' ? 30 : 100)}%` }} />
      </div>
      {job?.result && !job.result.ok && (
        <p class="job-outcome">{job.result.cancelled ? 'Cancelled: the program was stopped.' : job.result.timed_out ? 'Stopped at its time limit.' : `Ended with exit status ${job.result.exit_code ?? job.result.signal}.`} The output says why.</p>
      )}
      <pre class="job-log" ref={log} tabIndex={0} aria-label="Output">{lines.join('\n') || ' '}</pre>
      {error && <ErrorState error={error} compact />}
    </section>
  );
}
