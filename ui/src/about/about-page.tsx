// About: what this installation is and how it runs.
import type { ComponentChildren } from 'preact';
import { Badge } from '../components/badge.js';
import { Card } from '../components/card.js';
import { ErrorState } from '../components/error-state.js';
import { PageHeader } from '../components/page-header.js';
import { Loading } from '../components/skeleton.js';
import { Table } from '../components/table.js';
import { useWhileVisible } from '../data/live.js';
import type { About } from '../data/api.gen.js';
import { useResource } from '../data/use-resource.js';
import { formatUptime } from '../format/numbers.js';
import { formatDateTime } from '../format/time.js';
import { UpdateCard } from './update-card.js';
import { useState } from 'preact/hooks';

const storageText = (s: About['storage']): string =>
  s.backend === 'none' ? 'None (no enabled plugin stores anything)' : `${s.backend === 'sqlite' ? 'SQLite' : 'PostgreSQL'}${s.location ? `: ${s.location}` : ''}`;

function Facts({ about, now }: { about: About; now: number }) {
  const rows: [string, ComponentChildren][] = [
    ['Version', <strong>{about.version}</strong>],
    ['Install method', about.install_method],
    ['Uptime', <span title={`Started ${formatDateTime(about.started_at)}`}>{formatUptime((now - about.started_at) / 1000)}</span>],
    ['Config file', about.config_file ? <code class="inline-code">{about.config_file}</code> : 'None (started from code)'],
    ['Data directory', <code class="inline-code">{about.data_dir}</code>],
    ['Storage', storageText(about.storage)],
    ['Control plane', <code class="inline-code">{about.control_plane}</code>],
    ['Runtime', `Node.js ${about.node} on ${about.platform}`],
  ];
  return (
    <dl class="facts">
      {rows.map(([term, value]) => (
        <div class="fact" key={term}>
          <dt>{term}</dt>
          <dd>{value}</dd>
        </div>
      ))}
    </dl>
  );
}

export default function AboutPage() {
  const about = useResource<About>('/api/ui/about', 'the installation details');
  const [now, setNow] = useState(Date.now());
  useWhileVisible(() => setNow(Date.now()), 30_000);
  return (
    <>
      <PageHeader title="About" subtitle="This installation of Vigil: its version, where it keeps its data, and what runs in it." />
      {about.error && <ErrorState error={about.error} onRetry={about.reload} />}
      {about.loading && <Loading label="Loading the installation details" lines={6} />}
      {about.data && (
        <div class="stack">
          <Card title="Installation">
            <Facts about={about.data} now={now} />
          </Card>
          {about.data.plugins.some((p) => p.name === 'selfupdate') ? <UpdateCard /> : (
            <Card title="Updates">
              <p class="muted">Self-update is off. Add <code class="inline-code">selfupdate:</code> to the config file, with the release feed and its signing key (docs/releases.md), to check for updates here.</p>
            </Card>
          )}
          <Card title="Enabled plugins" description="In start order: each starts after the plugins it depends on, and stops before them." padded={false}>
            <Table caption="Enabled plugins" rowKey={(p) => p.name} rows={about.data.plugins}
              columns={[
                { key: 'name', label: 'Plugin', value: (p) => p.name, card: 'top', render: (p) => <code class="inline-code">{p.name}</code> },
                { key: 'version', label: 'Version', value: (p) => p.version, card: 'main' },
                { key: 'state', label: 'State', sortable: false, value: () => 'running', card: 'lead', render: () => <Badge tone="success">Running</Badge> },
              ]} />
          </Card>
        </div>
      )}
    </>
  );
}
