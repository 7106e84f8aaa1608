// Projects: the package scripts and make targets of a folder under the launcher's roots, run as jobs with their
// output live, Stop, and the history of runs. The folder and the run shown are in the address (?dir=&run=).
import { Badge } from '../../../components/badge.js';
import { Card } from '../../../components/card.js';
import { CodeBlock } from '../../../components/code-block.js';
import { EmptyState } from '../../../components/empty-state.js';
import { ErrorState } from '../../../components/error-state.js';
import { PageHeader } from '../../../components/page-header.js';
import { Loading } from '../../../components/skeleton.js';
import { Table, type Column } from '../../../components/table.js';
import { useResource } from '../../../data/use-resource.js';
import { here, navigate } from '../../../shell/router.js';
import { shellInfo } from '../../../shell/shell-info.js';
import { readText, withParams } from '../../../shell/url-state.js';
import { FolderPicker } from './folder-picker.js';
import { duration, scriptsPath, STATE_TONE, STATE_WORD, type ProjectRun, type ProjectRuns, type ProjectScripts } from './projects-api.js';
import { RunOutput } from './run-output.js';
import { ScriptList } from './script-list.js';

const ENABLE_SNIPPET = `devtools:
  roots: [/home/me/projects]   # folders projects may be picked from (default: the home folder)`;

const when = (iso: string) => new Date(iso).toLocaleString(undefined, { dateStyle: 'short', timeStyle: 'short' });

function historyColumns(open: (id: string) => void): Column<ProjectRun>[] {
  return [
    {
      key: 'command', label: 'Run', card: 'top', value: (r) => r.command,
      render: (r) => <button type="button" class="link-button run-open" onClick={() => open(r.id)}><code class="inline-code">{r.command}</code></button>,
    },
    { key: 'folder', label: 'Folder', card: 'main', value: (r) => r.folder, render: (r) => <span class="run-folder">{r.folder}</span> },
    { key: 'state', label: 'Result', card: 'lead', value: (r) => r.state, render: (r) => <Badge tone={STATE_TONE[r.state]}>{STATE_WORD[r.state]}{r.exit_code !== null && r.state === 'failed' ? ` (${r.exit_code})` : ''}</Badge> },
    { key: 'started', label: 'Started', value: (r) => r.started_at, render: (r) => when(r.started_at) },
    { key: 'duration', label: 'Took', align: 'end', value: (r) => r.duration_ms, render: (r) => duration(r.duration_ms) },
  ];
}

export default function ProjectsPage() {
  const enabled = shellInfo.value?.plugins.includes('devtools') ?? false;
  const { path, search } = here.value;
  const dir = readText(search, 'dir') || null;
  const runId = readText(search, 'run') || null;
  const listing = useResource<ProjectScripts>(enabled ? scriptsPath(dir) : null, 'the folder');
  const runs = useResource<ProjectRuns>(enabled ? '/api/projectruns?limit=50' : null, 'the runs');
  const go = (updates: Record<string, string | null>) => navigate(path + withParams(search, updates));
  const header = <PageHeader title="Projects" subtitle="Package scripts and make targets of a folder, run with their output live. Each run is asked first and recorded." />;
  if (!enabled) {
    return <>{header}<EmptyState icon="command" title="The project launcher is not on" actions={<CodeBlock label="the config that turns the launcher on" language="yaml" code={ENABLE_SNIPPET} />}>Add these lines to the config file and restart Vigil.</EmptyState></>;
  }
  const l = listing.data;
  const running = runs.data?.runs.filter((r) => r.state === 'running') ?? [];
  // The history, with runs of this process that ended since it was read first (a run is in one list or the other).
  const history = runs.data ? [...runs.data.runs.filter((r) => r.state !== 'running' && !runs.data!.history.some((h) => h.id === r.id)), ...runs.data.history] : [];
  return (
    <>
      {header}
      <div class="db-page projects-page">
        <Card title="Folder" class="db-connections">
          {listing.error && <ErrorState error={listing.error} onRetry={listing.reload} />}
          {listing.loading && !l && <Loading label="Loading the folder" lines={4} />}
          {l && <FolderPicker listing={l} onOpen={(d) => go({ dir: d })} />}
        </Card>
        <div class="db-main stack">
          <Card title="Scripts and targets" description={l?.dir ? `${l.runner ? `package.json runs with ${l.runner.name} (${l.runner.reason})` : 'no package.json'} · ${l.makefile ?? 'no Makefile'}` : undefined}>
            {!dir && <EmptyState compact icon="arrow-right" title="Choose a folder"><p>Open a project folder in the Folder list: its package.json scripts and Makefile targets show here.</p></EmptyState>}
            {dir && listing.loading && !l?.dir && <Loading label="Reading the folder's scripts" lines={3} />}
            {l?.dir && l.notes.length > 0 && <ul class="run-notes">{l.notes.map((n) => <li key={n}>{n}</li>)}</ul>}
            {l?.dir && l.scripts.length === 0 && <EmptyState compact icon="search" title="Nothing to run here"><p>This folder has no package.json scripts and no Makefile targets. Open a sub-folder, or go up.</p></EmptyState>}
            {l?.dir && l.scripts.length > 0 && <ScriptList dir={l.dir} scripts={l.scripts} onStarted={(r) => { go({ run: r.id }); runs.reload(); }} />}
          </Card>
          {runId && (
            <Card title="Output" description={l ? `At most ${l.limits.max_running} runs at once, ${duration(l.limits.timeout_s * 1000)} each; the newest ${l.limits.output_cap_kib} KiB of output kept.` : undefined}
              actions={<button type="button" class="button button-ghost button-small" onClick={() => go({ run: null })}>Close</button>}>
              <RunOutput id={runId} onEnd={runs.reload} />
            </Card>
          )}
          {running.length > 0 && (
            <Card title="Running now">
              <ul class="run-running">{running.map((r) => <li key={r.id}><button type="button" class="link-button" onClick={() => go({ run: r.id })}><code class="inline-code">{r.command}</code></button> <span class="muted">in {r.folder}</span></li>)}</ul>
            </Card>
          )}
          <Card title="History" description={l ? `The last ${l.limits.history_keep} runs are kept, with the end of their output.` : undefined}>
            {runs.error && <ErrorState error={runs.error} onRetry={runs.reload} />}
            {runs.loading && !runs.data && <Loading label="Loading the history" lines={3} />}
            {runs.data && (
              <Table caption="Finished runs" columns={historyColumns((id) => go({ run: id }))} rows={history} rowKey={(r) => r.id}
                empty={<EmptyState compact icon="record" title="No runs yet"><p>Run a script or a target: it is listed here when it ends.</p></EmptyState>} />
            )}
          </Card>
        </div>
      </div>
    </>
  );
}
