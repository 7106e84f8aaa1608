// Settings → Users: who can sign in, and with which roles (docs/security.md, "Roles"). The owner's page: the server
// answers 403 to anyone else, and the page then says who can help.
import { useState } from 'preact/hooks';
import { Badge } from '../components/badge.js';
import { Card } from '../components/card.js';
import { EmptyState } from '../components/empty-state.js';
import { ErrorState } from '../components/error-state.js';
import { PageHeader } from '../components/page-header.js';
import { Loading } from '../components/skeleton.js';
import { Table, type Column } from '../components/table.js';
import type { DashboardUserList, DashboardUserRecord } from '../data/api.gen.js';
import { useResource } from '../data/use-resource.js';
import { formatAgo } from '../format/time.js';
import { describeGrants } from './user-roles.js';
import { UserEditor } from './user-editor.js';
import { UserInviteForm } from './user-invite-form.js';

export default function UsersPage() {
  const list = useResource<DashboardUserList>('/api/users', 'the users');
  const [editing, setEditing] = useState<string>();
  const columns: Column<DashboardUserRecord>[] = [
    { key: 'email', label: 'User', card: 'top', value: (u) => u.email, render: (u) => (
      <span class="user-cell">{u.email}{u.name && <span class="user-name">{u.name}</span>}</span>
    ) },
    { key: 'source', label: 'Signs in with', card: 'lead', value: (u) => (u.source === 'oidc' ? 'single sign-on' : 'password') },
    { key: 'role', label: 'Instance role', card: 'main', value: (u) => u.instance_role, render: (u) => (u.instance_role ? <Badge tone={u.instance_role === 'owner' ? 'accent' : 'neutral'}>{u.instance_role}</Badge> : '—') },
    { key: 'projects', label: 'Project roles', value: (u) => describeGrants(u.projects) || null },
    { key: 'state', label: 'State', value: (u) => (u.disabled ? 'disabled' : 'active'), render: (u) => <Badge tone={u.disabled ? 'danger' : 'success'}>{u.disabled ? 'disabled' : 'active'}</Badge> },
    { key: 'last', label: 'Last sign-in', align: 'end', value: (u) => u.last_login_at, render: (u) => (u.last_login_at ? formatAgo(u.last_login_at) : 'never') },
    { key: 'edit', label: 'Access', sortable: false, value: () => null, render: (u) => (
      <button type="button" class="button button-secondary button-small" aria-label={`Edit the access of ${u.email}`} onClick={() => setEditing(u.id)}>Edit</button>
    ) },
  ];
  const selected = list.data?.users.find((u) => u.id === editing);
  const forbidden = list.error?.kind === 'forbidden';
  return (
    <>
      <PageHeader title="Users" subtitle="Who can sign in to this dashboard, and their roles. The dashboard token always logs in as the owner, whatever this page says." />
      <div class="stack">
        {forbidden && (
          <EmptyState icon="settings" title="Only an owner manages users">
            Ask an owner of this instance to change your role, or log in with the dashboard token.
          </EmptyState>
        )}
        {!forbidden && <UserInviteForm onInvited={list.reload} />}
        {selected && <UserEditor user={selected} onChanged={list.reload} onClose={() => setEditing(undefined)} />}
        {!forbidden && (
          <Card title="Users" padded={false} description={list.data ? `${list.data.total} ${list.data.total === 1 ? 'user' : 'users'}` : undefined}>
            {list.loading && <Loading label="the users" lines={3} />}
            {list.error && !forbidden && <ErrorState error={list.error} onRetry={list.reload} compact />}
            {list.data && (
              <Table caption="Dashboard users" columns={columns} rows={list.data.users} rowKey={(u) => u.id} initialSort={{ key: 'email', direction: 'ascending' }}
                empty={<EmptyState compact title="No users yet"><p>Invite one above, or set up single sign-on (<code>control_plane.oidc</code> in the config file): people who sign in appear here.</p></EmptyState>} />
            )}
            {list.data && list.data.total > list.data.users.length && (
              <p class="card-note">{list.data.total - list.data.users.length} more users are not shown (the first 500 by email are).</p>
            )}
          </Card>
        )}
      </div>
    </>
  );
}
