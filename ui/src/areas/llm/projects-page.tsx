// The LLM projects: each with where it is defined, its keys (hints only), this month's traces and spend against its
// budget; and a new project, whose key is shown once.
import { useState } from 'preact/hooks';
import { Badge } from '../../components/badge.js';
import { Card } from '../../components/card.js';
import { CodeBlock } from '../../components/code-block.js';
import { ErrorState } from '../../components/error-state.js';
import { PageHeader } from '../../components/page-header.js';
import { Loading } from '../../components/skeleton.js';
import { TableFrame } from '../../components/table-frame.js';
import { useResource } from '../../data/use-resource.js';
import { countFormat, formatInteger, moneyFormat } from '../../format/numbers.js';
import { here, Link, navigate } from '../../shell/router.js';
import { projectState, STATE_TEXT } from './billing-figures.js';
import { formatUsd } from './figures.js';
import type { CreatedProject, Project, ProjectList } from './llm-api.js';
import { createCommand, CreateProjectForm, KeyOnce } from './onboarding.js';

function Budget({ p }: { p: Project }) {
  const cap = p.effective.monthlyBudgetUsd;
  if (cap === null) return <span class="muted">no cap</span>;
  const used = cap === 0 ? 1 : p.usage.cost_usd / cap;
  return (
    <span class="budget" title={`${formatUsd(p.usage.cost_usd)} of ${formatUsd(cap)} this month`}>
      <span class="share-bar" aria-hidden="true"><span class={used >= 1 ? 'share-over' : undefined} style={{ width: `${Math.min(100, Math.max(2, used * 100))}%` }} /></span>
      {formatUsd(cap)}{used >= 1 && <Badge tone="warning">over: sampling</Badge>}
    </span>
  );
}

/** The project's plan, and whether it is near or over a monthly limit (the billing page has the figures). */
function PlanBadge({ p }: { p: Project }) {
  const state = projectState(p.effective, p.usage);
  if (!p.effective.plan && state !== 'near' && state !== 'over') return null;
  return (
    <span class="plan-badges">
      {p.effective.plan && <Badge title="Its plan of llm.plans">{p.effective.plan}</Badge>}
      {(state === 'near' || state === 'over') && (
        <Link href="/llm/billing" class="plan-state"><Badge tone={state === 'over' ? 'danger' : 'warning'} title="This month against its plan's limits: see Billing">{STATE_TEXT[state]}</Badge></Link>
      )}
    </span>
  );
}

function ProjectTable({ projects }: { projects: Project[] }) {
  const traces = countFormat(projects.map((p) => p.usage.items));
  const cost = moneyFormat(projects.map((p) => p.usage.cost_usd), 'USD');
  return (
    <TableFrame layout="cards" caption="LLM projects" detail="With their keys (hints), this month's traces and cost, and budget" class="projects-table">
      <thead>
        <tr>
          <th scope="col">Project</th>
          <th scope="col">Defined in</th>
          <th scope="col">Keys</th>
          <th scope="col" class="align-end">Traces this month</th>
          <th scope="col" class="align-end">Cost this month</th>
          <th scope="col">Monthly budget</th>
          <th scope="col"><span class="sr-only">Pages</span></th>
        </tr>
      </thead>
      <tbody>
        {projects.map((p) => (
          <tr key={p.name}>
            <th scope="row">
              <Link href={`/llm/projects/${encodeURIComponent(p.name)}`} class="project-link">{p.name}</Link>
              <PlanBadge p={p} />
            </th>
            <td class="card-lead">{p.source === 'config' ? <Badge title="Declared in llm.projects of the config file, which wins: read-only here">config file</Badge> : <Badge tone="accent">dashboard or CLI</Badge>}</td>
            <td class="keys-cell nowrap" data-label="Keys">
              {p.keys.length === 0 ? <span class="muted">none: rotate to get one</span> : p.keys.map((k) => (
                <code key={k.hint} class="inline-code" title={k.expires_at ? `Stops working at ${k.expires_at}` : 'Active'}>{k.hint}{k.expires_at ? ' (expiring)' : ''}</code>
              ))}
            </td>
            <td class="align-end numeric card-main" data-label="Traces">
              {traces(p.usage.items)}
              {p.usage.sampled_out > 0 && <span class="muted" title="Accepted over budget and dropped by sampling"> ({formatInteger(p.usage.sampled_out)} sampled out)</span>}
            </td>
            <td class="align-end numeric card-main" data-label="Cost">{cost(p.usage.cost_usd)}</td>
            <td data-label="Budget"><Budget p={p} /></td>
            <td class="nowrap">
              <span class="row-links">
                <Link href={`/llm?project=${encodeURIComponent(p.name)}`}>Traces</Link>
                <Link href={`/llm/projects/${encodeURIComponent(p.name)}`}>Settings</Link>
              </span>
            </td>
          </tr>
        ))}
      </tbody>
    </TableFrame>
  );
}

export default function ProjectsPage() {
  const list = useResource<ProjectList>('/api/llm/projects', 'the LLM projects');
  const [created, setCreated] = useState<CreatedProject>();
  const asked = new URLSearchParams(here.value.search).get('new') === '1';
  const projects = list.data?.data;
  const done = () => {
    const name = created!.project.name;
    setCreated(undefined);
    navigate(`/llm?project=${encodeURIComponent(name)}`);
  };
  return (
    <>
      <PageHeader title="Projects" subtitle="Each application or environment sends its LLM calls with its own project key, and sees only its own data." />
      <div class="stack">
        <Card title="New project" description="Its key is shown once, here, right after it is made">
          {created ? <KeyOnce project={created.project.name} keyText={created.key} onDone={done} /> : (
            <>
              <CreateProjectForm autoFocus={asked} onCreated={(c) => { setCreated(c); list.reload(); }} />
              <details class="cli-hint">
                <summary>Or with the CLI</summary>
                <CodeBlock label="Create a project with the CLI" code={createCommand()} />
              </details>
            </>
          )}
        </Card>
        {list.error && <ErrorState error={list.error} onRetry={list.reload} />}
        {!projects && !list.error && <Loading label="Loading the projects" lines={4} />}
        {projects && projects.length > 0 && (
          <Card title="Projects" description={`This month (UTC) is ${projects[0].usage.month}`} padded={false}>
            <ProjectTable projects={projects} />
          </Card>
        )}
        {projects && projects.length === 0 && !created && (
          <p class="page-footnote">No project yet. Projects can also be declared in the config file (<code class="inline-code">llm.projects</code>), which then owns them.</p>
        )}
      </div>
    </>
  );
}
