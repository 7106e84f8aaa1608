// A project's users: its traces grouped by `user_id`, with requests, sessions, errors, cost and their eval score,
// sorted and paged by the server (the sort, the range and the page are in the URL). A user opens their page.
import { Badge } from '../../components/badge.js';
import { Card } from '../../components/card.js';
import { ErrorState } from '../../components/error-state.js';
import { RecordTime } from '../../components/record-time.js';
import { Loading } from '../../components/skeleton.js';
import { Table, type Column } from '../../components/table.js';
import { useResource } from '../../data/use-resource.js';
import { countFormat, formatLatency, moneyFormat } from '../../format/numbers.js';
import { here, Link } from '../../shell/router.js';
import { formatScore } from './figures.js';
import type { Project } from './llm-api.js';
import { NoIdsYet, OffsetPager, RangeSwitch } from './people-parts.js';
import { peopleApiPath, readPeopleView, USER_SORTS, userPath, type LlmUser, type LlmUserPage } from './people-query.js';
import { ProjectPage } from './project-frame.js';
import { serverSort } from './sessions-page.js';

function userColumns(project: string, now: number): (Column<LlmUser> & { sort?: string })[] {
  return [
    {
      key: 'user', label: 'User', sortable: false, card: 'top', value: (u) => u.user_id,
      render: (u) => <Link href={userPath(project, u.user_id)} class="trace-link"><span class="trace-name">{u.user_id}</span></Link>,
    },
    { key: 'last_seen', sort: 'last_seen', label: 'Last seen', card: 'main', value: (u) => Date.parse(u.last_seen), render: (u) => <RecordTime ms={Date.parse(u.last_seen)} now={now} /> },
    { key: 'requests', sort: 'requests', label: 'Requests', align: 'end', card: 'lead', value: (u) => u.requests, numbers: countFormat },
    { key: 'sessions', label: 'Sessions', align: 'end', sortable: false, value: (u) => u.sessions, numbers: countFormat },
    {
      key: 'errors', sort: 'errors', label: 'Errors', align: 'end', value: (u) => u.errors, numbers: countFormat,
      render: (u, text) => (u.errors ? <Badge tone="danger">{text}</Badge> : <span class="muted">{text}</span>),
    },
    { key: 'cost', sort: 'cost', label: 'Cost', align: 'end', card: 'main', value: (u) => u.cost_usd, numbers: (v) => moneyFormat(v, 'USD') },
    { key: 'latency', label: 'Avg latency', align: 'end', sortable: false, value: (u) => u.avg_latency_ms, render: (u) => formatLatency(u.avg_latency_ms) },
    {
      key: 'score', label: 'Eval score', align: 'end', sortable: false, value: (u) => u.eval.avg_score,
      render: (u) => (u.eval.avg_score === null
        ? <span class="muted" title="No eval result for this user's latest traces">—</span>
        : <span title={`${u.eval.samples} results over the latest ${u.eval.traces} traces`}>{formatScore(u.eval.avg_score)}</span>),
    },
  ];
}

function UserList({ project }: { project: Project }) {
  const view = readPeopleView(here.value.search, USER_SORTS);
  const list = useResource<LlmUserPage>(peopleApiPath(project.name, 'users', view), 'the users');
  const page = list.data;
  const columns = userColumns(project.name, Date.now());
  return (
    <>
      {list.error && <ErrorState error={list.error} onRetry={list.reload} />}
      {list.loading && <Loading label="Loading the users" lines={8} />}
      {page && page.total === 0 && <Card><NoIdsYet what="user_id" range={view.range} project={project.name} /></Card>}
      {page && page.total > 0 && (
        <Card padded={false}>
          <Table caption={`Users of ${project.name}`} columns={columns} rows={page.data} rowKey={(u) => u.user_id} {...serverSort(view, columns)} />
          <OffsetPager view={view} shown={page.data.length} total={page.total} noun="users" />
        </Card>
      )}
    </>
  );
}

export default function UsersPage() {
  const view = readPeopleView(here.value.search, USER_SORTS);
  return (
    <ProjectPage title="Users" subtitle="Your application's users (the user_id of their traces): requests, cost, errors and eval scores."
      actions={() => <RangeSwitch view={view} />}>
      {(project) => <UserList key={project.name} project={project} />}
    </ProjectPage>
  );
}
