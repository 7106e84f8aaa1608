// One LLM call as stored: its figures in one strip (status, model, prompt version, latency, tokens, cost, time), then
// what was sent and answered (as a conversation when it is one, else the JSON), every masked value marked, then the
// template's variables, evals, scores and metadata.
import { Badge } from '../../components/badge.js';
import { Card } from '../../components/card.js';
import { EmptyState } from '../../components/empty-state.js';
import { ErrorState } from '../../components/error-state.js';
import { JsonView } from '../../components/json-view.js';
import { PageHeader } from '../../components/page-header.js';
import { Loading } from '../../components/skeleton.js';
import { useResource } from '../../data/use-resource.js';
import { here, Link } from '../../shell/router.js';
import type { PageProps } from '../types.js';
import { countMarkers } from './chat-messages.js';
import { Exchange, MarkedText } from './conversation.js';
import { CallStrip } from './call-strip.js';
import { projectApi, type Trace } from './llm-api.js';
import { TemplateVariables } from './template-variables.js';
import { TraceEvals } from './trace-evals.js';
import { TraceScores } from './trace-scores.js';
import { TraceTree } from './trace-tree.js';

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
        subtitle={t ? <>Project <strong>{project}</strong></> : `Trace ${params.id}`}
        actions={t && <>
          {masked > 0 && <Badge tone="warning">{masked} masked</Badge>}
          {back}
        </>} />
      {resource.error && <ErrorState error={resource.error} onRetry={resource.reload} />}
      {resource.loading && <Loading label="Loading the trace" lines={8} />}
      {t && (
        <div class="stack">
          <CallStrip t={t} project={project} />
          {project && <TraceTree project={project} itemId={t.id} metadata={t.metadata} />}
          {t.status === 'error' && (
            <div class="notice notice-danger" role="note">
              <strong>The call failed.</strong>{' '}
              {t.error === null ? 'No error message was sent.' : typeof t.error === 'string' ? <MarkedText text={t.error} /> : <JsonView value={t.error} label="The error" />}
            </div>
          )}
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
              <TemplateVariables value={t.prompt_template.variables} />
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
