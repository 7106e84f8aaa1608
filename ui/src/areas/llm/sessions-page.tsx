// A project's sessions: its traces grouped by `session_id`, with turns, errors, cost and latency, sorted and paged by
// the server (the sort, the range and the page are in the URL). A session opens its replay.
import { Badge } from '../../components/badge.js';
import { Card } from '../../components/card.js';
import { ErrorState } from '../../components/error-state.js';
import { RecordTime } from '../../components/record-time.js';
import { Loading } from '../../components/skeleton.js';
import { Table, type Column } from '../../components/table.js';
import { useResource } from '../../data/use-resource.js';
import { countFormat, formatLatency, moneyFormat } from '../../format/numbers.js';
import { here, Link, navigate } from '../../shell/router.js';
import type { Project } from './llm-api.js';
import { NoIdsYet, OffsetPager, RangeSwitch } from './people-parts.js';
import { peopleApiPath, peopleSearch, readPeopleView, SESSION_SORTS, sessionPath, userPath, type LlmSession, type LlmSessionPage, type PeopleView } from './people-query.js';
import { ProjectPage } from './project-frame.js';

/** The sessions table's columns; `sort` names the API's sort key of each sortable one. */
export function sessionColumns(project: string, now: number, showUser = true): (Column<LlmSession> & { sort?: string })[] {
  return [
    {
      key: 'session', label: 'Session', sortable: false, card: 'top', value: (s) => s.session_id,
      render: (s) => <Link href={sessionPath(project, s.session_id)} class="trace-link"><code>{s.session_id}</code></Link>,
    },
    ...(showUser ? [{
      key: 'user', label: 'User', sortable: false, value: (s: LlmSession) => s.user_id,
      render: (s: LlmSession, text: string) => (s.user_id ? <Link href={userPath(project, s.user_id)} class="filter-link">{s.user_id}</Link> : <span class="muted">{text}</span>),
    }] : []),
    { key: 'last_seen', sort: 'last_seen', label: 'Last turn', card: 'main', value: (s) => Date.parse(s.last_seen), render: (s) => <RecordTime ms={Date.parse(s.last_seen)} now={now} /> },
    { key: 'turns', sort: 'turns', label: 'Turns', align: 'end', card: 'lead', value: (s) => s.turns, numbers: countFormat },
    {
      key: 'errors', sort: 'errors', label: 'Errors', align: 'end', value: (s) => s.errors, numbers: countFormat,
      render: (s, text) => (s.errors ? <Badge tone="danger">{text}</Badge> : <span class="muted">{text}</span>),
    },
    { key: 'cost', sort: 'cost', label: 'Cost', align: 'end', card: 'main', value: (s) => s.cost_usd, numbers: (v) => moneyFormat(v, 'USD') },
    { key: 'latency', sort: 'latency', label: 'Latency (sum)', align: 'end', value: (s) => s.latency_ms, render: (s) => formatLatency(s.latency_ms) },
  ];
}

/** A server-sorted table's header state and its change, as the URL holds them. */
export function serverSort(view: PeopleView, columns: readonly { key: string; sort?: string }[]) {
  const active = columns.find((c) => c.sort === view.sort);
  return {
    sort: active ? { key: active.key, direction: view.order === 'asc' ? 'ascending' as const : 'descending' as const } : undefined,
    onSort(next: { key: string; direction: 'ascending' | 'descending' }) {
      const column = columns.find((c) => c.key === next.key);
      if (!column?.sort) return;
      navigate(here.value.path + peopleSearch(here.value.search, { sort: column.sort, order: next.direction === 'ascending' ? 'asc' : 'desc' }));
    },
  };
}

function SessionList({ project }: { project: Project }) {
  const view = readPeopleView(here.value.search, SESSION_SORTS);
  const list = useResource<LlmSessionPage>(peopleApiPath(project.name, 'sessions', view), 'the sessions');
  const page = list.data;
  const columns = sessionColumns(project.name, Date.now());
  return (
    <>
      {list.error && <ErrorState error={list.error} onRetry={list.reload} />}
      {list.loading && <Loading label="Loading the sessions" lines={8} />}
      {page && page.total === 0 && <Card><NoIdsYet what="session_id" range={view.range} project={project.name} /></Card>}
      {page && page.total > 0 && (
        <Card padded={false}>
          <Table caption={`Sessions of ${project.name}`} columns={columns} rows={page.data} rowKey={(s) => s.session_id} {...serverSort(view, columns)} />
          <OffsetPager view={view} shown={page.data.length} total={page.total} noun="sessions" />
        </Card>
      )}
    </>
  );
}

export default function SessionsPage() {
  const view = readPeopleView(here.value.search, SESSION_SORTS);
  return (
    <ProjectPage title="Sessions" subtitle="Conversations: the traces that share a session_id, with their turns, cost and latency."
      actions={() => <RangeSwitch view={view} />}>
      {(project) => <SessionList key={project.name} project={project} />}
    </ProjectPage>
  );
}
