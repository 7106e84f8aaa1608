// Host › Containers: the container environments found on this machine (Docker first; Podman, nerdctl, LXD and Incus
// in a section shown only when one of them is found; Kubernetes pods when a kubeconfig is), each asked within its own
// time limit. Containers have start, stop, restart and remove (asked first), logs, and a shell in a terminal tab;
// pods have their logs only. Nothing found: what was looked for, and where.
import { useState } from 'preact/hooks';
import { Badge } from '../../../components/badge.js';
import { Card } from '../../../components/card.js';
import { CodeBlock } from '../../../components/code-block.js';
import { EmptyState } from '../../../components/empty-state.js';
import { ErrorState } from '../../../components/error-state.js';
import { PageHeader } from '../../../components/page-header.js';
import { Loading } from '../../../components/skeleton.js';
import { Table, type Column } from '../../../components/table.js';
import { useResource } from '../../../data/use-resource.js';
import { navigate } from '../../../shell/router.js';
import { shellInfo } from '../../../shell/shell-info.js';
import { openShellWith } from '../terminal/pending-command.js';
import { ContainerActions } from './container-actions.js';
import { ContainerLogsCard, type LogTarget } from './container-logs.js';
import { ageText, ENGINE_NAMES, stateTone, type ContainerEnvironment, type ContainerRow, type ContainersList, type EngineKind, type PodRow } from './containers-api.js';
import { EnvironmentsCard } from './environments-card.js';

const ENABLE_SNIPPET = `containers:
  timeout: 3s      # each environment's time to answer
  # sockets: { docker: /var/run/docker.sock }   only where an engine is not at its usual place`;

const OTHER_ENGINES: EngineKind[] = ['podman', 'nerdctl', 'lxd', 'incus'];

function LookedFor({ list }: { list: ContainersList }) {
  return (
    <Card>
      <EmptyState icon="search" title="No container environment found">
        <p>Vigil looks for each engine's API socket, a kubeconfig and the nerdctl command. None of these exists here:</p>
        <ul class="ctr-places">
          {list.looked_for.map((l) => <li key={l.kind}><strong>{ENGINE_NAMES[l.kind]}</strong>: {l.places.length ? l.places.map((p, i) => <>{i > 0 && ', '}<code class="inline-code">{p}</code></>) : 'nowhere on PATH'}</li>)}
        </ul>
        <p>Start the engine (its socket then appears), or set <code class="inline-code">containers.sockets</code> or <code class="inline-code">containers.kubeconfig</code> where yours lives.</p>
      </EmptyState>
    </Card>
  );
}

function shortId(id: string): string {
  return /^[0-9a-f]{13,}$/.test(id) ? id.slice(0, 12) : id;
}

export default function ContainersPage() {
  const loaded = shellInfo.value?.plugins.includes('containers') ?? false;
  const terminalOn = shellInfo.value?.plugins.includes('terminal') ?? false;
  const list = useResource<ContainersList>(loaded ? '/api/containers' : null, 'the containers');
  const [logs, setLogs] = useState<LogTarget>();
  const [changed, setChanged] = useState(0);
  const header = (
    <PageHeader title="Containers"
      subtitle="Docker, Podman, nerdctl, LXD/Incus and Kubernetes on this machine: start, stop, restart or remove a container, read or follow its logs, open a shell in it. Pods are read-only." />
  );
  if (!loaded) {
    return <>{header}<EmptyState icon="host" title="The containers panel is not on" actions={<CodeBlock label="the config that turns the containers panel on" language="yaml" code={ENABLE_SNIPPET} />}>Add these lines to the config file and restart Vigil.</EmptyState></>;
  }
  const l = list.data;
  const envOf = (kind: EngineKind): ContainerEnvironment | undefined => l?.environments.find((e) => e.kind === kind);
  const openLogs = (t: LogTarget) => { setLogs(t); requestAnimationFrame(() => document.getElementById('ctr-logs')?.scrollIntoView({ block: 'start' })); };
  const openShell = (c: ContainerRow) => {
    const prefix = envOf(c.env)?.shell;
    if (!prefix) return;
    // Docker and Podman: the exec through their API (the terminal's `container` source); the others: their CLI's exec.
    openShellWith(c.env === 'docker' || c.env === 'podman' ? { source: { name: 'container', target: `${c.env}:${c.id}` } } : { command: `${prefix} ${c.id} sh` });
    navigate('/host/terminal');
  };
  const containerColumns = (showEnv: boolean): Column<ContainerRow>[] => [
    {
      key: 'name', label: 'Container', width: '30%', card: 'top', value: (c) => c.name,
      render: (c) => <span class="unit-name"><strong class="ctr-name">{c.name}</strong><span class="muted ctr-image">{c.image}{c.image && ' · '}<code class="inline-code">{shortId(c.id)}</code></span></span>,
    },
    ...(showEnv ? [{ key: 'env', label: 'Engine', value: (c: ContainerRow) => c.env, render: (c: ContainerRow) => ENGINE_NAMES[c.env] }] : []),
    { key: 'state', label: 'State', card: 'lead', value: (c) => c.state, render: (c) => <span class="unit-name"><Badge tone={stateTone(c.state)}>{c.state || 'unknown'}</Badge>{c.status && <span class="muted">{c.status}</span>}</span> },
    { key: 'ports', label: 'Ports', value: (c) => c.ports.join(' '), render: (c) => (c.ports.length ? <span class="ctr-ports">{c.ports.map((p) => <code key={p} class="inline-code">{p}</code>)}</span> : <span class="muted">none</span>) },
    { key: 'created', label: 'Created', value: (c) => c.created ?? 0, render: (c) => ageText(c.created) },
    {
      key: 'actions', label: 'Actions', sortable: false, card: 'main', value: () => '',
      render: (c) => (
        <div class="ctr-actions">
          <div class="unit-actions">
            <button type="button" class="button button-secondary button-small" aria-label={`Logs of ${c.name}`}
              onClick={() => openLogs({ env: c.env, id: c.id, name: c.name, follow: envOf(c.env)?.follow ?? false })}>Logs</button>
            {c.running && envOf(c.env)?.shell && terminalOn && (
              <button type="button" class="button button-secondary button-small" aria-label={`Shell in ${c.name}`} onClick={() => openShell(c)}>Shell</button>
            )}
          </div>
          <ContainerActions key={`${c.env}-${c.id}-${changed}`} c={c} onDone={() => { setChanged((n) => n + 1); list.reload(); }} />
        </div>
      ),
    },
  ];
  const podColumns: Column<PodRow>[] = [
    { key: 'name', label: 'Pod', width: '32%', card: 'top', value: (p) => p.name, render: (p) => <span class="unit-name"><strong class="ctr-name">{p.name}</strong><span class="muted">{p.namespace}</span></span> },
    { key: 'ready', label: 'Ready', card: 'lead', value: (p) => p.ready / Math.max(1, p.total), render: (p) => <Badge tone={p.ready === p.total && p.total > 0 ? 'success' : 'warning'}>{`${p.ready}/${p.total} · ${p.phase}`}</Badge> },
    { key: 'restarts', label: 'Restarts', align: 'end', value: (p) => p.restarts, render: (p) => <span class={p.restarts > 0 ? 'tone-warning' : undefined}>{p.restarts}</span> },
    { key: 'node', label: 'Node', value: (p) => p.node ?? '', render: (p) => p.node ?? <span class="muted">not scheduled</span> },
    { key: 'created', label: 'Created', value: (p) => p.created ?? 0, render: (p) => ageText(p.created) },
    {
      key: 'logs', label: 'Actions', sortable: false, card: 'main', value: () => '',
      render: (p) => <button type="button" class="button button-secondary button-small" aria-label={`Logs of ${p.namespace}/${p.name}`}
        onClick={() => openLogs({ env: 'kubernetes', id: `${p.namespace}/${p.name}`, name: `${p.namespace}/${p.name}`, follow: true, containers: p.containers })}>Logs</button>,
    },
  ];
  const docker = envOf('docker');
  const others = OTHER_ENGINES.map(envOf).filter((e): e is ContainerEnvironment => e !== undefined);
  const kube = envOf('kubernetes');
  const rowsOf = (kinds: EngineKind[]) => (l?.containers ?? []).filter((c) => kinds.includes(c.env));
  const emptyOf = (envs: ContainerEnvironment[]) => (
    <EmptyState compact icon="host" title={envs.every((e) => e.state === 'ok') ? 'No containers' : 'Nothing to list'}>
      <p>{envs.every((e) => e.state === 'ok') ? 'None exists, running or stopped. Containers you create appear here.' : 'It did not answer; see Environments above for why.'}</p>
    </EmptyState>
  );
  return (
    <>
      {header}
      <div class="toolbar">
        <button type="button" class="button button-secondary button-small" onClick={list.reload} disabled={list.loading}>{list.loading ? 'Asking…' : 'Reload'}</button>
        {l && <span class="muted">Each environment has {l.timeout_ms / 1000} s to answer.</span>}
      </div>
      {list.error && <ErrorState error={list.error} onRetry={list.reload} />}
      {list.loading && !l && <Card><Loading label="Asking the container engines" lines={6} /></Card>}
      {l && l.environments.length === 0 && <LookedFor list={l} />}
      {l && l.environments.length > 0 && (
        <div class="stack">
          <EnvironmentsCard environments={l.environments} />
          {logs && <div id="ctr-logs"><ContainerLogsCard key={`${logs.env}-${logs.id}`} target={logs} onClose={() => setLogs(undefined)} /></div>}
          <Card padded={false} title="Docker" description={docker ? `${rowsOf(['docker']).length} containers, running and stopped` : undefined}>
            {docker
              ? <Table caption="Docker containers" columns={containerColumns(false)} rows={rowsOf(['docker'])} rowKey={(c) => c.id} initialSort={{ key: 'name', direction: 'ascending' }} empty={emptyOf([docker])} />
              : <div class="card-body-pad"><p class="muted">No Docker socket at {l.looked_for.find((x) => x.kind === 'docker')?.places.join(', ')}.</p></div>}
          </Card>
          {others.length > 0 && (
            <Card padded={false} title="Other engines" description={others.map((e) => ENGINE_NAMES[e.kind]).join(', ')}>
              <Table caption="Containers of Podman, nerdctl, LXD and Incus" columns={containerColumns(true)} rows={rowsOf(OTHER_ENGINES)} rowKey={(c) => `${c.env}-${c.id}`}
                initialSort={{ key: 'name', direction: 'ascending' }} empty={emptyOf(others)} />
            </Card>
          )}
          {kube && (
            <Card padded={false} title="Kubernetes pods" description={`${kube.endpoint} · read-only: logs only`}>
              <Table caption="Kubernetes pods" columns={podColumns} rows={l.pods} rowKey={(p) => `${p.namespace}/${p.name}`} initialSort={{ key: 'name', direction: 'ascending' }}
                empty={<EmptyState compact icon="host" title={kube.state === 'ok' ? 'No pods' : 'The cluster did not answer'}><p>{kube.state === 'ok' ? 'The cluster runs no pods you may list.' : kube.message}</p></EmptyState>} />
            </Card>
          )}
        </div>
      )}
    </>
  );
}
