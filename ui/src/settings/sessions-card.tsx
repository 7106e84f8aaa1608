// Settings → Sessions: every browser logged in to this dashboard, with a way to end any of them. Sessions are
// recorded on the server (docs/security.md, "Sessions"), so ending one logs that browser out at once.
import { useState } from 'preact/hooks';
import { Badge } from '../components/badge.js';
import { Card } from '../components/card.js';
import { ErrorState } from '../components/error-state.js';
import { Icon } from '../components/icon.js';
import { Loading } from '../components/skeleton.js';
import type { ApiError } from '../data/api-error.js';
import { deleteJson } from '../data/api.js';
import type { DashboardSession, DashboardSessionList } from '../data/api.gen.js';
import { useResource } from '../data/use-resource.js';
import { formatAgo, formatDateTime } from '../format/time.js';
import { announce } from '../shell/announcer.js';
import { logOut } from '../shell/browser-actions.js';
import { describeUserAgent } from './user-agent.js';

/** One entry of `GET /api/sessions` (runtime/http/session-routes.ts). Times are epoch ms. */
type OpenSession = DashboardSession;

/** The row of this browser's own session: always there, also before the list has loaded or when it is cut short. */
function ThisBrowser({ s }: { s: OpenSession | undefined }) {
  return (
    <li class="setting-row">
      <div class="setting-text">
        <span class="setting-label">{s ? describeUserAgent(s.user_agent) : 'This browser'} {s && <Badge tone="success">this browser</Badge>}</span>
        <p class="setting-description">{s ? `${s.client_address ? `${s.client_address} · ` : ''}logged in ${formatDateTime(s.created_at)}` : 'Log out here; sessions in other browsers stay open.'}</p>
      </div>
      <button type="button" class="button button-secondary" onClick={logOut}><Icon name="logout" /> Log out</button>
    </li>
  );
}

function SessionRow({ s, busy, onEnd }: { s: OpenSession; busy: boolean; onEnd(): void }) {
  const name = describeUserAgent(s.user_agent);
  const where = [s.client_address, `last used ${formatAgo(s.last_seen_at)}`, `logged in ${formatDateTime(s.created_at)}`].filter(Boolean).join(' · ');
  return (
    <li class="setting-row">
      <div class="setting-text">
        <span class="setting-label" title={s.user_agent ?? undefined}>{name}</span>
        <p class="setting-description">{where}</p>
      </div>
      <button type="button" class="button button-secondary" disabled={busy} onClick={onEnd}
        aria-label={`End the session of ${name}${s.client_address ? ` at ${s.client_address}` : ''}`}>End</button>
    </li>
  );
}

export function SessionsCard() {
  const list = useResource<DashboardSessionList>('/api/sessions', 'the open sessions');
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<ApiError>();
  const end = async (path: string, what: string) => {
    setBusy(true);
    setError(undefined);
    try {
      const { ended } = await deleteJson<{ ended: number }>(path, { what });
      announce(ended === 1 ? 'One session ended.' : `${ended} sessions ended.`);
    } catch (err) {
      setError(err as ApiError);
    } finally {
      setBusy(false);
      list.reload();
    }
  };
  // Everyone's sessions are the owner's to see; anyone else gets this browser's row and its Log out.
  const ownerOnly = list.error?.kind === 'forbidden';
  const mine = list.data?.sessions.find((s) => s.current);
  const others = list.data?.sessions.filter((s) => !s.current).length ?? 0;
  return (
    <Card title="Sessions" description={ownerOnly ? 'Log out of this browser here. An owner can end your other sessions.' : 'Every browser logged in to this dashboard. Ending a session logs that browser out at once; changing the dashboard token ends them all.'}
      actions={others > 0 && (
        <button type="button" class="button button-ghost" disabled={busy} onClick={() => void end('/api/sessions', 'ending the other sessions')}>End all others</button>
      )}>
      <ul class="session-list">
        <ThisBrowser s={mine} />
        {list.data && list.data.sessions.filter((s) => !s.current).map((s) => (
          <SessionRow key={s.id} s={s} busy={busy} onEnd={() => void end(`/api/sessions/${s.id}`, 'ending the session')} />
        ))}
        {list.data && list.data.total > list.data.sessions.length && (
          <li class="setting-row"><p class="setting-description">{list.data.total - list.data.sessions.length} more sessions, used less recently, are not shown.</p></li>
        )}
      </ul>
      {list.loading && <Loading label="the open sessions" lines={2} />}
      {list.error && !ownerOnly && <ErrorState error={list.error} onRetry={list.reload} compact />}
      {error && <ErrorState error={error} compact />}
    </Card>
  );
}
