// The CI gate, asked from the dashboard: a template, a baseline and a candidate version, thresholds; the verdict as
// `vigil gate` gets it from GET /api/v1/gate (pass, fail or too few samples, each check's row), and the command line
// that asks CI the same question. The question is in the URL, so a verdict can be linked.
import type { ComponentChildren } from 'preact';
import { useEffect, useId, useState } from 'preact/hooks';
import { Badge } from '../../components/badge.js';
import { Card } from '../../components/card.js';
import { CodeBlock } from '../../components/code-block.js';
import { EmptyState } from '../../components/empty-state.js';
import { ErrorState } from '../../components/error-state.js';
import { Icon } from '../../components/icon.js';
import { Loading } from '../../components/skeleton.js';
import { TableFrame } from '../../components/table-frame.js';
import { useResource } from '../../data/use-resource.js';
import { formatInteger } from '../../format/numbers.js';
import { here, Link, navigate } from '../../shell/router.js';
import { vigilCli } from '../../shell/shell-info.js';
import { formatCheckValue, formatMetric, formatThreshold } from './figures.js';
import {
  DEFAULT_MIN_SAMPLES, DEFAULT_THRESHOLDS, gateApiPath, gateCommand, gateSearch, readGateForm, THRESHOLD_INFO, thresholdProblem, type GateForm,
} from './gate-form.js';
import { projectApi, templatePath, THRESHOLDS, type GateVerdict, type Project, type Template, type TemplateList } from './llm-api.js';
import { ProjectPage } from './project-frame.js';

/** The template the gate looks at when the URL names none: the first with two versions to compare, else the first. */
const defaultTemplate = (templates: readonly Template[]): string =>
  (templates.find((t) => t.versions.length > 1) ?? templates[0])?.name ?? '';

function Select({ label, value, onChange, children }: { label: string; value: string; onChange(v: string): void; children: ComponentChildren }) {
  const id = useId();
  return (
    <div class="field">
      <label class="field-label" for={id}>{label}</label>
      <select id={id} class="input" value={value} onChange={(e) => onChange((e.currentTarget as HTMLSelectElement).value)}>{children}</select>
    </div>
  );
}

function GateFormCard({ project, templates, form }: { project: string; templates: Template[]; form: GateForm }) {
  const id = useId();
  const [draft, setDraft] = useState(form);
  // The URL is the truth: back, forward and links reset the form to what they name.
  useEffect(() => setDraft(form), [JSON.stringify(form)]);
  const template = templates.find((t) => t.name === draft.template);
  const versions = template?.versions.map((v) => v.version) ?? [];
  const problems = Object.fromEntries(THRESHOLDS.map((t) => [t, thresholdProblem(t, draft.thresholds[t] ?? '')]).filter(([, p]) => p));
  const setThreshold = (name: (typeof THRESHOLDS)[number], value: string) => setDraft((d) => {
    const thresholds = { ...d.thresholds };
    if (value.trim()) thresholds[name] = value.trim(); else delete thresholds[name];
    return { ...d, thresholds };
  });
  const submit = (event: Event) => {
    event.preventDefault();
    if (Object.keys(problems).length) return;
    navigate(`/llm/gate${gateSearch(project, draft)}`);
  };
  return (
    <Card title="The question" description="What CI asks before a prompt version ships">
      <form class="gate-form" onSubmit={submit} noValidate>
        <div class="gate-versions">
          <Select label="Prompt template" value={draft.template} onChange={(v) => setDraft((d) => ({ ...d, template: v, baseline: 'previous', candidate: 'latest' }))}>
            {templates.map((t) => <option key={t.name} value={t.name}>{t.name}</option>)}
          </Select>
          <Select label="Baseline" value={draft.baseline} onChange={(v) => setDraft((d) => ({ ...d, baseline: v }))}>
            <option value="previous">The version before the candidate</option>
            {[...versions].reverse().map((v) => <option key={v} value={String(v)}>v{v}</option>)}
          </Select>
          <Select label="Candidate" value={draft.candidate} onChange={(v) => setDraft((d) => ({ ...d, candidate: v }))}>
            <option value="latest">The latest version{template?.latest_version ? ` (v${template.latest_version})` : ''}</option>
            {[...versions].reverse().map((v) => <option key={v} value={String(v)}>v{v}</option>)}
          </Select>
        </div>
        <fieldset class="gate-thresholds">
          <legend class="field-label">Thresholds</legend>
          <p class="field-hint gate-thresholds-hint">An empty field with a greyed value checks that default; the other empty fields are not checked.</p>
          {THRESHOLDS.map((t) => {
            const info = THRESHOLD_INFO[t];
            const fallback = DEFAULT_THRESHOLDS[t];
            return (
              <div class="field" key={t}>
                <label class="field-label" for={`${id}-${t}`}>{info.label} <span class="field-unit">({info.unit})</span></label>
                <input id={`${id}-${t}`} class="input input-mono" inputMode="decimal" autoComplete="off" value={draft.thresholds[t] ?? ''}
                  placeholder={fallback === undefined ? 'not checked' : String(fallback)} aria-invalid={problems[t] ? true : undefined}
                  aria-describedby={`${id}-${t}-hint`} onInput={(e) => setThreshold(t, (e.currentTarget as HTMLInputElement).value)} />
                {problems[t] ? <p class="field-error" id={`${id}-${t}-hint`}>{problems[t]}</p> : <p class="field-hint" id={`${id}-${t}-hint`}>{info.hint}</p>}
              </div>
            );
          })}
          <div class="field">
            <label class="field-label" for={`${id}-min`}>Samples each side needs</label>
            <input id={`${id}-min`} class="input input-mono" inputMode="numeric" autoComplete="off" value={draft.minSamples} placeholder={String(DEFAULT_MIN_SAMPLES)}
              onInput={(e) => { const v = (e.currentTarget as HTMLInputElement).value.trim(); setDraft((d) => ({ ...d, minSamples: /^[1-9][0-9]{0,8}$/.test(v) ? v : '' })); }} />
            <p class="field-hint">Fewer calls than this on either side: no verdict (exit 3)</p>
          </div>
        </fieldset>
        <div class="form-actions">
          <button type="submit" class="button button-primary" disabled={Object.keys(problems).length > 0}>Check the gate</button>
          <Link href={`/llm/gate?project=${encodeURIComponent(project)}&template=${encodeURIComponent(draft.template)}`} class="button button-ghost">Reset thresholds</Link>
        </div>
      </form>
    </Card>
  );
}

const OUTCOME = {
  pass: { title: 'Pass', tone: 'success', icon: 'check', exit: 0, words: 'CI goes on: `vigil gate` exits 0.' },
  fail: { title: 'Fail', tone: 'danger', icon: 'close', exit: 1, words: 'CI stops here: `vigil gate` exits 1.' },
  insufficient: { title: 'No verdict yet', tone: 'warning', icon: 'alert', exit: 3, words: '`vigil gate` exits 3 (0 with --allow-insufficient).' },
} as const;

function Verdict({ v, project }: { v: GateVerdict; project: string }) {
  const outcome = OUTCOME[v.pass === true ? 'pass' : v.pass === false ? 'fail' : 'insufficient'];
  return (
    <Card title="The verdict" padded={false}
      actions={v.baseline && <Link href={templatePath(project, v.template, { version: v.candidate.version, against: v.baseline.version })} class="button button-secondary button-small">Diff v{v.baseline.version} → v{v.candidate.version}</Link>}>
      <div class={`verdict verdict-${outcome.tone}`} role="status">
        <Icon name={outcome.icon} class="verdict-icon" />
        <div>
          <p class="verdict-title">{outcome.title}</p>
          <p class="verdict-reason">{v.reason}</p>
          <p class="verdict-exit">{outcome.words.split('`').map((part, i) => (i % 2 ? <code key={i} class="inline-code">{part}</code> : part))}</p>
        </div>
      </div>
      <dl class="verdict-sides">
        <div><dt>Baseline</dt><dd>{v.baseline ? <>v{v.baseline.version} · {formatInteger(v.baseline.samples)} calls</> : 'none'}</dd></div>
        <div><dt>Candidate</dt><dd>v{v.candidate.version} · {formatInteger(v.candidate.samples)} calls</dd></div>
        <div><dt>Needs</dt><dd>{formatInteger(v.min_samples)} calls each</dd></div>
      </dl>
      {v.checks.length > 0 && (
        <TableFrame layout="cards" caption="The gate's checks" detail="Each check's result, the two versions' values, and what is held against the threshold" class="checks-table">
          <thead>
            <tr>
              <th scope="col">Check</th>
              <th scope="col">Result</th>
              <th scope="col" class="align-end">Baseline</th>
              <th scope="col" class="align-end">Candidate</th>
              <th scope="col" class="align-end">Measured</th>
              <th scope="col" class="align-end">Threshold</th>
            </tr>
          </thead>
          <tbody>
            {v.checks.map((c) => (
              <tr key={c.metric} data-metric={c.metric}>
                <th scope="row">{THRESHOLD_INFO[c.metric].label}<span class="check-metric">{c.metric}</span></th>
                <td class="card-lead">{c.pass === null ? <Badge tone="warning">no value</Badge> : c.pass ? <Badge tone="success">pass</Badge> : <Badge tone="danger">fail</Badge>}</td>
                <td class="align-end numeric" data-label="Baseline">{formatMetric(c.metric, c.baseline)}</td>
                <td class="align-end numeric" data-label="Candidate">{formatMetric(c.metric, c.candidate)}</td>
                <td class="align-end numeric card-main" data-label="Measured">{formatCheckValue(c.metric, c.value)}</td>
                <td class="align-end numeric card-main" data-label="Threshold">{formatThreshold(c.metric, c.threshold)}</td>
              </tr>
            ))}
          </tbody>
        </TableFrame>
      )}
    </Card>
  );
}

function Gate({ project }: { project: Project }) {
  const templates = useResource<TemplateList>(projectApi(project.name, '/prompt-templates?limit=200'), 'the prompt templates');
  const list = templates.data?.data;
  const asked = readGateForm(here.value.search);
  const form: GateForm = { ...asked, template: asked.template || (list ? defaultTemplate(list) : '') };
  const path = list && list.some((t) => t.name === form.template) ? gateApiPath(project.name, form) : null;
  const verdict = useResource<GateVerdict>(path, 'the gate\'s verdict');
  if (templates.error) return <ErrorState error={templates.error} onRetry={templates.reload} />;
  if (!list) return <Loading label="Loading the prompt templates" lines={6} />;
  if (list.length === 0) {
    return (
      <Card>
        <EmptyState icon="policy" title="Nothing to gate yet">
          <p>The gate compares two versions of a prompt template. Versions appear once traces name their template
            (<code class="inline-code">prompt_template: {'{'} name, raw {'}'}</code>); a changed text makes the next version.</p>
        </EmptyState>
      </Card>
    );
  }
  return (
    <div class="gate-layout">
      <div class="stack">
        {!list.some((t) => t.name === form.template) && (
          <div class="notice" role="status">{project.name} has no template "{form.template}". Choose one of its templates.</div>
        )}
        {verdict.error && <ErrorState error={verdict.error} onRetry={verdict.reload} />}
        {path && !verdict.data && !verdict.error && <Loading label="Asking the gate" lines={5} />}
        {verdict.data && <Verdict v={verdict.data} project={project.name} />}
        <Card title="The same check in CI" description="Your CI holds the project key as VIGIL_PROJECT_KEY; the command never needs it in a file">
          <CodeBlock label="The vigil gate command" code={gateCommand(window.location.origin, form, vigilCli())} />
          <p class="muted gate-cli-note">Add <code class="inline-code">--markdown</code> for a table to post on the pull request. Exit codes: 0 pass, 1 fail, 3 too few samples, 2 no answer.</p>
        </Card>
      </div>
      <GateFormCard project={project.name} templates={list} form={form} />
    </div>
  );
}

export default function GatePage() {
  return (
    <ProjectPage title="CI gate" subtitle={<>Compare a candidate prompt version with a baseline by thresholds, as <code class="inline-code">vigil gate</code> does in CI.</>}
      searchFor={(p) => `?project=${encodeURIComponent(p)}`}>
      {(project) => <Gate key={project.name} project={project} />}
    </ProjectPage>
  );
}
