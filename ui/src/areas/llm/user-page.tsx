// One user of a project: their figures and eval scores in the range, their sessions (sorted and paged as the sessions
// page), and their latest traces, with links to the full lists.
import { Badge } from '../../components/badge.js';
import { Card } from '../../components/card.js';
import { EmptyState } from '../../components/empty-state.js';
import { ErrorState } from '../../components/error-state.js';
import { PageHeader } from '../../components/page-header.js';
import { RecordTime } from '../../components/record-time.js';
import { Loading } from '../../components/skeleton.js';
import { Stat, Stats } from '../../components/stat.js';
import { Table, type Column } from '../../components/table.js';
import { useResource } from '../../data/use-resource.js';
import { formatInteger, formatLatency } from '../../format/numbers.js';
import { here, Link, navigate } from '../../shell/router.js';
import type { PageProps } from '../types.js';
import { formatScore, formatUsd } from './figures.js';
import { projectApi, tracePath, type Trace, type TracePage } from './llm-api.js';
import { OffsetPager, RangeSwitch, rangeText } from './people-parts.js';
import { peopleApiPath, peopleSearch, readPeopleView, SESSION_SORTS, type LlmSessionPage, type LlmUserDetail } from './people-query.js';
import { serverSort, sessionColumns } from './sessions-page.js';

const LATEST = 10;
type Definition = LlmUserDetail['eval_by_definition'][number];

const definitionColumns: Column<Definition>[] = [
  { key: 'name', label: 'Eval', card: 'top', value: (d) => d.name },
  { key: 'method', label: 'Method', value: (d) => d.method, render: (d) => <code>{d.method}</code> },
  { key: 'score', label: 'Average score', align: 'end', card: 'main', value: (d) => d.avg_score, render: (d) => formatScore(d.avg_score) },
  { key: 'samples', label: 'Results', align: 'end', value: (d) => d.samples, render: (d) => formatInteger(d.samples) },
  { key: 'failed', label: 'Failed', align: 'end', value: (d) => d.failed, render: (d) => formatInteger(d.failed) },
];

function latestColumns(project: string, now: number): Column<Trace>[] {
  return [
    { key: 'when', label: 'When', card: 'main', sortable: false, value: (t) => Date.parse(t.created_at), render: (t) => <RecordTime ms={Date.parse(t.created_at)} now={now} /> },
    { key: 'call', label: 'Call', card: 'top', sortable: false, value: (t) => t.name ?? t.model, render: (t) => <Link href={tracePath(project, t.id)} class="trace-link"><span class="trace-name">{t.name ?? t.model}</span></Link> },
    { key: 'status', label: 'Status', card: 'lead', sortable: false, value: (t) => t.status, render: (t) => <Badge tone={t.status === 'error' ? 'danger' : 'success'}>{t.status}</Badge> },
    { key: 'latency', label: 'Latency', align: 'end', sortable: false, value: (t) => t.latency_ms, render: (t) => formatLatency(t.latency_ms) },
    { key: 'cost', label: 'Cost', align: 'end', sortable: false, value: (t) => t.cost_usd, render: (t) => (t.cost_usd === null ? <span class="muted">—</span> : formatUsd(t.cost_usd)) },
  ];
}

export default function UserPage({ params }: PageProps) {
  const project = new URLSearchParams(here.value.search).get('project') ?? '';
  const view = readPeopleView(here.value.search, SESSION_SORTS);
  const user = useResource<LlmUserDetail>(project ? projectApi(project, `/users/${encodeURIComponent(params.id)}?since=${view.range}`) : null, 'the user');
  const sessions = useResource<LlmSessionPage>(project && user.data ? peopleApiPath(project, 'sessions', view, { user_id: params.id }) : null, 'the user\'s sessions');
  const latest = useResource<TracePage>(project && user.data ? projectApi(project, `/traces?${new URLSearchParams({ user_id: params.id, since: view.range, limit: String(LATEST) })}`) : null, 'the user\'s traces');
  const back = <Link href={`/llm/users?project=${encodeURIComponent(project)}`} class="button button-secondary">All users</Link>;
  const allTraces = `/llm?${new URLSearchParams({ project, user_id: params.id, since: 'all' })}`;
  const now = Date.now();

  if (user.error?.kind === 'not_found' || !project) {
    return (
      <>
        <PageHeader title={params.id} subtitle="User" actions={project ? <RangeSwitch view={view} /> : undefined} />
        <Card>
          <EmptyState icon="requests" title={`No traces of this user in the last ${rangeText(view.range)}`}
            actions={<>
              {project && view.range !== '90d' && <button type="button" class="button button-secondary" onClick={() => navigate(here.value.path + peopleSearch(here.value.search, { range: '90d' }))}>Show 90 days</button>}
              {back}
            </>}>
            <p>{project ? <>Project <strong>{project}</strong> has</> : 'This link names no project, so it has'} no trace with user id <code class="inline-code">{params.id}</code> in this range.</p>
          </EmptyState>
        </Card>
      </>
    );
  }
  const u = user.data?.user;
  const columns = sessionColumns(project, now, false);
  return (
    <>
      <PageHeader title={params.id} subtitle={<>User of <strong>{project}</strong></>} actions={<><RangeSwitch view={view} />{back}</>} />
      {user.error && <ErrorState error={user.error} onRetry={user.reload} />}
      {user.loading && <Loading label="Loading the user" lines={6} />}
      {u && user.data && (
        <div class="stack">
          <Card>
            <Stats label="The user in this range">
              <Stat label="Requests" value={formatInteger(u.requests)} detail={`in ${formatInteger(u.sessions)} ${u.sessions === 1 ? 'session' : 'sessions'}`} />
              <Stat label="Errors" value={formatInteger(u.errors)} tone={u.errors ? 'danger' : 'neutral'} />
              <Stat label="Cost" value={formatUsd(u.cost_usd)} detail={`${formatInteger(u.total_tokens)} tokens`} />
              <Stat label="Avg latency" value={formatLatency(u.avg_latency_ms)} />
              <Stat label="Eval score" value={formatScore(u.eval.avg_score)}
                detail={u.eval.samples ? `${formatInteger(u.eval.samples)} results over the latest ${formatInteger(u.eval.traces)} traces` : 'no eval has scored their traces'} />
            </Stats>
          </Card>
          {user.data.eval_by_definition.length > 0 && (
            <Card padded={false}>
              <Table caption="Eval scores by definition" showCaption columns={definitionColumns} rows={user.data.eval_by_definition} rowKey={(d) => d.eval_definition_id} />
            </Card>
          )}
          <Card padded={false}>
            <h2 class="card-title card-title-padded">Sessions</h2>
            {sessions.error && <ErrorState error={sessions.error} onRetry={sessions.reload} />}
            {sessions.data && sessions.data.total === 0 && <p class="muted card-body-padded">None of their traces in this range has a session id.</p>}
            {sessions.data && sessions.data.total > 0 && <>
              <Table caption={`Sessions of ${params.id}`} columns={columns} rows={sessions.data.data} rowKey={(s) => s.session_id} {...serverSort(view, columns)} />
              <OffsetPager view={view} shown={sessions.data.data.length} total={sessions.data.total} noun="sessions" />
            </>}
          </Card>
          <Card padded={false}>
            <h2 class="card-title card-title-padded">Latest traces</h2>
            {latest.error && <ErrorState error={latest.error} onRetry={latest.reload} />}
            {latest.data && <Table caption={`Latest traces of ${params.id}`} columns={latestColumns(project, now)} rows={latest.data.data} rowKey={(t) => t.id} />}
            <p class="card-body-padded"><Link href={allTraces}>All traces of {params.id}</Link></p>
          </Card>
        </div>
      )}
    </>
  );
}
