// Updates (About page): the running version and commit, how this copy was installed, and perch's three actions.
// Check for updates is the only request that leaves this machine, and only on the press; Update now and Restart ask
// first. The update's output streams from GET /api/perchupdate?since= while it runs (polled while the tab is visible).
import { useEffect, useRef, useState } from 'preact/hooks';
import { Badge } from '../components/badge.js';
import { Card } from '../components/card.js';
import { ErrorState } from '../components/error-state.js';
import { Loading } from '../components/skeleton.js';
import { getJson, postJson } from '../data/api.js';
import type { ApiError } from '../data/api-error.js';
import type { SelfUpdateRestart, SelfUpdateStatus } from '../data/api.gen.js';
import { useWhileVisible } from '../data/live.js';
import { useResource } from '../data/use-resource.js';
import { formatDateTime } from '../format/time.js';
import { announce } from '../shell/announcer.js';

const POLL_MS = 800;
const SHOWN_LINES = 2000;

type Asking = 'update' | 'restart' | undefined;

function Facts({ s }: { s: SelfUpdateStatus }) {
  const c = s.checkout;
  const rows: [string, preact.ComponentChildren][] = [
    ['Install method', s.install_method],
    ['Running', <span><strong>{s.running.version}</strong>{s.running.commit && <> at <code class="inline-code">{s.running.commit.slice(0, 12)}</code></>}</span>],
  ];
  if (s.installed_version && s.installed_version !== s.running.version) rows.push(['Installed', <span><strong>{s.installed_version}</strong> <Badge tone="warning">Restart to run it</Badge></span>]);
  if (c) rows.push(['Branch', c.branch ? <span><code class="inline-code">{c.branch}</code>{c.upstream ? <> tracking <code class="inline-code">{c.upstream}</code></> : ' (no upstream)'}</span> : 'Detached HEAD']);
  rows.push(['Release feed', s.source.release_url ? <code class="inline-code">{s.source.release_url}</code> : 'Not set (selfupdate.release_url)']);
  return (
    <dl class="facts">
      {rows.map(([term, value]) => <div class="fact" key={term}><dt>{term}</dt><dd>{value}</dd></div>)}
    </dl>
  );
}

function Latest({ s }: { s: SelfUpdateStatus }) {
  const l = s.latest;
  if (!l) return <p class="muted update-hint">Press Check for updates to ask the release feed for the newest release. Nothing is sent until you do.</p>;
  return (
    <section class="update-release" aria-label={`Release ${l.release.version}`}>
      <div class="job-head">
        <strong>Vigil {l.release.version}</strong>
        {l.newer ? <Badge tone="accent">New</Badge> : <Badge tone="success">Up to date</Badge>}
        <span class="muted">{l.release.published_at ? `published ${formatDateTime(Date.parse(l.release.published_at))} · ` : ''}checked {formatDateTime(Date.parse(l.checked_at))}</span>
      </div>
      <div class="update-notes" tabIndex={0} aria-label="Release notes">{l.release.notes || 'This release has no notes.'}</div>
    </section>
  );
}

export function UpdateCard() {
  const status = useResource<SelfUpdateStatus>('/api/perchupdate', 'the update status');
  const [s, setS] = useState<SelfUpdateStatus>();
  const [lines, setLines] = useState<string[]>([]);
  const [busy, setBusy] = useState<'check' | 'update' | 'restart'>();
  const [asking, setAsking] = useState<Asking>();
  const [error, setError] = useState<ApiError>();
  const [refusal, setRefusal] = useState<string>();
  const [restarting, setRestarting] = useState(false);
  const since = useRef(0);
  const log = useRef<HTMLPreElement>(null);
  useEffect(() => { if (status.data) setS(status.data); }, [status.data]);
  useEffect(() => { if (log.current) log.current.scrollTop = log.current.scrollHeight; }, [lines.length]);

  const take = (next: SelfUpdateStatus) => {
    setS(next);
    if (next.update) {
      since.current = next.update.next;
      if (next.update.lines.length) setLines((old) => [...old, ...next.update!.lines].slice(-SHOWN_LINES));
    }
  };
  const poll = async () => {
    if (restarting) {
      // The new process answers once it has started: then the page shows what it runs.
      try { take(await getJson<SelfUpdateStatus>('/api/perchupdate', { what: 'the restarted Vigil' })); setRestarting(false); announce('Vigil restarted.'); } catch { /* not up yet */ }
      return;
    }
    if (s?.update?.state !== 'running') return;
    try {
      const next = await getJson<SelfUpdateStatus>(`/api/perchupdate?since=${since.current}`, { what: 'the update' });
      take(next);
      if (next.update?.state !== 'running') announce(next.update?.state === 'done' ? 'The update is applied.' : 'The update stopped.');
    } catch (err) { setError(err as ApiError); }
  };
  useWhileVisible(() => void poll(), POLL_MS);

  const act = async (what: 'check' | 'update' | 'restart') => {
    setBusy(what);
    setError(undefined);
    setRefusal(undefined);
    setAsking(undefined);
    try {
      if (what === 'restart') {
        await postJson<SelfUpdateRestart>('/api/perchrestart', {}, { what: 'the restart' });
        setRestarting(true);
        announce('Vigil is restarting.');
      } else {
        if (what === 'update') { since.current = 0; setLines([]); }
        take(await postJson<SelfUpdateStatus>('/api/perchupdate', { action: what }, { what: what === 'check' ? 'the check for updates' : 'the update' }));
        if (what === 'check') announce('Checked for updates.');
      }
    } catch (err) {
      const e = err as ApiError;
      if (e.code === 'VIGIL_ERR_SELFUPDATE_REFUSED') setRefusal(e.message);
      else setError(e);
    } finally {
      setBusy(undefined);
    }
  };

  if (status.error?.status === 403) {
    return <Card title="Updates"><p class="muted">Only an owner of this Vigil can check for updates and apply them.</p></Card>;
  }
  const job = s?.update;
  const running = job?.state === 'running';
  const restartable = !!s && (s.installed_version !== null && s.installed_version !== s.running.version || job?.outcome?.restart_needed === true);
  const refusedNow = refusal ?? (job?.state === 'failed' && job.error?.code === 'VIGIL_ERR_SELFUPDATE_REFUSED' ? job.error.message : undefined);
  return (
    <Card title="Updates" description="Check for updates is the only thing here that reaches the network, and only when you press it."
      actions={s && (
        <div class="update-actions">
          <button type="button" class="button button-secondary" disabled={!!busy || running || restarting || !s.source.release_url} onClick={() => void act('check')}>
            {busy === 'check' ? 'Checking…' : 'Check for updates'}
          </button>
          <button type="button" class="button button-primary" disabled={!!busy || running || restarting} onClick={() => setAsking('update')}>Update now</button>
          {restartable && <button type="button" class="button button-secondary" disabled={!!busy || running || restarting} onClick={() => setAsking('restart')}>Restart</button>}
        </div>
      )}>
      {status.loading && !s && <Loading label="Loading the update status" lines={4} />}
      {status.error && !s && <ErrorState error={status.error} onRetry={status.reload} />}
      {s && (
        <div class="stack">
          <Facts s={s} />
          {s.checkout?.refusal && !refusedNow && (
            <div class="notice notice-warning" role="note"><strong>Update now would refuse this checkout.</strong> {s.checkout.refusal}</div>
          )}
          {s.blocked && !s.checkout?.refusal && <div class="notice" role="note">{s.blocked}</div>}
          {asking && (
            <form class="confirm" aria-label={asking === 'update' ? 'Confirm the update' : 'Confirm the restart'} onSubmit={(e) => { e.preventDefault(); void act(asking); }}>
              <p>{asking === 'update'
                ? `Update this ${s.install_method} to the newest release? It is verified against its signature before anything changes; a checkout is only fast-forwarded.`
                : `Restart Vigil to run ${s.installed_version ?? 'the installed version'}? The dashboard is away for a few seconds.`}</p>
              <div class="form-actions">
                <button type="submit" class="button button-primary button-small">{asking === 'update' ? 'Update now' : 'Restart'}</button>
                <button type="button" class="button button-ghost button-small" onClick={() => setAsking(undefined)}>Cancel</button>
              </div>
            </form>
          )}
          {refusedNow && (
            <div class="notice notice-danger" role="alert">
              <strong>Update refused: nothing was fetched or merged.</strong> {refusedNow}
            </div>
          )}
          {restarting && <div class="notice" role="status">Restarting… this page reconnects when Vigil answers again.</div>}
          <Latest s={s} />
          {job && (
            <section class="job-panel" aria-label="Update output">
              <div class="job-head">
                <strong>Update{job.version ? ` to ${job.version}` : ''}</strong>
                <Badge tone={running ? 'accent' : job.state === 'done' ? 'success' : 'danger'}>{running ? job.stage : job.state === 'done' ? 'Done' : 'Failed'}</Badge>
              </div>
              {job.outcome && <p>{job.outcome.message}</p>}
              {job.error && job.error.code !== 'VIGIL_ERR_SELFUPDATE_REFUSED' && <div class="notice notice-danger" role="alert">{job.error.message}</div>}
              <pre class="job-log" ref={log} tabIndex={0} aria-label="Output">{lines.join('\n') || ' '}</pre>
            </section>
          )}
          {error && <ErrorState error={error} compact />}
        </div>
      )}
    </Card>
  );
}
