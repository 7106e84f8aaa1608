// A project's traces, newest first: filtered by status, model, prompt template and version, user, session, tag and
// time, paged by cursor. The filters and the page are in the URL. The newest page is live: traces appear at its top as
// they are stored, and what the reader has scrolled to stays in place (AnchoredRows); an older page stays put and says
// that newer ones arrived. Inputs and outputs are shown redacted, as stored.
import { useEffect, useId, useMemo, useState } from 'preact/hooks';
import { AnchoredRows } from '../../components/anchored-rows.js';
import { Badge } from '../../components/badge.js';
import { Card } from '../../components/card.js';
import { EmptyState } from '../../components/empty-state.js';
import { ErrorState } from '../../components/error-state.js';
import { FilterChip } from '../../components/filter-chip.js';
import { Segmented } from '../../components/segmented.js';
import { RecordTime } from '../../components/record-time.js';
import { Loading } from '../../components/skeleton.js';
import { TableFrame } from '../../components/table-frame.js';
import { useLive } from '../../data/live.js';
import { throttle } from '../../data/throttle.js';
import { useResource } from '../../data/use-resource.js';
import { countFormat, formatLatency, moneyFormat } from '../../format/numbers.js';
import { formatDateTime } from '../../format/time.js';
import { LiveBadge } from '../../shell/live-badge.js';
import { here, Link, navigate } from '../../shell/router.js';
import { countMarkers } from './chat-messages.js';
import { projectApi, tracePath, type Project, type TemplateList, type Trace, type TracePage } from './llm-api.js';
import { ProjectPage } from './project-frame.js';
import { TraceSearchBox } from './trace-search-box.js';
import { NoTracesYet } from './onboarding.js';
import {
  FILTER_LABELS, filterSearch, isFiltered, pageRows, pageSearch, projectSearch, readTracesView, traceCursor, tracesApiPath,
  type Since, type TraceFilter, type TracesView,
} from './traces-query.js';

const LIVE_REFRESH_MS = 2000;

const statusOptions = [
  { value: 'all', label: 'All', description: 'Every call' },
  { value: 'ok', label: 'OK', description: 'Calls that succeeded' },
  { value: 'error', label: 'Errors', description: 'Calls that failed' },
];
const sinceOptions: { value: Since; label: string; description: string }[] = [
  { value: '1h', label: '1h', description: 'Last hour' },
  { value: '24h', label: '24h', description: 'Last 24 hours' },
  { value: '7d', label: '7d', description: 'Last 7 days' },
  { value: '30d', label: '30d', description: 'Last 30 days' },
  { value: 'all', label: 'All', description: 'Everything kept' },
];
/** Filters typed by hand; status and the template have controls of their own. */
const FREE_FILTERS = ['model', 'user_id', 'session_id', 'tag'] as const satisfies readonly TraceFilter[];

/** The list's number formats, one per column, chosen from the rows shown. */
interface TraceFormats { tokens(n: number): string; cost(usd: number): string }
const traceFormats = (rows: readonly Trace[]): TraceFormats => ({
  tokens: countFormat(rows.flatMap((t) => (t.tokens ? [t.tokens.input ?? 0, t.tokens.output ?? 0] : []))),
  cost: moneyFormat(rows.flatMap((t) => (t.cost_usd === null ? [] : [t.cost_usd])), 'USD'),
});

function TraceRow({ t, now, search, project, f }: { t: Trace; now: number; search: string; project: string; f: TraceFormats }) {
  const at = Date.parse(t.created_at);
  const masked = countMarkers([t.input, t.output, t.metadata, t.error, t.prompt_template?.variables]);
  const filter = (name: TraceFilter, value: string) => `/llm${filterSearch(search, name, value)}`;
  const tpl = t.prompt_template;
  return (
    <tr data-id={t.id}>
      <td class="nowrap card-main"><RecordTime ms={at} now={now} /></td>
      <td class="trace-cell card-top">
        <Link href={tracePath(project, t.id)} class="trace-link">
          <span class="trace-name">{t.name ?? t.model}</span>
        </Link>
      </td>
      <td class="card-lead">
        <Link href={filter('status', t.status)} class="filter-link" title={t.status === 'error' ? 'Only failed calls' : 'Only calls that succeeded'}>
          <Badge tone={t.status === 'error' ? 'danger' : 'success'}>{t.status === 'error' ? 'error' : 'ok'}</Badge>
        </Link>
        {t.incomplete === 'never_ended' && <> <Badge tone="warning" title="Stored after idling without an end; its end replaces it if it comes">incomplete</Badge></>}
      </td>
      <td class="nowrap"><Link href={filter('model', t.model)} class="filter-link" title={`Only ${t.model}`}><code>{t.model}</code></Link></td>
      <td class="nowrap" data-label="Prompt">
        {tpl ? (
          <Link href={`/llm${filterSearch(filterSearch(search, 'template', tpl.name), 'version', String(tpl.version))}`} class="filter-link" title={`Only ${tpl.name} version ${tpl.version}`}>
            <code>{tpl.name}</code> <Badge tone="accent">v{tpl.version}</Badge>
          </Link>
        ) : <span class="muted">—</span>}
      </td>
      <td class="align-end numeric card-main">{formatLatency(t.latency_ms)}</td>
      <td class="align-end numeric nowrap" data-label="Tokens">
        {t.tokens ? <span title={`${t.tokens.input ?? 0} in, ${t.tokens.output ?? 0} out`}>{f.tokens(t.tokens.input ?? 0)} → {f.tokens(t.tokens.output ?? 0)}</span> : <span class="muted">—</span>}
      </td>
      <td class="align-end numeric card-main" data-label="Cost">{t.cost_usd === null ? <span class="muted">—</span> : f.cost(t.cost_usd)}</td>
      <td class="nowrap" data-label="User">{t.user_id ? <Link href={filter('user_id', t.user_id)} class="filter-link" title={`Only ${t.user_id}'s calls`}>{t.user_id}</Link> : <span class="muted">—</span>}</td>
      <td class="align-end numeric" data-label="Masked">{masked ? <span class="masked" title={`${masked} values masked before storage`}>{masked}</span> : <span class="muted">0</span>}</td>
    </tr>
  );
}

/** Adds a filter by hand: which field, and its exact value. */
function AddFilter({ onAdd }: { onAdd(name: TraceFilter, value: string): void }) {
  const id = useId();
  const [field, setField] = useState<(typeof FREE_FILTERS)[number]>('model');
  const [value, setValue] = useState('');
  const submit = (event: Event) => {
    event.preventDefault();
    if (!value.trim()) return;
    onAdd(field, value.trim());
    setValue('');
  };
  return (
    <form class="add-filter" onSubmit={submit} aria-label="Add a filter">
      <label class="sr-only" for={`${id}-field`}>Filter by</label>
      <select id={`${id}-field`} class="input" value={field} onChange={(e) => setField((e.currentTarget as HTMLSelectElement).value as typeof field)}>
        {FREE_FILTERS.map((f) => <option key={f} value={f}>{FILTER_LABELS[f]} is</option>)}
      </select>
      <label class="sr-only" for={`${id}-value`}>{FILTER_LABELS[field]} is exactly</label>
      <input id={`${id}-value`} class="input" value={value} placeholder={field === 'model' ? 'gpt-4o-mini' : field === 'tag' ? 'beta' : 'exact value'}
        autoComplete="off" spellcheck={false} onInput={(e) => setValue((e.currentTarget as HTMLInputElement).value)} />
      <button type="submit" class="button button-secondary">Filter</button>
    </form>
  );
}

function TemplateFilter({ project, view }: { project: string; view: TracesView }) {
  const id = useId();
  const templates = useResource<TemplateList>(projectApi(project, '/prompt-templates?limit=200'), 'the prompt templates');
  const list = templates.data?.data ?? [];
  const chosen = list.find((t) => t.name === view.filters.template);
  const value = view.filters.template ? `${view.filters.template}\u0000${view.filters.version ?? ''}` : '';
  const onChange = (event: Event) => {
    const [name, version] = (event.currentTarget as HTMLSelectElement).value.split('\u0000');
    navigate(`/llm${filterSearch(filterSearch(here.value.search, 'template', name || null), 'version', version || null)}`);
  };
  if (!list.length && !view.filters.template) return null;
  return (
    <div class="inline-field">
      <label for={id} class="inline-field-label">Prompt</label>
      <select id={id} class="input" value={value} onChange={onChange}>
        <option value="">Any template</option>
        {view.filters.template && !chosen && <option value={value}>{view.filters.template}{view.filters.version ? ` v${view.filters.version}` : ''}</option>}
        {list.map((t) => (
          <optgroup key={t.name} label={t.name}>
            <option value={`${t.name}\u0000`}>{t.name}: every version</option>
            {t.versions.map((v) => <option key={v.version} value={`${t.name}\u0000${v.version}`}>{t.name} v{v.version}</option>)}
          </optgroup>
        ))}
      </select>
    </div>
  );
}

function Filters({ project, view, set }: { project: string; view: TracesView; set(name: TraceFilter, value: string | null): void }) {
  return (
    <div class="toolbar">
      <TraceSearchBox value={view.filters.q} onSearch={(q) => set('q', q)} />
      <Segmented label="Status" options={statusOptions} value={view.filters.status ?? 'all'} onChange={(v) => set('status', v === 'all' ? null : v)} />
      <TemplateFilter project={project} view={view} />
      <AddFilter onAdd={set} />
      {FREE_FILTERS.filter((f) => view.filters[f] !== undefined).map((f) => (
        <FilterChip key={f} name={FILTER_LABELS[f]} value={view.filters[f]!} onRemove={() => set(f, null)} />
      ))}
    </div>
  );
}

function TraceList({ project }: { project: Project }) {
  const { search } = here.value;
  const view = readTracesView(search);
  const newest = view.before === null && view.after === null;
  const go = (query: string, options?: { replace?: boolean }) => navigate(`/llm${query}`, options);
  const setFilter = (name: TraceFilter | 'since', value: string | null) => go(filterSearch(search, name, value));
  const traces = useResource<TracePage>(tracesApiPath(project.name, search), 'the traces');
  const page = traces.data;
  const { rows, older } = pageRows(view, page?.data ?? []);
  // Whether the project has any trace at all decides between "nothing matches" and "send your first".
  const ever = useResource<TracePage>(page && rows.length === 0 ? projectApi(project.name, '/traces?limit=1') : null, 'the latest trace');

  // Pages up to the newest traces are the newest page: shown under its own URL, where it is live.
  useEffect(() => {
    if (view.after && page && pageRows(view, page.data).newest) go(pageSearch(search, {}), { replace: true });
  }, [page]);

  const refresh = useMemo(() => throttle(() => { traces.reload(); ever.reload(); }, LIVE_REFRESH_MS), [traces.reload, ever.reload]);
  useEffect(() => () => refresh.cancel(), [refresh]);
  const [arrived, setArrived] = useState(false);
  useEffect(() => setArrived(false), [search, project.name]);
  useLive('llm.trace', (data) => {
    if ((data as { project?: string }).project !== project.name) return;
    if (newest) refresh(); else setArrived(true);
  });

  const turn = (to: { before?: string; after?: string }) => {
    go(pageSearch(search, to));
    window.scrollTo({ top: 0 });
  };
  const filtered = isFiltered(view) || view.since !== 'all';
  const never = rows.length === 0 && ever.data?.data.length === 0;
  const now = Date.now();
  const formats = useMemo(() => traceFormats(rows), [rows]);
  return (
    <>
      {!never && <Filters project={project.name} view={view} set={setFilter} />}
      {traces.error && <ErrorState error={traces.error} onRetry={traces.reload} />}
      {traces.loading && <Loading label="Loading the traces" lines={8} />}
      {page && rows.length === 0 && (
        <Card>
          {!newest ? (
            <EmptyState icon="search" title="Nothing older" compact
              actions={<button type="button" class="button button-secondary" onClick={() => turn({})}>Show the newest</button>}>
              <p>No trace in the chosen time is older than this page.</p>
            </EmptyState>
          ) : ever.data && ever.data.data.length === 0 ? (
            <NoTracesYet project={project.name} />
          ) : filtered && ever.data ? (
            <EmptyState icon="search" title="No trace matches" compact
              actions={<>
                {isFiltered(view) && <Link href={`/llm${projectSearch(search, project.name)}`} class="button button-secondary">Clear the filters</Link>}
                {view.since !== 'all' && <button type="button" class="button button-secondary" onClick={() => setFilter('since', 'all')}>Show all time</button>}
              </>}>
              <p>
                {view.filters.q
                  ? <>No stored input or output in the chosen time has every word of <q>{view.filters.q}</q>. Masked values are never found: search for the words around them.</>
                  : 'Nothing stored in the chosen time matches these filters.'}
              </p>
            </EmptyState>
          ) : <Loading label="Loading the traces" lines={3} />}
        </Card>
      )}
      {page && rows.length > 0 && (
        <Card padded={false}>
          <TableFrame layout="cards" caption={`Traces of ${project.name}`} detail="Newest first. A status, model, template, version or user filters the list by it"
            class="traces-table" wrapClass="traces-wrap">
              <thead>
                <tr>
                  <th scope="col">When</th>
                  <th scope="col">Call</th>
                  <th scope="col">Status</th>
                  <th scope="col">Model</th>
                  <th scope="col">Prompt</th>
                  <th scope="col" class="align-end">Latency</th>
                  <th scope="col" class="align-end">Tokens</th>
                  <th scope="col" class="align-end">Cost</th>
                  <th scope="col">User</th>
                  <th scope="col" class="align-end"><abbr title="Values masked before storage ([REDACTED])">Masked</abbr></th>
                </tr>
              </thead>
              <AnchoredRows rows={rows}>{rows.map((t) => <TraceRow key={t.id} t={t} now={now} search={search} project={project.name} f={formats} />)}</AnchoredRows>
          </TableFrame>
          <nav class="pager" aria-label="Pages of traces">
            <span class="muted">
              {newest ? `The newest ${rows.length}` : `${formatDateTime(Date.parse(rows[0].created_at))} to ${formatDateTime(Date.parse(rows[rows.length - 1].created_at))}`}
            </span>
            {arrived && <span class="pager-news" role="status">Newer traces arrived</span>}
            <button type="button" class="button button-secondary button-small" disabled={newest} onClick={() => turn({})}>Newest</button>
            <button type="button" class="button button-secondary button-small" disabled={newest} onClick={() => turn({ after: traceCursor(rows[0]) })}>Newer</button>
            <button type="button" class="button button-secondary button-small" disabled={!older}
              onClick={() => turn({ before: traceCursor(rows[rows.length - 1]) })}>Older</button>
          </nav>
        </Card>
      )}
    </>
  );
}

export default function TracesPage() {
  const { search } = here.value;
  const since = readTracesView(search).since;
  return (
    <ProjectPage title="Traces" subtitle="Every LLM call your application sent, newest first, redacted as stored."
      searchFor={(name) => projectSearch(search, name)}
      actions={() => <>
        <LiveBadge />
        <Segmented label="Time" options={sinceOptions} value={since} onChange={(v) => navigate(`/llm${filterSearch(here.value.search, 'since', v)}`)} />
      </>}>
      {(project) => <TraceList key={project.name} project={project} />}
    </ProjectPage>
  );
}
