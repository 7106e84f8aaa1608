// One LLM call as stored: what was sent and answered (as a conversation when it is one, else the JSON), every masked
// value marked, and its model, prompt version, tokens, cost, latency and metadata.
import type { ComponentChildren } from 'preact';
import { Badge } from '../../components/badge.js';
import { Card } from '../../components/card.js';
import { EmptyState } from '../../components/empty-state.js';
import { ErrorState } from '../../components/error-state.js';
import { JsonView } from '../../components/json-view.js';
import { PageHeader } from '../../components/page-header.js';
import { Loading } from '../../components/skeleton.js';
import { useResource } from '../../data/use-resource.js';
import { formatInteger, formatLatency } from '../../format/numbers.js';
import { formatDateTime } from '../../format/time.js';
import { here, Link } from '../../shell/router.js';
import type { PageProps } from '../types.js';
import { countMarkers } from './chat-messages.js';
import { Exchange, MarkedText } from './conversation.js';
import { formatUsd } from './figures.js';
import { projectApi, templatePath, type Trace } from './llm-api.js';
import { TraceEvals } from './trace-evals.js';
import { TraceScores } from './trace-scores.js';
import { filterSearch } from './traces-query.js';

function Fact({ term, children }: { term: string; children: ComponentChildren }) {
  return <div class="fact"><dt>{term}</dt><dd>{children}</dd></div>;
}

/** Where a filter link of this trace leads: the project's list, filtered by it. */
const filtered = (project: string, name: 'user_id' | 'session_id' | 'tag' | 'model', value: string) =>
  `/llm${filterSearch(`?project=${encodeURIComponent(project)}`, name, value)}`;

function Facts({ t, project }: { t: Trace; project: string }) {
  const tokens = t.tokens;
  const started = t.start_time ? Date.parse(t.start_time) : null;
  return (
    <dl class="facts">
      <Fact term="Model"><Link href={filtered(project, 'model', t.model)}><code class="inline-code">{t.model}</code></Link>{t.provider && <span class="muted"> · {t.provider}</span>}</Fact>
      <Fact term="Prompt">
        {t.prompt_template ? (
          <Link href={templatePath(project, t.prompt_template.name, { version: t.prompt_template.version })}>
            <code class="inline-code">{t.prompt_template.name}</code> version {t.prompt_template.version}
          </Link>
        ) : 'no template sent'}
      </Fact>
      <Fact term="Latency">{formatLatency(t.latency_ms)}</Fact>
      <Fact term="Tokens">
        {tokens ? (
          <>
            {formatInteger(tokens.input ?? 0)} in{tokens.cache_read ? ` (${formatInteger(tokens.cache_read)} from cache)` : ''} · {formatInteger(tokens.output ?? 0)} out
            {' · '}{formatInteger(tokens.total ?? (tokens.input ?? 0) + (tokens.output ?? 0))} in all
          </>
        ) : 'not reported'}
      </Fact>
      <Fact term="Cost">
        {t.cost_usd === null ? 'unknown (no price for this model, or no tokens)' : <>{formatUsd(t.cost_usd)}{t.cost_estimated && <span class="muted"> · priced by Vigil from the model's price table</span>}</>}
      </Fact>
      <Fact term="Started">{started ? formatDateTime(started) : <span class="muted">not sent</span>}</Fact>
      <Fact term="Stored">{formatDateTime(Date.parse(t.created_at))}</Fact>
      <Fact term="User">{t.user_id ? <Link href={filtered(project, 'user_id', t.user_id)}>{t.user_id}</Link> : <span class="muted">none</span>}</Fact>
      <Fact term="Session">{t.session_id ? <Link href={filtered(project, 'session_id', t.session_id)}>{t.session_id}</Link> : <span class="muted">none</span>}</Fact>
      <Fact term="Tags">{t.tags.length ? t.tags.map((tag) => <Link key={tag} href={filtered(project, 'tag', tag)} class="filter-link"><Badge>{tag}</Badge></Link>) : <span class="muted">none</span>}</Fact>
      <Fact term="Trace id"><code class="inline-code">{t.id}</code></Fact>
    </dl>
  );
}

export default function TracePage({ params }: PageProps) {
  const asked = new URLSearchParams(here.value.search).get('project');
  // Without the project in the URL (a link from elsewhere), the search by id finds it.
  const byProject = useResource<Trace>(asked ? projectApi(asked, `/traces/${encodeURIComponent(params.id)}`) : null, 'the trace');
  const byId = useResource<{ project: string; trace: Trace }>(asked ? null : `/api/llm/traces/${encodeURIComponent(params.id)}`, 'the trace');
  const resource = asked ? byProject : byId;
  const t = asked ? byProject.data : byId.data?.trace;
  const project = asked ?? byId.data?.project ?? '';
  const back = <Link href={`/llm${project ? `?project=${encodeURIComponent(project)}` : ''}`} class="button button-secondary">All traces</Link>;

  if (resource.error?.kind === 'not_found') {
    return (
      <>
        <PageHeader title="Trace" subtitle={`Trace ${params.id}`} />
        <Card>
          <EmptyState icon="record" title="This trace is not stored" actions={back}>
            <p>
              {asked ? <>Project <strong>{asked}</strong> has</> : 'No project has'} no trace with this id: it was never sent, was dropped by
              budget sampling, is still on its way (a trace is stored a moment after it is accepted), or retention has deleted it.
            </p>
          </EmptyState>
        </Card>
      </>
    );
  }
  const masked = t ? countMarkers([t.input, t.output, t.metadata, t.error, t.prompt_template?.variables]) : 0;
  return (
    <>
      <PageHeader title={t ? t.name ?? t.model : 'Trace'}
        subtitle={t ? <>{formatDateTime(Date.parse(t.created_at))} · project <strong>{project}</strong></> : `Trace ${params.id}`}
        actions={t && <>
          <Badge tone={t.status === 'error' ? 'danger' : 'success'}>{t.status === 'error' ? 'error' : 'ok'}</Badge>
          <Badge>{formatLatency(t.latency_ms)}</Badge>
          {t.cost_usd !== null && <Badge>{formatUsd(t.cost_usd)}</Badge>}
          {masked > 0 && <Badge tone="warning">{masked} masked</Badge>}
          {back}
        </>} />
      {resource.error && <ErrorState error={resource.error} onRetry={resource.reload} />}
      {resource.loading && <Loading label="Loading the trace" lines={8} />}
      {t && (
        <div class="stack">
          {t.status === 'error' && (
            <div class="notice notice-danger" role="note">
              <strong>The call failed.</strong>{' '}
              {t.error === null ? 'No error message was sent.' : typeof t.error === 'string' ? <MarkedText text={t.error} /> : <JsonView value={t.error} label="The error" />}
            </div>
          )}
          <Card title="The call"><Facts t={t} project={project} /></Card>
          <div class="detail-grid">
            <Card title="Input" description="What was sent to the model">
              <Exchange value={t.input} role="user" label="Input" missing="Not recorded: the client sent no input." />
            </Card>
            <Card title="Output" description="What the model answered">
              <Exchange value={t.output} role="assistant" label="Output"
                missing={t.status === 'error' ? 'No answer: the call failed (the error is above).' : 'Not recorded: the client sent no output.'} />
            </Card>
          </div>
          {t.prompt_template?.variables !== undefined && (
            <Card title="Template variables" description={`Filled into ${t.prompt_template.name} v${t.prompt_template.version}`}>
              <JsonView value={t.prompt_template.variables} label="Template variables" />
            </Card>
          )}
          {project && <TraceEvals project={project} traceId={t.id} />}
          {project && <TraceScores project={project} traceId={t.id} />}
          <Card title="Metadata">
            {t.metadata === null ? <p class="muted">None sent.</p> : <JsonView value={t.metadata} label="Metadata" />}
          </Card>
          {masked > 0 && (
            <p class="page-footnote">
              <mark class="redacted">[REDACTED]</mark> marks {masked === 1 ? 'a value' : `${masked} values`} masked before storage by the
              project's redaction rules: the originals were never stored.
            </p>
          )}
        </div>
      )}
    </>
  );
}
