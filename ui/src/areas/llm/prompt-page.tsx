// One prompt template: a version's normalised text, its figures beside another version's, and the diff between the
// two (any two: the URL names them, `?version=3&against=1`). The gate compares the same pair.
import { useId, useState } from 'preact/hooks';
import { Badge } from '../../components/badge.js';
import { Card } from '../../components/card.js';
import { EmptyState } from '../../components/empty-state.js';
import { ErrorState } from '../../components/error-state.js';
import { Icon } from '../../components/icon.js';
import { Loading } from '../../components/skeleton.js';
import { TableFrame } from '../../components/table-frame.js';
import { useResource } from '../../data/use-resource.js';
import { countFormat, formatLatency, formatPercent, moneyFormat } from '../../format/numbers.js';
import { formatDateTime, formatWhen } from '../../format/time.js';
import { here, Link, navigate } from '../../shell/router.js';
import type { PageProps } from '../types.js';
import { DiffView } from './diff-view.js';
import { formatScore } from './figures.js';
import { projectApi, templatePath, type CallStats, type DiffOmitted, type Project, type Template, type TemplateList, type VersionDetail } from './llm-api.js';
import { ProjectPage } from './project-frame.js';
import { CreateVersionCard } from './prompt-create.js';
import { PromptLabelsCards } from './prompt-labels.js';
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

type Row = {
  label: string;
  pick: (s: CallStats) => number | null;
  /** The row's format, chosen from both versions' values so that they read alike. */
  numbers: (values: number[]) => (v: number) => string;
  /** What no value reads as (default `—`). */
  none?: string;
  lowerIsBetter?: boolean;
};
const usd = (values: number[]) => moneyFormat(values, 'USD');
const ROWS: Row[] = [
  { label: 'Calls', pick: (s) => s.requests, numbers: countFormat },
  { label: 'Eval score', pick: (s) => s.avg_score, numbers: () => formatScore, none: formatScore(null) },
  { label: 'P50 latency', pick: (s) => s.p50_latency_ms, numbers: () => formatLatency, lowerIsBetter: true },
  { label: 'P95 latency', pick: (s) => s.p95_latency_ms, numbers: () => formatLatency, lowerIsBetter: true },
  { label: 'Error rate', pick: (s) => (s.requests ? s.error_rate : null), numbers: () => formatPercent, lowerIsBetter: true },
  { label: 'Cost per call', pick: (s) => s.avg_cost_usd, numbers: usd, lowerIsBetter: true },
  { label: 'Cost', pick: (s) => s.cost_usd, numbers: usd },
  { label: 'Tokens', pick: (s) => s.total_tokens, numbers: countFormat },
];

/** The change from `a` to `b`, in percent, worded; '' when either is missing or both are zero. */
function change(a: number | null, b: number | null): { text: string; worse: boolean | null } {
  if (a === null || b === null || (a === 0 && b === 0)) return { text: '', worse: null };
  if (a === 0) return { text: 'new', worse: null };
  const pct = ((b - a) / a) * 100;
  if (Math.abs(pct) < 0.05) return { text: 'same', worse: null };
  return { text: `${pct > 0 ? '+' : '−'}${Math.abs(pct) >= 100 ? Math.round(Math.abs(pct)) : Math.abs(pct).toFixed(1)}%`, worse: pct > 0 };
}

/** When a version was first and last called: each time on a line of its own, so that the column stays narrow. */
const seen = (v: { first_seen: string | null; last_seen: string | null }) => (v.first_seen
  ? <><span class="nowrap">{formatWhen(Date.parse(v.first_seen))} –</span> <span class="nowrap">{formatWhen(Date.parse(v.last_seen!))}</span></>
  : 'no calls kept');

/**
 * The figures of versions `a` and `b`. The template list holds its newest versions only: an older `b` takes its
 * figures from its own answer (`bStats`), and an older `a` has no column.
 */
function SideBySide({ template, a, b, bStats }: { template: Template; a: number | null; b: number; bStats: CallStats | undefined }) {
  const va = template.versions.find((v) => v.version === a);
  const vb = template.versions.find((v) => v.version === b) ?? bStats;
  if (!vb) return <Loading label="Loading the version's figures" lines={4} />;
  return (
    <TableFrame layout="scroll" caption={va ? `Version ${a} and version ${b} side by side` : `Version ${b}`} class="compare-table">
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
          const format = row.numbers([x, y].filter((v): v is number => v !== null));
          const text = (v: number | null) => (v === null ? row.none ?? '—' : format(v));
          const tone = c.worse === null || row.lowerIsBetter === undefined ? '' : c.worse === row.lowerIsBetter ? 'tone-danger' : 'tone-success';
          return (
            <tr key={row.label}>
              <th scope="row">{row.label}</th>
              {va && <td class={`align-end numeric${x === null ? ' muted' : ''}`}>{text(x)}</td>}
              <td class={`align-end numeric${y === null ? ' muted' : ''}`}>{text(y)}</td>
              {va && <td class={`align-end numeric ${tone}`}>{c.text}</td>}
            </tr>
          );
        })}
        <tr>
          <th scope="row">First and last seen</th>
          {va && <td class="align-end">{seen(va)}</td>}
          <td class="align-end">{seen(vb)}</td>
          {va && <td />}
        </tr>
      </tbody>
    </TableFrame>
  );
}

/** Two versions too different (or too long) to diff here: why, and both texts to download and compare locally. */
function DiffTooLarge({ omitted, from, to }: { omitted: DiffOmitted; from: number; to: number }) {
  const why = omitted.reason === 'size' ? 'One of the texts is too long to diff here.'
    : omitted.reason === 'edits' ? 'Too many lines changed to show them here.' : 'Finding the changes would take too long here.';
  return (
    <EmptyState compact icon="record" title={`v${from} and v${to} are too different to show inline`}
      actions={<>
        <a class="button button-secondary" href={omitted.downloads.from} download><Icon name="download" /> Text of v{from}</a>
        <a class="button button-secondary" href={omitted.downloads.to} download><Icon name="download" /> Text of v{to}</a>
      </>}>
      <p>{why} Download both and compare them with a diff tool of your own.</p>
    </EmptyState>
  );
}

function TemplateView({ project, name }: { project: Project; name: string }) {
  // Bumped by a create: the list, the labels and the version reload.
  const [created, setCreated] = useState(0);
  const list = useResource<TemplateList>(projectApi(project.name, '/prompt-templates?limit=200'), 'the prompt templates');
  const madeOne = () => { setCreated((c) => c + 1); list.reload(); };
  const template = list.data?.data.find((t) => t.name === name);
  // Version numbers have no gaps: every one up to the latest can be chosen, listed or not.
  const numbers = Array.from({ length: template?.latest_version ?? 0 }, (_, i) => i + 1);
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
          <p>A template appears once a trace names it, or when you create its first version below. Templates belong to one project: pick another project above if it is there.</p>
        </EmptyState>
        <CreateVersionCard project={project.name} name={name} open onCreated={madeOne} />
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
      <CreateVersionCard key={`create-${created}`} project={project.name} name={name} onCreated={madeOne} />
      <PromptLabelsCards project={project.name} name={name} version={version} reloadKey={created} />
      <Card title={against === null ? `Version ${version}` : `Version ${against} and version ${version}`} padded={false}
        description="Calls kept by retention; the eval score comes with evaluations">
        <SideBySide template={template} a={against} b={version} bStats={detail.data?.version === version ? detail.data.stats : undefined} />
      </Card>
      {detail.error && <ErrorState error={detail.error} onRetry={detail.reload} />}
      {!d && !detail.error && <Loading label="Loading the version's text" lines={6} />}
      {d && (
        <div class="detail-grid">
          <Card title={against === null ? 'Diff' : `Diff from v${against} to v${version}`} description="Of the normalised texts: what changed the hash">
            {d.diff_omitted ? <DiffTooLarge omitted={d.diff_omitted} from={d.against!} to={version} />
              : d.diff === null ? <p class="muted">Version 1 has nothing before it to compare with. Choose a version to compare with above.</p>
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
