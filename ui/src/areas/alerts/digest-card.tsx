// The weekly LLM digest of a project: last week's message as the channels would receive it, and a send-now whose
// delivery per channel shows beside it. The weekly send itself runs on the server (alerts.digests.channels).
import { useEffect, useId, useState } from 'preact/hooks';
import { Badge } from '../../components/badge.js';
import { Card } from '../../components/card.js';
import { EmptyState } from '../../components/empty-state.js';
import { ErrorState } from '../../components/error-state.js';
import { Loading } from '../../components/skeleton.js';
import { postJson } from '../../data/api.js';
import type { ApiError } from '../../data/api-error.js';
import type { DigestSent, LlmDigestPreview, LlmProjectList } from '../../data/api.gen.js';
import { useResource } from '../../data/use-resource.js';
import { announce } from '../../shell/announcer.js';

const DELIVERY_TONE = { pending: 'accent', delivered: 'success', failed: 'danger' } as const;

function Sent({ sent }: { sent: DigestSent }) {
  if (sent.deliveries.length === 0) return <p class="muted" data-digest-sent="none">No channel is enabled: add one under Channels, then send again.</p>;
  return (
    <ul class="delivery-list" data-digest-sent="queued">
      {sent.deliveries.map((d) => (
        <li key={d.channel_id}>
          <code class="inline-code">{d.channel_id}</code> <Badge tone={DELIVERY_TONE[d.state]}>{d.state === 'pending' ? 'queued' : d.state}</Badge>
          {d.last_error && <span class="delivery-error">{d.last_error}</span>}
        </li>
      ))}
    </ul>
  );
}

export function DigestCard() {
  const projects = useResource<LlmProjectList>('/api/llm/projects', 'the LLM projects');
  const names = projects.data?.data.map((p) => p.name) ?? [];
  const [project, setProject] = useState<string>();
  const chosen = project ?? names[0];
  const preview = useResource<LlmDigestPreview>(chosen ? `/api/alerts/digests/llm/${encodeURIComponent(chosen)}/preview` : null, 'the digest preview');
  const [sent, setSent] = useState<DigestSent>();
  const [error, setError] = useState<ApiError>();
  const [busy, setBusy] = useState(false);
  const selectId = useId();
  useEffect(() => { setSent(undefined); setError(undefined); }, [chosen]);
  const send = async () => {
    if (!chosen) return;
    setBusy(true);
    setError(undefined);
    try {
      const result = await postJson<DigestSent>(`/api/alerts/digests/llm/${encodeURIComponent(chosen)}/send`, {}, { what: 'the digest' });
      setSent(result);
      announce(result.deliveries.length ? `The digest of ${chosen} is queued for ${result.deliveries.length} channel${result.deliveries.length === 1 ? '' : 's'}.` : 'No channel is enabled to send the digest.');
    } catch (err) {
      setError(err as ApiError);
    } finally {
      setBusy(false);
    }
  };
  return (
    <Card title="Weekly digest" class="digest-card"
      description="Each LLM project's last week: requests and cost against the week before, eval scores, new prompt versions, alerts fired"
      actions={names.length > 1 ? (
        <span class="digest-project">
          <label class="field-label" for={selectId}>Project</label>
          <select id={selectId} class="input" value={chosen} onChange={(e) => setProject(e.currentTarget.value)}>
            {names.map((n) => <option key={n} value={n}>{n}</option>)}
          </select>
        </span>
      ) : undefined}>
      {projects.error && <ErrorState error={projects.error} onRetry={projects.reload} />}
      {!projects.data && !projects.error && <Loading label="Loading the projects" lines={2} />}
      {projects.data && names.length === 0 && (
        <EmptyState compact title="No LLM project yet">Create a project on the Projects page: its digest is here once it has a week of traces.</EmptyState>
      )}
      {chosen && preview.error && <ErrorState error={preview.error} onRetry={preview.reload} />}
      {chosen && !preview.data && !preview.error && <Loading label="Loading the digest" lines={4} />}
      {chosen && preview.data && (
        <>
          <p class="digest-title"><strong>{preview.data.message.title}</strong></p>
          <pre class="digest-text" data-digest-preview>{preview.data.message.text}</pre>
          <div class="digest-actions">
            <button type="button" class="button button-secondary" disabled={busy} onClick={() => { void send(); }}>Send now</button>
            <span class="muted small">To the digest's channels (alerts.digests.channels), or every enabled channel when none are set.</span>
          </div>
          {error && <ErrorState error={error} compact />}
          {sent && <Sent sent={sent} />}
        </>
      )}
    </Card>
  );
}
