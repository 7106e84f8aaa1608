// A project's prompt templates, each with its versions side by side: calls, eval score, P95, error rate and cost per
// version, first and last seen. A version opens its text and its diff against any other; two versions open the gate.
import { Badge } from '../../components/badge.js';
import { Card } from '../../components/card.js';
import { EmptyState } from '../../components/empty-state.js';
import { ErrorState } from '../../components/error-state.js';
import { Icon } from '../../components/icon.js';
import { RecordTime } from '../../components/record-time.js';
import { Loading } from '../../components/skeleton.js';
import { TableFrame } from '../../components/table-frame.js';
import { useLive } from '../../data/live.js';
import { useResource } from '../../data/use-resource.js';
import { errorRateClass } from '../../format/error-rate.js';
import { countFormat, formatInteger, formatLatency, formatPercent, moneyFormat } from '../../format/numbers.js';
import { here, Link, navigate } from '../../shell/router.js';
import { withParams } from '../../shell/url-state.js';
import { EVAL_TYPE_LABEL, type EvalDefinitionList } from './evals-api.js';
import { evaluatorsOn } from './trace-evals.js';
import { useEffect, useId, useMemo } from 'preact/hooks';
import { throttle } from '../../data/throttle.js';
import { formatScore } from './figures.js';
import { projectApi, templatePath, type Project, type Template, type TemplateList } from './llm-api.js';
import { ProjectPage } from './project-frame.js';

const LIVE_REFRESH_MS = 5000;

function When({ iso }: { iso: string | null }) {
  if (!iso) return <span class="muted">—</span>;
  return <RecordTime ms={Date.parse(iso)} />;
}

/** A template's columns of figures, each in one format chosen from all its versions. */
function versionFormats(versions: readonly Template['versions'][number][]) {
  const money = (pick: (v: Template['versions'][number]) => number | null) => {
    const format = moneyFormat(versions.map(pick).filter((x): x is number => x !== null), 'USD');
    return (x: number | null) => (x === null ? '—' : format(x));
  };
  return { calls: countFormat(versions.map((v) => v.requests)), cost: money((v) => v.cost_usd), perCall: money((v) => v.avg_cost_usd) };
}

function TemplateCard({ t, project }: { t: Template; project: string }) {
  const versions = [...t.versions].reverse();
  const calls = t.versions.reduce((n, v) => n + v.requests, 0);
  const latest = t.latest_version;
  const previous = t.versions.length > 1 ? t.versions[t.versions.length - 2].version : undefined;
  const f = versionFormats(t.versions);
  return (
    <Card title={t.name} padded={false} class="template-card"
      description={`${t.version_count > t.versions.length ? `the newest ${t.versions.length} of ${formatInteger(t.version_count)} versions` : `${t.versions.length} ${t.versions.length === 1 ? 'version' : 'versions'}`} · ${formatInteger(calls)} calls`}
      actions={<>
        {latest !== null && previous !== undefined && (
          <Link href={templatePath(project, t.name, { version: latest, against: previous })} class="button button-secondary button-small">
            Compare v{previous} → v{latest}
          </Link>
        )}
        {previous !== undefined && (
          <Link href={`/llm/gate?project=${encodeURIComponent(project)}&template=${encodeURIComponent(t.name)}`} class="button button-secondary button-small">
            Gate v{latest}
          </Link>
        )}
      </>}>
      <TableFrame layout="cards" caption={`Versions of ${t.name}`} detail="Newest first, with their calls, eval score, P95 latency, error rate and cost"
        class="versions-table">
        <thead>
          <tr>
            <th scope="col">Version</th>
            <th scope="col" class="align-end">Calls</th>
            <th scope="col" class="align-end">Eval score</th>
            <th scope="col" class="align-end">P95</th>
            <th scope="col" class="align-end">Error rate</th>
            <th scope="col" class="align-end">Cost</th>
            <th scope="col" class="align-end">Per call</th>
            <th scope="col">First seen</th>
            <th scope="col">Last seen</th>
          </tr>
        </thead>
        <tbody>
          {versions.map((v) => (
            <tr key={v.version}>
              <th scope="row">
                <Link href={templatePath(project, t.name, { version: v.version })} class="version-link">
                  v{v.version}{v.version === latest && <Badge tone="accent">latest</Badge>}
                </Link>
              </th>
              <td class="align-end numeric card-main" data-label="Calls">{f.calls(v.requests)}</td>
              <td class={`align-end numeric card-main${v.avg_score === null ? ' muted' : ''}`} data-label="Score">{formatScore(v.avg_score)}</td>
              <td class="align-end numeric" data-label="P95">{formatLatency(v.p95_latency_ms)}</td>
              <td class={`align-end numeric ${v.requests ? errorRateClass(v.error_rate) : 'muted'}`} data-label="Errors">{v.requests ? formatPercent(v.error_rate) : '—'}</td>
              <td class="align-end numeric" data-label="Cost">{f.cost(v.cost_usd)}</td>
              <td class="align-end numeric" data-label="Per call">{f.perCall(v.avg_cost_usd)}</td>
              <td class="nowrap" data-label="First seen"><When iso={v.first_seen} /></td>
              <td class="nowrap" data-label="Last seen"><When iso={v.last_seen} /></td>
            </tr>
          ))}
        </tbody>
      </TableFrame>
    </Card>
  );
}

/**
 * Whose scores the Eval score column shows: every definition's results together, or one definition's (its
 * `eval_definition_id`), so a judge's and a function's scores are compared each on its own. In the URL as `eval`.
 */
function ScoreSource({ project, value }: { project: string; value: string }) {
  const id = useId();
  const defs = useResource<EvalDefinitionList>(evaluatorsOn() ? projectApi(project, '/evals') : null, 'the eval definitions');
  if (!defs.data?.data.length) return null;
  const onChange = (e: Event) => navigate(here.value.path + withParams(here.value.search, { eval: (e.currentTarget as HTMLSelectElement).value || null }));
  return (
    <div class="project-picker">
      <label for={id} class="project-picker-label">Eval score of</label>
      <select id={id} class="input" value={value} onChange={onChange}>
        <option value="">All definitions</option>
        {defs.data.data.map((d) => <option key={d.id} value={d.id}>{d.name} ({EVAL_TYPE_LABEL[d.type]})</option>)}
      </select>
    </div>
  );
}

function Templates({ project }: { project: Project }) {
  const evalId = new URLSearchParams(here.value.search).get('eval') ?? '';
  const list = useResource<TemplateList>(projectApi(project.name, `/prompt-templates?limit=200${evalId ? `&eval_definition_id=${encodeURIComponent(evalId)}` : ''}`), 'the prompt templates');
  const refresh = useMemo(() => throttle(list.reload, LIVE_REFRESH_MS), [list.reload]);
  useEffect(() => () => refresh.cancel(), [refresh]);
  useLive('llm.trace', (data) => { if ((data as { project?: string }).project === project.name) refresh(); });
  if (list.error) return <ErrorState error={list.error} onRetry={list.reload} />;
  if (!list.data) return <Loading label="Loading the prompt templates" lines={6} />;
  if (list.data.data.length === 0) {
    return (
      <Card>
        <EmptyState icon="record" title="No prompt templates yet">
          <p>
            A trace that names its template (<code class="inline-code">prompt_template: {'{'} name, raw {'}'}</code>, the text before its variables
            are filled in) makes a version of it. Vigil versions each template by the hash of its normalised text: change the text, and the next
            call makes version 2.
          </p>
          <p><Link href={`/llm?project=${encodeURIComponent(project.name)}`}><Icon name="arrow-right" /> The traces page</Link> shows how to send one.</p>
        </EmptyState>
      </Card>
    );
  }
  return <div class="stack">{list.data.data.map((t) => <TemplateCard key={t.name} t={t} project={project.name} />)}</div>;
}

export default function PromptsPage() {
  return (
    <ProjectPage title="Prompts" subtitle="Each prompt template's versions, by the hash of their normalised text, compared side by side."
      actions={(project) => <ScoreSource project={project.name} value={new URLSearchParams(here.value.search).get('eval') ?? ''} />}>
      {(project) => <Templates key={project.name} project={project} />}
    </ProjectPage>
  );
}
