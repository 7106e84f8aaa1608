// One session replayed: the conversation in the order it happened, each turn with its status, model, latency, cost
// and tokens, what the user sent that turn (not the history the application sent again) and what the model answered.
// Masked values are marked as on the trace page. Long sessions page by offset, oldest first.
import { Badge } from '../../components/badge.js';
import { Card } from '../../components/card.js';
import { EmptyState } from '../../components/empty-state.js';
import { ErrorState } from '../../components/error-state.js';
import { JsonView } from '../../components/json-view.js';
import { PageHeader } from '../../components/page-header.js';
import { Loading } from '../../components/skeleton.js';
import { Stat, Stats } from '../../components/stat.js';
import { useResource } from '../../data/use-resource.js';
import { formatInteger, formatLatency } from '../../format/numbers.js';
import { formatDateTime } from '../../format/time.js';
import { here, Link, navigate } from '../../shell/router.js';
import { withParams } from '../../shell/url-state.js';
import type { PageProps } from '../types.js';
import { Message } from './conversation.js';
import { formatUsd } from './figures.js';
import { projectApi, tracePath, type Trace } from './llm-api.js';
import { userPath, type LlmSessionReplay } from './people-query.js';
import { replayTurns, type ReplayTurn } from './session-turns.js';

const TURNS_PAGE = 50;

function Turn({ n, t, turn, project }: { n: number; t: Trace; turn: ReplayTurn; project: string }) {
  return (
    <li class="replay-turn">
      <section class="card" aria-label={`Turn ${n}`}>
        <header class="replay-turn-head">
          <h2 class="replay-turn-title">Turn {n}</h2>
          <Badge tone={t.status === 'error' ? 'danger' : 'success'}>{t.status === 'error' ? 'error' : 'ok'}</Badge>
          <code class="replay-model">{t.model}</code>
          <span class="replay-figures">
            <span title="Latency">{formatLatency(t.latency_ms)}</span>
            <span title="Cost">{t.cost_usd === null ? 'no cost' : formatUsd(t.cost_usd)}</span>
            {t.tokens && <span title="Tokens in and out">{formatInteger(t.tokens.input ?? 0)} → {formatInteger(t.tokens.output ?? 0)} tokens</span>}
            <time dateTime={t.created_at}>{formatDateTime(Date.parse(t.created_at))}</time>
          </span>
          <Link href={tracePath(project, t.id)} class="button button-secondary button-small">Open the trace</Link>
        </header>
        {turn.repeated > 0 && <p class="muted replay-note">{turn.repeated} earlier {turn.repeated === 1 ? 'message' : 'messages'} of the conversation, sent again, not repeated here.</p>}
        {turn.added
          ? <ol class="conversation" aria-label={`Turn ${n}: sent`}>{turn.added.map((m, i) => <Message key={i} m={m} />)}</ol>
          : t.input === null ? <p class="muted">No input recorded.</p> : <JsonView value={t.input} label={`Turn ${n}: input`} />}
        {turn.output
          ? <ol class="conversation" aria-label={`Turn ${n}: answered`}>{turn.output.map((m, i) => <Message key={i} m={m} />)}</ol>
          : t.output === null ? <p class="muted">{t.status === 'error' ? 'No answer: the call failed.' : 'No output recorded.'}</p> : <JsonView value={t.output} label={`Turn ${n}: output`} />}
        {t.status === 'error' && t.error !== null && <JsonView value={t.error} label={`Turn ${n}: error`} />}
      </section>
    </li>
  );
}

export default function SessionPage({ params }: PageProps) {
  const search = new URLSearchParams(here.value.search);
  const project = search.get('project') ?? '';
  const offset = Math.max(0, Math.min(10_000, Number(search.get('offset')) || 0));
  const replay = useResource<LlmSessionReplay>(project ? projectApi(project, `/sessions/${encodeURIComponent(params.id)}?limit=${TURNS_PAGE}&offset=${offset}`) : null, 'the session');
  const r = replay.data;
  const back = <Link href={`/llm/sessions?project=${encodeURIComponent(project)}`} class="button button-secondary">All sessions</Link>;
  const page = (to: number) => { navigate(here.value.path + withParams(here.value.search, { offset: to ? String(to) : null })); window.scrollTo({ top: 0 }); };

  if (replay.error?.kind === 'not_found' || !project) {
    return (
      <>
        <PageHeader title="Session" subtitle={`Session ${params.id}`} />
        <Card>
          <EmptyState icon="requests" title="This session has no stored traces" actions={back}>
            <p>{project ? <>Project <strong>{project}</strong> has</> : 'This link names no project, so it has'} no trace with this session id: none was sent with it, or retention has deleted them.</p>
          </EmptyState>
        </Card>
      </>
    );
  }
  const s = r?.session;
  const turns = r ? replayTurns(r.turns) : [];
  return (
    <>
      <PageHeader title={`Session ${params.id}`}
        subtitle={<>Project <strong>{project}</strong>{s?.user_id && <> · user <Link href={userPath(project, s.user_id)}>{s.user_id}</Link></>}</>}
        actions={<>
          <Link href={`/llm?${new URLSearchParams({ project, session_id: params.id, since: 'all' })}`} class="button button-secondary">As a trace list</Link>
          {back}
        </>} />
      {replay.error && <ErrorState error={replay.error} onRetry={replay.reload} />}
      {replay.loading && <Loading label="Loading the session" lines={8} />}
      {s && r && (
        <div class="stack">
          <Card>
            <Stats label="The session">
              <Stat label="Turns" value={formatInteger(s.turns)} detail={`${formatDateTime(Date.parse(s.first_seen))} to ${formatDateTime(Date.parse(s.last_seen))}`} />
              <Stat label="Errors" value={formatInteger(s.errors)} tone={s.errors ? 'danger' : 'neutral'} />
              <Stat label="Cost" value={formatUsd(s.cost_usd)} detail={`${formatInteger(s.total_tokens)} tokens`} />
              <Stat label="Latency" value={formatLatency(s.latency_ms)} detail={s.avg_latency_ms === null ? 'none reported' : `${formatLatency(s.avg_latency_ms)} a turn on average`} />
            </Stats>
          </Card>
          <ol class="replay" aria-label="Turns, oldest first">
            {r.turns.map((t, i) => <Turn key={t.id} n={r.offset + i + 1} t={t} turn={turns[i]} project={project} />)}
          </ol>
          {(r.offset > 0 || r.next_offset !== null) && (
            <nav class="pager" aria-label="Pages of turns">
              <span class="muted">Turns {formatInteger(r.offset + 1)}–{formatInteger(r.offset + r.turns.length)} of {formatInteger(s.turns)}</span>
              <button type="button" class="button button-secondary button-small" disabled={r.offset === 0} onClick={() => page(Math.max(0, r.offset - TURNS_PAGE))}>Earlier turns</button>
              <button type="button" class="button button-secondary button-small" disabled={r.next_offset === null} onClick={() => page(r.next_offset ?? 0)}>Later turns</button>
            </nav>
          )}
        </div>
      )}
    </>
  );
}
