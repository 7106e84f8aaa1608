// The security overview (GET /api/security): read-only findings worst first, each linking to the page that can fix
// it, then what they were judged from: the SSH daemon's settings, failed logins by source, admin accounts, updates,
// and the ports other machines can reach.
import { Badge } from '../../components/badge.js';
import { Card } from '../../components/card.js';
import { EmptyState } from '../../components/empty-state.js';
import { ErrorState } from '../../components/error-state.js';
import { Fact } from '../../components/fact.js';
import { PageHeader } from '../../components/page-header.js';
import { Loading } from '../../components/skeleton.js';
import { Table, type Column } from '../../components/table.js';
import { useResource } from '../../data/use-resource.js';
import { formatInteger } from '../../format/numbers.js';
import { formatWhen } from '../../format/time.js';
import { Link } from '../../shell/router.js';
import { areas, systemPages } from '../index.js';
import { fixLink } from './finding-links.js';
import type { FailedLoginRow, SecurityReport } from './host-api.js';

const SEVERITY_TONE = { critical: 'danger', warning: 'warning', info: 'neutral' } as const;
const SEVERITY_WORD = { critical: 'critical', warning: 'warning', info: 'note' } as const;

const loginColumns: Column<FailedLoginRow>[] = [
  { key: 'source', label: 'From', card: 'top', value: (r) => r.source, render: (r) => <code class="inline-code">{r.source}</code> },
  { key: 'kind', label: 'Kind', value: (r) => r.kind, render: (r) => (r.kind === 'ssh' ? 'SSH' : 'sudo') },
  { key: 'attempts', label: 'Attempts', align: 'end', card: 'lead', value: (r) => r.attempts, render: (r) => formatInteger(r.attempts) },
  { key: 'users', label: 'Accounts tried', card: 'main', value: (r) => r.users.join(', '), render: (r) => r.users.join(', ') || '—' },
  { key: 'last', label: 'Last', value: (r) => r.last_seen ?? '', render: (r) => (r.last_seen ? formatWhen(Date.parse(r.last_seen)) : '—') },
];

type PortRow = NonNullable<SecurityReport['reachable_ports']>[number];
const portColumns: Column<PortRow>[] = [
  { key: 'port', label: 'Port', align: 'end', card: 'lead', value: (p) => p.port, render: (p) => String(p.port) },
  { key: 'protocol', label: 'Protocol', value: (p) => p.protocol, render: (p) => p.protocol.toUpperCase() },
  { key: 'address', label: 'Address', card: 'top', value: (p) => p.address, render: (p) => <code class="inline-code">{p.address}</code> },
  { key: 'process', label: 'Process', card: 'main', value: (p) => p.process ?? '', render: (p) => p.process ?? 'not visible to Vigil\'s user' },
];

/** "yes" / "no" / a keyword as sshd writes it, with the risky values marked. */
function SshValue({ value, risky }: { value: string; risky: boolean }) {
  return <span class={risky ? 'tone-warning' : undefined}><code class="inline-code">{value}</code></span>;
}

export default function HostSecurityPage() {
  const security = useResource<SecurityReport>('/api/security', 'the security overview');
  const s = security.data;
  const pages = [...areas.flatMap((a) => a.pages), ...systemPages];
  return (
    <>
      <PageHeader title="Security" subtitle="What an attacker would look at first on this machine, read-only: nothing here changes it." />
      {security.error && <ErrorState error={security.error} onRetry={security.reload} />}
      {security.loading && !s && <Card><Loading label="Looking at the machine" lines={8} /></Card>}
      {s && (
        <div class="stack">
          <Card title="Findings" description={`Worst first; critical and warning findings also count in the health score. Looked at ${formatWhen(Date.parse(s.taken_at))}.`}>
            {s.findings.length === 0 ? (
              <EmptyState compact icon="check" title="Nothing to fix">
                <p>SSH, accounts, updates{s.reachable_ports ? ', open ports and the firewall' : ''} look fine.</p>
              </EmptyState>
            ) : (
              <ul class="host-findings">
                {s.findings.map((f, i) => {
                  const link = f.action === 'overview' ? null : fixLink(f.action, f.path, pages);
                  return (
                    <li key={i} class="host-finding">
                      <Badge tone={SEVERITY_TONE[f.severity]}>{SEVERITY_WORD[f.severity]}</Badge>
                      <div>
                        <p class="host-finding-title">{f.title}</p>
                        <p class="host-finding-detail">{f.detail}</p>
                        {link && <Link href={link.href} class="host-finding-link">{link.label}</Link>}
                      </div>
                    </li>
                  );
                })}
              </ul>
            )}
            {s.unchecked.length > 0 && <p class="host-note">Not checked on this machine: {s.unchecked.join('; ')}.</p>}
          </Card>

          <div class="security-pair">
            <Card title="SSH daemon" description={s.ssh ? `As sshd applies them outside Match blocks, from ${formatInteger(s.ssh.files.length)} file${s.ssh.files.length === 1 ? '' : 's'}` : undefined}>
              {s.ssh ? (
                <dl class="facts">
                  <Fact term="Root login"><SshValue value={s.ssh.permit_root_login} risky={s.ssh.permit_root_login === 'yes'} /></Fact>
                  <Fact term="Password login"><SshValue value={s.ssh.password_authentication} risky={s.ssh.password_authentication === 'yes'} /></Fact>
                  <Fact term="Empty passwords"><SshValue value={s.ssh.permit_empty_passwords} risky={s.ssh.permit_empty_passwords === 'yes'} /></Fact>
                </dl>
              ) : <p class="host-note">No SSH server here (no <code class="inline-code">/etc/ssh/sshd_config</code>).</p>}
            </Card>
            <Card title="Accounts and updates">
              <dl class="facts">
                <Fact term="Admins">{s.admins ? (s.admins.groups.map((g) => `${g.name}: ${g.members.join(', ') || 'nobody'}`).join('; ') || 'no sudo, wheel or admin group') : 'not readable'}</Fact>
                {s.admins && s.admins.uid_zero.length > 0 && <Fact term="Other user id 0"><span class="tone-danger">{s.admins.uid_zero.join(', ')}</span></Fact>}
                <Fact term="Automatic updates">{s.auto_updates.tool ? `${s.auto_updates.tool}, ${s.auto_updates.enabled ? 'on' : 'off'}` : 'none installed'}</Fact>
                <Fact term="Pending">{s.pending_updates ? `${formatInteger(s.pending_updates.security)} security of ${formatInteger(s.pending_updates.total)} (${s.pending_updates.manager})` : 'not known yet'}</Fact>
                <Fact term="Firewall">{s.firewall ? `${s.firewall.tool}, ${s.firewall.active ? 'on' : 'installed but not enabled'}` : s.reachable_ports ? 'none installed' : 'not checked'}</Fact>
              </dl>
            </Card>
          </div>

          <Card padded={false} title="Failed logins, last 7 days"
            description={s.failed_logins ? `From ${s.failed_logins.from}, the last ${formatInteger(s.failed_logins.lines)} lines${s.failed_logins.more ? `; ${formatInteger(s.failed_logins.more)} more sources not listed` : ''}` : 'No authentication log readable by the user Vigil runs as'}>
            {s.failed_logins && (
              <Table caption="Failed logins by source" columns={loginColumns} rows={s.failed_logins.sources} rowKey={(r) => `${r.kind} ${r.source}`} initialSort={{ key: 'attempts', direction: 'descending' }}
                empty={<EmptyState compact icon="check" title="No failed logins this week"><p>Nobody typed a wrong SSH or sudo password.</p></EmptyState>} />
            )}
          </Card>

          {s.reachable_ports && (
            <Card padded={false} title="Reachable ports" description="Listening on an address other machines can reach (not loopback)">
              <Table caption="Reachable ports" columns={portColumns} rows={s.reachable_ports} rowKey={(p) => `${p.protocol} ${p.address} ${p.port}`} initialSort={{ key: 'port', direction: 'ascending' }}
                empty={<EmptyState compact icon="check" title="Nothing listens on the network"><p>Every listening socket is bound to loopback.</p></EmptyState>} />
            </Card>
          )}
        </div>
      )}
    </>
  );
}
