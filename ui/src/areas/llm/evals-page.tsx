// A project's evaluations: its eval definitions (type, sample rate, scope, rate, results and cost so far), a form to
// create or edit one with a live test on a chosen trace, and one definition's results: the distribution of its scores
// and its failures with their reasons. A judge provider's key never reaches the page: it is "set" or "from env VAR".
import type { ComponentChildren } from 'preact';
import { useEffect, useId, useState } from 'preact/hooks';
import { Badge } from '../../components/badge.js';
import { Card } from '../../components/card.js';
import { CodeBlock } from '../../components/code-block.js';
import { EmptyState } from '../../components/empty-state.js';
import { ErrorState } from '../../components/error-state.js';
import { Loading } from '../../components/skeleton.js';
import { TableFrame } from '../../components/table-frame.js';
import { RecordTime } from '../../components/record-time.js';
import { postJson, putJson } from '../../data/api.js';
import type { ApiError } from '../../data/api-error.js';
import { useResource } from '../../data/use-resource.js';
import { countFormat, formatBinEdge, formatInteger, formatLatency, formatPercent, moneyFormat } from '../../format/numbers.js';
import { here, Link, navigate } from '../../shell/router.js';
import { withParams } from '../../shell/url-state.js';
import {
  binLabel, EVAL_TYPE_LABEL, EVAL_TYPES, emptyForm, evalsPath, formOf, providerKeyText, readEvalForm, scopeText, scoreHistogram, unscoredText,
  type EvalDefinition, type EvalDefinitionList, type EvalForm, type EvalProvider, type EvalResultPage, type EvalTrial, type EvalType, type FormProblems,
  type MissingOutput,
} from './evals-api.js';
import { formatScore, formatUsd } from './figures.js';
import { EmbedderPreparation, useEmbedderStatus } from './embedder-preparation.js';
import { projectApi, tracePath, type Project, type TemplateList, type TracePage } from './llm-api.js';
import { ProjectPage } from './project-frame.js';
import { evaluatorsOn } from './trace-evals.js';

/** Results a distribution is drawn from: the newest this many (the API's page). */
const RESULTS_SHOWN = 200;

function Field({ id, label, hint, error, children }: { id: string; label: string; hint?: ComponentChildren; error?: string; children: ComponentChildren }) {
  return (
    <div class="field">
      <label class="field-label" for={id}>{label}</label>
      {children}
      {error ? <p class="field-error" id={`${id}-hint`}>{error}</p> : hint && <p class="field-hint" id={`${id}-hint`}>{hint}</p>}
    </div>
  );
}

function DefinitionsTable({ project, list, selected }: { project: string; list: EvalDefinition[]; selected: string | null }) {
  const f = {
    results: countFormat(list.map((d) => d.stats.results)),
    failed: countFormat(list.map((d) => d.stats.failed)),
    cost: moneyFormat(list.map((d) => d.stats.cost_usd), 'USD'),
  };
  return (
    <TableFrame layout="cards" caption="Eval definitions" detail="With their type, sample rate, scope, rate, results, average score and cost so far" class="evals-table">
      <thead>
        <tr>
          <th scope="col">Definition</th>
          <th scope="col">Type</th>
          <th scope="col" class="align-end">Sample rate</th>
          <th scope="col">Scope</th>
          <th scope="col" class="align-end">Rate</th>
          <th scope="col" class="align-end">Results</th>
          <th scope="col" class="align-end">Failed</th>
          <th scope="col" class="align-end">Avg score</th>
          <th scope="col" class="align-end">Cost so far</th>
        </tr>
      </thead>
      <tbody>
        {list.map((d) => (
          <tr key={d.id} aria-current={d.id === selected ? 'true' : undefined}>
            <th scope="row">
              <Link href={evalsPath(project, d.id)}>{d.name}</Link>
              {d.source === 'config' && <> <Badge title="Declared in the config file, which wins: edit it there">config</Badge></>}
            </th>
            <td class="nowrap card-lead">{EVAL_TYPE_LABEL[d.type]}</td>
            <td class="align-end numeric" data-label="Sampled">{formatPercent(d.sample_rate)}</td>
            <td data-label="Scope">{scopeText(d)}</td>
            <td class="align-end numeric nowrap" data-label="Rate">{formatInteger(d.rate_per_minute)}/min</td>
            <td class="align-end numeric card-main" data-label="Results">{f.results(d.stats.results)}</td>
            <td class={`align-end numeric card-main${d.stats.failed ? ' tone-danger' : ''}`} data-label="Failed">{f.failed(d.stats.failed)}</td>
            <td class={`align-end numeric card-main${d.stats.avg_score === null ? ' muted' : ''}`} data-label="Score">{formatScore(d.stats.avg_score)}</td>
            <td class="align-end numeric" data-label="Cost">{f.cost(d.stats.cost_usd)}</td>
          </tr>
        ))}
      </tbody>
    </TableFrame>
  );
}

/** The distribution of scores as bars, with the counts written out (and a table for screen readers). */
function Histogram({ scores }: { scores: (number | null)[] }) {
  const counts = scoreHistogram(scores);
  const most = Math.max(1, ...counts);
  const width = 1 / counts.length;
  return (
    <figure class="histogram-figure">
      <ol class="histogram" aria-label="Score distribution: results per score band">
        {counts.map((n, i) => (
          <li key={i} class="histogram-bin" data-bin={binLabel(i)} data-count={n}>
            {/* An empty band has no bar and no figure: a row of zeros hides the bands that hold the results. */}
            <span class="histogram-count" aria-hidden="true">{n || ''}</span>
            <span class="histogram-bar" style={{ height: n ? `${(n / most) * 100}%` : 0 }} aria-hidden="true" />
            <span class="sr-only">{n} results scored {binLabel(i)}</span>
          </li>
        ))}
      </ol>
      {/* The axis: a tick at every band's edge, as precise as the band width. */}
      <div class="histogram-axis" aria-hidden="true">
        {Array.from({ length: counts.length + 1 }, (_, i) => (
          <span key={i} class="histogram-tick" style={{ left: `${(i / counts.length) * 100}%` }}>{formatBinEdge(i * width, width)}</span>
        ))}
      </div>
    </figure>
  );
}

function Results({ project, d, onChanged }: { project: string; d: EvalDefinition; onChanged(): void }) {
  const results = useResource<EvalResultPage>(projectApi(project, `/eval-results?eval_definition_id=${encodeURIComponent(d.id)}&limit=${RESULTS_SHOWN}`), 'the eval results');
  const [rerun, setRerun] = useState<string>();
  const [error, setError] = useState<ApiError>();
  const list = results.data?.data ?? [];
  const scored = list.filter((r) => r.status === 'ok' && r.score !== null);
  const failures = list.filter((r) => r.status === 'failed');
  const skipped = list.length - scored.length - failures.length;
  const average = scored.length ? scored.reduce((a, r) => a + (r.score ?? 0), 0) / scored.length : null;
  const runAgain = async () => {
    setError(undefined);
    try {
      const answer = await postJson<{ traces: number; enqueued: number }>(projectApi(project, `/evals/${encodeURIComponent(d.id)}/rerun`), { last: 100 }, { what: 'the re-run' });
      setRerun(`${answer.enqueued} of the last ${answer.traces} traces queued; results replace earlier ones as they come.`);
      onChanged();
    } catch (err) { setError(err as ApiError); }
  };
  return (
    <Card title={`Results of ${d.name}`} class="evals-card eval-results-card"
      description={list.length ? `The newest ${formatInteger(list.length)} results${list.length === RESULTS_SHOWN ? ` (of ${formatInteger(d.stats.results)})` : ''}` : 'No results yet'}
      actions={<>
        <button type="button" class="button button-secondary button-small" onClick={results.reload}>Refresh</button>
        <button type="button" class="button button-secondary button-small" onClick={() => void runAgain()}>Run on the last 100 traces</button>
      </>}>
      {rerun && <p class="notice" role="status">{rerun}</p>}
      {error && <ErrorState error={error} compact />}
      {results.error && <ErrorState error={results.error} onRetry={results.reload} />}
      {results.loading && <Loading label="Loading the results" lines={4} />}
      {results.data && list.length === 0 && (
        <p class="muted">
          No trace scored yet. A definition applies to traces stored from its creation on (sampled at {formatPercent(d.sample_rate)}); run it on
          the last traces to score older ones.
        </p>
      )}
      {list.length > 0 && (
        <div class="stack">
          <dl class="facts eval-figures">
            <div class="fact"><dt>Scored</dt><dd data-figure="scored">{formatInteger(scored.length)}</dd></div>
            <div class="fact"><dt>Failed</dt><dd data-figure="failed">{formatInteger(failures.length)}</dd></div>
            <div class="fact" title="Traces without output (failed calls): not scored, left out of the average">
              <dt>Skipped: no output</dt><dd data-figure="skipped">{formatInteger(skipped)}</dd>
            </div>
            <div class="fact"><dt>Average score</dt><dd data-figure="average">{formatScore(average)}</dd></div>
            <div class="fact"><dt>Method</dt><dd>{d.stats.method ?? '—'}</dd></div>
          </dl>
          <h3 class="section-title">Score distribution</h3>
          {scored.length ? <Histogram scores={list.map((r) => r.score)} /> : <p class="muted">No result has a score yet: each one failed or was skipped for a trace without output.</p>}
          <h3 class="section-title">Failures</h3>
          {failures.length === 0 ? <p class="muted">None.</p> : (
            <ul class="eval-results" aria-label="Failed evals with their reasons">
              {failures.slice(0, 50).map((r) => (
                <li key={r.id} class="eval-result">
                  <div class="eval-result-head">
                    <Link href={tracePath(project, r.trace_id)}>Trace <code class="inline-code">…{r.trace_id.slice(-12)}</code></Link>
                    <span class="muted"><RecordTime ms={Date.parse(r.created_at)} /></span>
                  </div>
                  <p class="eval-result-reason">{r.reason ?? 'no reason given'}</p>
                </li>
              ))}
            </ul>
          )}
        </div>
      )}
    </Card>
  );
}

function TrialResult({ trial }: { trial: EvalTrial }) {
  return (
    <div class="eval-trial" role="status" aria-label="Test result">
      <p>
        {trial.status === 'ok' ? <Badge tone="success">score {trial.score?.toFixed(2)}</Badge>
          : <Badge tone={trial.status === 'skipped' ? 'neutral' : 'danger'}>{unscoredText(trial)}</Badge>}{' '}
        on {trial.sample_trace ? 'a built-in sample trace' : <>trace <code class="inline-code">…{trial.trace_id?.slice(-12)}</code></>}
        <span class="muted"> · {trial.method} · {formatLatency(trial.latency_ms)}{trial.cost.usd ? ` · ${formatUsd(trial.cost.usd)}` : ''}</span>
      </p>
      {trial.preparation_ms !== undefined && trial.preparation_ms >= 1000 && (
        <p class="muted eval-trial-preparation">Before it, {formatLatency(trial.preparation_ms)} preparing embeddings (one time, not counted in the eval's latency).</p>
      )}
      {trial.reason && trial.status !== 'skipped' && <p class="eval-result-reason"><span class="eval-result-label">{trial.status === 'ok' ? 'Reason' : 'Why'}:</span> {trial.reason}</p>}
    </div>
  );
}

function DefinitionForm({ project, providers, editing, onSaved, onCancel }: {
  project: string; providers: EvalProvider[]; editing?: EvalDefinition; onSaved(id: string): void; onCancel(): void;
}) {
  const id = useId();
  const [form, setForm] = useState<EvalForm>(() => (editing ? formOf(editing) : emptyForm(providers)));
  const [problems, setProblems] = useState<FormProblems>({});
  const [error, setError] = useState<ApiError>();
  const [trial, setTrial] = useState<EvalTrial>();
  const [busy, setBusy] = useState<'test' | 'save'>();
  const [traceId, setTraceId] = useState('');
  const traces = useResource<TracePage>(projectApi(project, `/traces?limit=20${form.template.trim() ? `&template=${encodeURIComponent(form.template.trim())}` : ''}`), 'the recent traces');
  const templates = useResource<TemplateList>(projectApi(project, '/prompt-templates?limit=200'), 'the prompt templates');
  // The project's templates; a definition's own template stays listed after its traces are gone.
  const templateNames = [...new Set([...(templates.data?.data ?? []).map((t) => t.name), ...(form.template ? [form.template] : [])])].sort();
  const preparation = useEmbedderStatus(busy === 'test' && form.type === 'semantic_similarity');
  const set = (field: keyof EvalForm) => (e: Event) => setForm({ ...form, [field]: (e.currentTarget as HTMLInputElement).value });
  const provider = providers.find((p) => p.name === form.provider);
  const query = traceId ? `?trace_id=${encodeURIComponent(traceId)}` : '';
  const read = () => {
    const { body, problems: found } = readEvalForm(form);
    setProblems(found);
    return body;
  };
  const test = async () => {
    const body = read();
    if (!body) return;
    setBusy('test'); setError(undefined); setTrial(undefined);
    try { setTrial(await postJson<EvalTrial>(projectApi(project, `/evals/test${query}`), body, { what: 'the test' })); } catch (err) { setError(err as ApiError); }
    setBusy(undefined);
  };
  const save = async (event: Event) => {
    event.preventDefault();
    const body = read();
    if (!body) return;
    setBusy('save'); setError(undefined);
    try {
      const answer = editing
        ? await putJson<{ definition: EvalDefinition }>(projectApi(project, `/evals/${encodeURIComponent(editing.id)}${query}`), { ...body, id: editing.id }, { what: 'the definition' })
        : await postJson<{ definition: EvalDefinition }>(projectApi(project, `/evals${query}`), body, { what: 'the definition' });
      onSaved(answer.definition.id);
    } catch (err) { setError(err as ApiError); }
    setBusy(undefined);
  };
  const hint = (f: keyof EvalForm) => problems[f];
  return (
    <Card title={editing ? `Edit ${editing.name}` : 'New eval definition'}
      description={editing ? 'Saving replaces it; results so far stay.' : 'Scores traces stored from now on; run it on older ones once saved.'}>
      <form class="eval-form" onSubmit={(e) => void save(e)} noValidate>
        <div class="eval-form-row">
          <Field id={`${id}-name`} label="Name" error={hint('name')}>
            <input id={`${id}-name`} class="input" value={form.name} onInput={set('name')} aria-describedby={`${id}-name-hint`} />
          </Field>
          <Field id={`${id}-type`} label="Type" hint={form.type === 'custom_function' ? 'Your JavaScript, run in the sandbox (250 ms).' : form.type === 'llm_judge' ? 'A model grades each trace by your rubric.' : 'Closest expected output, by embedding.'}>
            <select id={`${id}-type`} class="input" value={form.type} disabled={!!editing}
              onChange={(e) => setForm({ ...form, type: (e.currentTarget as HTMLSelectElement).value as EvalType })} aria-describedby={`${id}-type-hint`}>
              {EVAL_TYPES.map((t) => <option key={t} value={t}>{EVAL_TYPE_LABEL[t]}</option>)}
            </select>
          </Field>
        </div>
        <div class="eval-form-row">
          <Field id={`${id}-rate`} label="Sample rate" hint="0 to 1: the share of traces scored (1: every one)." error={hint('sampleRate')}>
            <input id={`${id}-rate`} class="input" inputMode="decimal" value={form.sampleRate} onInput={set('sampleRate')} aria-describedby={`${id}-rate-hint`} />
          </Field>
          <Field id={`${id}-template`} label="Prompt template" error={hint('template')}
            hint={templates.data && templates.data.data.length === 0 ? 'No template yet: traces name theirs in prompt_template.' : 'Only traces of this template, or every trace.'}>
            <select id={`${id}-template`} class="input" value={form.template} aria-describedby={`${id}-template-hint`}
              onChange={(e) => setForm({ ...form, template: (e.currentTarget as HTMLSelectElement).value, versionMin: '', versionMax: '' })}>
              <option value="">Every template</option>
              {templateNames.map((name) => <option key={name} value={name}>{name}</option>)}
            </select>
          </Field>
        </div>
        {form.template.trim() && (
          <div class="eval-form-row">
            <Field id={`${id}-vmin`} label="From version" error={hint('versionMin')}>
              <input id={`${id}-vmin`} class="input" inputMode="numeric" value={form.versionMin} onInput={set('versionMin')} />
            </Field>
            <Field id={`${id}-vmax`} label="To version" error={hint('versionMax')}>
              <input id={`${id}-vmax`} class="input" inputMode="numeric" value={form.versionMax} onInput={set('versionMax')} />
            </Field>
          </div>
        )}
        <Field id={`${id}-missing`} label="Traces without output" hint="A failed call has no answer: skipped, it stays out of the average.">
          <select id={`${id}-missing`} class="input" value={form.onMissingOutput} aria-describedby={`${id}-missing-hint`}
            onChange={(e) => setForm({ ...form, onMissingOutput: (e.currentTarget as HTMLSelectElement).value as MissingOutput })}>
            <option value="skip">Skip: "skipped: no output"</option>
            <option value="score">Score them like any other</option>
          </select>
        </Field>
        {form.type === 'custom_function' && (
          <Field id={`${id}-source`} label="Function" error={hint('source')}
            hint={<><code class="inline-code">export default (trace) =&gt; number | {'{'} score, reason {'}'}</code>, a score from 0 to 1; outside it the result fails.</>}>
            <textarea id={`${id}-source`} class="input input-mono textarea" rows={8} spellcheck={false} value={form.source} onInput={set('source')} aria-describedby={`${id}-source-hint`} />
          </Field>
        )}
        {form.type === 'llm_judge' && (
          <>
            <div class="eval-form-row">
              <Field id={`${id}-provider`} label="Provider" error={hint('provider')}
                hint={provider ? <>{provider.model} at {provider.base_url} · key {providerKeyText(provider)}</> : 'Declared in evaluators.providers of the config file.'}>
                <select id={`${id}-provider`} class="input" value={form.provider} onChange={set('provider')} aria-describedby={`${id}-provider-hint`}>
                  {!providers.length && <option value="">No provider declared</option>}
                  {providers.map((p) => <option key={p.name} value={p.name}>{p.name}</option>)}
                </select>
              </Field>
              <Field id={`${id}-model`} label="Model (optional)" hint={provider ? `Default ${provider.model}.` : undefined}>
                <input id={`${id}-model`} class="input" value={form.model} onInput={set('model')} />
              </Field>
            </div>
            <Field id={`${id}-rubric`} label="Rubric" error={hint('rubric')}
              hint={<>Placeholders: <code class="inline-code">{'{{input}}'}</code>, <code class="inline-code">{'{{output}}'}</code>, <code class="inline-code">{'{{expected}}'}</code>, <code class="inline-code">{'{{metadata.…}}'}</code>.</>}>
              <textarea id={`${id}-rubric`} class="input textarea" rows={5} value={form.rubric} onInput={set('rubric')} aria-describedby={`${id}-rubric-hint`} />
            </Field>
          </>
        )}
        {form.type === 'semantic_similarity' && (
          <Field id={`${id}-golden`} label="Expected outputs (optional)" hint="One a line. Empty: the golden set of the trace's template.">
            <textarea id={`${id}-golden`} class="input textarea" rows={4} value={form.golden} onInput={set('golden')} aria-describedby={`${id}-golden-hint`} />
          </Field>
        )}
        <Field id={`${id}-trace`} label="Test on" hint="The trace a test (and, for a function, saving) runs on.">
          <select id={`${id}-trace`} class="input" value={traceId} onChange={(e) => setTraceId((e.currentTarget as HTMLSelectElement).value)} aria-describedby={`${id}-trace-hint`}>
            <option value="">The latest trace in scope</option>
            {(traces.data?.data ?? []).map((t) => (
              <option key={t.id} value={t.id}>…{t.id.slice(-12)} · {t.prompt_template ? `${t.prompt_template.name} v${t.prompt_template.version}` : t.model} · {t.status}</option>
            ))}
          </select>
        </Field>
        {busy === 'test' && <EmbedderPreparation status={preparation} />}
        {trial && <TrialResult trial={trial} />}
        {error && <ErrorState error={error} compact />}
        <div class="form-actions">
          <button type="button" class="button button-secondary" disabled={busy !== undefined} onClick={() => void test()}>{busy === 'test' ? (preparation?.state === 'preparing' ? 'Preparing embeddings…' : 'Testing…') : 'Test'}</button>
          <button type="submit" class="button button-primary" disabled={busy !== undefined}>{busy === 'save' ? 'Saving…' : editing ? 'Save changes' : 'Create'}</button>
          <button type="button" class="button button-secondary" onClick={onCancel}>Cancel</button>
        </div>
      </form>
    </Card>
  );
}

function Evals({ project }: { project: Project }) {
  const list = useResource<EvalDefinitionList>(projectApi(project.name, '/evals'), 'the eval definitions');
  const providers = useResource<{ data: EvalProvider[] }>('/api/llm/eval-providers', 'the judge providers');
  const search = new URLSearchParams(here.value.search);
  const selected = search.get('definition');
  const mode = search.get('edit');
  const go = (updates: Record<string, string | null>) => navigate(here.value.path + withParams(here.value.search, updates));
  useEffect(() => { if (!selected && list.data?.data.length && mode === null) go({ definition: list.data.data[0].id }); }, [list.data, selected]);
  if (list.error) return <ErrorState error={list.error} onRetry={list.reload} />;
  if (!list.data || !providers.data) return <Loading label="Loading the eval definitions" lines={6} />;
  const defs = list.data.data;
  const current = defs.find((d) => d.id === selected);
  const editing = mode === 'new' ? undefined : mode !== null ? defs.find((d) => d.id === mode) : undefined;
  const formOpen = mode === 'new' || editing !== undefined;
  return (
    <div class="stack">
      <Card title="Definitions" padded={false} class="evals-card"
        description={`${defs.length} ${defs.length === 1 ? 'definition' : 'definitions'} · judge providers: ${providers.data.data.map((p) => `${p.name} (key ${providerKeyText(p)})`).join(', ') || 'none declared'}`}
        actions={<>
          {current && current.source === 'store' && <button type="button" class="button button-secondary button-small" onClick={() => go({ edit: current.id })}>Edit {current.name}</button>}
          <button type="button" class="button button-primary button-small" onClick={() => go({ edit: 'new' })}>New definition</button>
        </>}>
        {defs.length ? <DefinitionsTable project={project.name} list={defs} selected={selected} /> : (
          <EmptyState icon="policy" title="No eval definitions yet" compact>
            <p>An eval scores traces as they are stored: a custom function, an LLM judge with your rubric, or the similarity to expected outputs.</p>
          </EmptyState>
        )}
      </Card>
      <div class={formOpen && current ? 'evals-layout' : 'stack'}>
        {formOpen && (
          <DefinitionForm key={mode ?? ''} project={project.name} providers={providers.data.data} editing={editing}
            onSaved={(id) => { list.reload(); go({ edit: null, definition: id }); }} onCancel={() => go({ edit: null })} />
        )}
        {current && <Results key={current.id} project={project.name} d={current} onChanged={list.reload} />}
      </div>
    </div>
  );
}

export default function EvalsPage() {
  return (
    <ProjectPage title="Evals" subtitle="How each trace is scored: your functions, an LLM judge, or the similarity to expected outputs; and the scores so far."
      searchFor={(name) => `?project=${encodeURIComponent(name)}`}>
      {(project) => evaluatorsOn() ? <Evals key={project.name} project={project} /> : (
        <Card>
          <EmptyState icon="policy" title="The evaluators plugin is off">
            <p>Add an <code class="inline-code">evaluators</code> section to the config file to score traces; judge providers are declared there too.</p>
            <CodeBlock code={'evaluators:\n  rate_per_minute: 60\n  providers:\n    judge:\n      base_url: https://api.openai.com/v1\n      model: gpt-4o-mini\n      api_key_env: OPENAI_API_KEY'} label="An evaluators section" language="yaml" />
          </EmptyState>
        </Card>
      )}
    </ProjectPage>
  );
}
