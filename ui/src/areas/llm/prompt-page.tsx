// One prompt template: a version's normalised text, its figures beside another version's, and the diff between the
// two (any two: the URL names them, `?version=3&against=1`). The gate compares the same pair.
import { useId } from 'preact/hooks';
import { Badge } from '../../components/badge.js';
import { Card } from '../../components/card.js';
import { EmptyState } from '../../components/empty-state.js';
import { ErrorState } from '../../components/error-state.js';
import { Loading } from '../../components/skeleton.js';
import { useResource } from '../../data/use-resource.js';
import { formatInteger, formatLatency, formatPercent } from '../../format/numbers.js';
import { formatDateTime } from '../../format/time.js';
import { here, Link, navigate } from '../../shell/router.js';
import type { PageProps } from '../types.js';
import { DiffView } from './diff-view.js';
import { formatScore, formatUsd } from './figures.js';
import { projectApi, templatePath, type CallStats, type Project, type Template, type TemplateList, type VersionDetail } from './llm-api.js';
import { ProjectPage } from './project-frame.js';
import { chosenVersions } from './prompt-view.js';

function VersionSelect({ label, value, versions, onChange, none }: { label: string; value: number | null; versions: number[]; onChange(v: number | null): void; none?: string }) {
  const id = useId();
  return (
    <div class="inline-field">
      <label for={id} class="inline-field-label">{label}</label>
      <select id={id} class="input" value={value === null ? '' : String(value)} onChange={(e) => { const v = (e.currentTarget as HTMLSelectElement).value; onChange(v ? Number(v) : null); }}>
        {none && <option value="">{none}</option>}
        {[...versions].reverse().map((v) => <option key={v} value={String(v)}>v{v}</option>)}
      </select>
    </div>
  );
}

type Row = { label: string; pick: (s: CallStats) => number | null; format: (v: number | null) => string; lowerIsBetter?: boolean };
const ROWS: Row[] = [
  { label: 'Calls', pick: (s) => s.requests, format: (v) => (v === null ? '—' : formatInteger(v)) },
  { label: 'Eval score', pick: (s) => s.avg_score, format: formatScore },
  { label: 'P50 latency', pick: (s) => s.p50_latency_ms, format: formatLatency, lowerIsBetter: true },
  { label: 'P95 latency', pick: (s) => s.p95_latency_ms, format: formatLatency, lowerIsBetter: true },
  { label: 'Error rate', pick: (s) => (s.requests ? s.error_rate : null), format: (v) => (v === null ? '—' : formatPercent(v)), lowerIsBetter: true },
  { label: 'Cost per call', pick: (s) => s.avg_cost_usd, format: formatUsd, lowerIsBetter: true },
  { label: 'Cost', pick: (s) => s.cost_usd, format: formatUsd },
  { label: 'Tokens', pick: (s) => s.total_tokens, format: (v) => (v === null ? '—' : formatInteger(v)) },
];

/** The change from `a` to `b`, in percent, worded; '' when either is missing or both are zero. */
function change(a: number | null, b: number | null): { text: string; worse: boolean | null } {
  if (a === null || b === null || (a === 0 && b === 0)) return { text: '', worse: null };
  if (a === 0) return { text: 'new', worse: null };
  const pct = ((b - a) / a) * 100;
  if (Math.abs(pct) < 0.05) return { text: 'same', worse: null };
  return { text: `${pct > 0 ? '+' : '−'}${Math.abs(pct) >= 100 ? Math.round(Math.abs(pct)) : Math.abs(pct).toFixed(1)}%`, worse: pct > 0 };
}

function SideBySide({ template, a, b }: { template: Template; a: number | null; b: number }) {
  const va = template.versions.find((v) => v.version === a);
  const vb = template.versions.find((v) => v.version === b)!;
  return (
    <div class="table-wrap" role="region" aria-label="The two versions side by side" tabIndex={0}>
      <table class="table compare-table">
        <caption class="sr-only">{va ? `Version ${a} and version ${b} side by side` : `Version ${b}`}</caption>
        <thead>
          <tr>
            <th scope="col">Figure</th>
            {va && <th scope="col" class="align-end">v{a}</th>}
            <th scope="col" class="align-end">v{b}</th>
            {va && <th scope="col" class="align-end">Change</th>}
          </tr>
        </thead>
        <tbody>
          {ROWS.map((row) => {
            const x = va ? row.pick(va) : null;
            const y = row.pick(vb);
            const c = change(x, y);
            const tone = c.worse === null || row.lowerIsBetter === undefined ? '' : c.worse === row.lowerIsBetter ? 'tone-danger' : 'tone-success';
            return (
              <tr key={row.label}>
                <th scope="row">{row.label}</th>
                {va && <td class={`align-end numeric${x === null ? ' muted' : ''}`}>{row.format(x)}</td>}
                <td class={`align-end numeric${y === null ? ' muted' : ''}`}>{row.format(y)}</td>
                {va && <td class={`align-end numeric ${tone}`}>{c.text}</td>}
              </tr>
            );
          })}
          <tr>
            <th scope="row">First and last seen</th>
            {va && <td class="align-end nowrap">{va.first_seen ? `${formatDateTime(Date.parse(va.first_seen))} – ${formatDateTime(Date.parse(va.last_seen!))}` : 'no calls kept'}</td>}
            <td class="align-end nowrap">{vb.first_seen ? `${formatDateTime(Date.parse(vb.first_seen))} – ${formatDateTime(Date.parse(vb.last_seen!))}` : 'no calls kept'}</td>
            {va && <td />}
          </tr>
        </tbody>
      </table>
    </div>
  );
}

function TemplateView({ project, name }: { project: Project; name: string }) {
  const list = useResource<TemplateList>(projectApi(project.name, '/prompt-templates?limit=200'), 'the prompt templates');
  const template = list.data?.data.find((t) => t.name === name);
  const numbers = template?.versions.map((v) => v.version) ?? [];
  const { version, against } = template ? chosenVersions(here.value.search, numbers) : { version: 0, against: null };
  const detail = useResource<VersionDetail>(template
    ? projectApi(project.name, `/prompt-templates/${encodeURIComponent(name)}/versions/${version}${against === null ? '' : `?against=${against}`}`)
    : null, `version ${version} of ${name}`);
  if (list.error) return <ErrorState error={list.error} onRetry={list.reload} />;
  if (!list.data) return <Loading label="Loading the template" lines={6} />;
  if (!template) {
    return (
      <Card>
        <EmptyState icon="record" title={`${project.name} has no template "${name}"`}
          actions={<Link href={`/llm/prompts?project=${encodeURIComponent(project.name)}`} class="button button-secondary">All prompts</Link>}>
          <p>A template appears once a trace names it. Templates belong to one project: pick another project above if it is there.</p>
        </EmptyState>
      </Card>
    );
  }
  const go = (v: { version?: number; against?: number | null }) => {
    const next = { version: v.version ?? version, against: v.against === undefined ? against : v.against };
    navigate(templatePath(project.name, name, { version: next.version, against: next.against ?? 'none' }));
  };
  const d = detail.data;
  return (
    <div class="stack">
      <div class="toolbar">
        <VersionSelect label="Version" value={version} versions={numbers} onChange={(v) => go({ version: v ?? version })} />
        <VersionSelect label="Compared with" value={against} versions={numbers.filter((v) => v !== version)} none="Nothing" onChange={(v) => go({ against: v })} />
        {against !== null && (
          <Link href={`/llm/gate?project=${encodeURIComponent(project.name)}&template=${encodeURIComponent(name)}&baseline=${against}&candidate=${version}`}
            class="button button-secondary">Gate v{version} against v{against}</Link>
        )}
      </div>
      <Card title={against === null ? `Version ${version}` : `Version ${against} and version ${version}`} padded={false}
        description="Calls kept by retention; the eval score comes with evaluations">
        <SideBySide template={template} a={against} b={version} />
      </Card>
      {detail.error && <ErrorState error={detail.error} onRetry={detail.reload} />}
      {!d && !detail.error && <Loading label="Loading the version's text" lines={6} />}
      {d && (
        <div class="detail-grid">
          <Card title={against === null ? 'Diff' : `Diff from v${against} to v${version}`} description="Of the normalised texts: what changed the hash">
            {d.diff === null ? <p class="muted">Version 1 has nothing before it to compare with. Choose a version to compare with above.</p>
              : <DiffView diff={d.diff} label={`Diff from version ${d.against} to version ${version}`} />}
          </Card>
          <Card title={`Text of v${version}`} description={<>Normalised: line ends, trailing spaces and outer blank lines removed · <span class="hash" title={d.hash}>sha256 {d.hash.slice(0, 12)}…</span></>}
            actions={<Badge>{formatDateTime(Date.parse(d.created_at))}</Badge>}>
            <pre class="prompt-text" tabIndex={0} aria-label={`Text of version ${version}`}><code>{d.text}</code></pre>
          </Card>
        </div>
      )}
    </div>
  );
}

export default function PromptPage({ params }: PageProps) {
  return (
    <ProjectPage title={params.name} subtitle={<>A prompt template: its versions' figures side by side, and the diff between any two. <Link href="/llm/prompts">All prompts</Link></>}
      searchFor={(p) => `?project=${encodeURIComponent(p)}`}>
      {(project) => <TemplateView key={project.name} project={project} name={params.name} />}
    </ProjectPage>
  );
}
