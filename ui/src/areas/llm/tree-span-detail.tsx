// One span of a trace tree, as selected: its kind, status, timing and rolled-up figures, then its input, output and
// attributes. An LLM call's input and output are its stored call's (read from it), so they show as a conversation.
import { Badge } from '../../components/badge.js';
import { Card } from '../../components/card.js';
import { JsonView } from '../../components/json-view.js';
import type { TreeSpan } from '../../data/api.gen.js';
import { useResource } from '../../data/use-resource.js';
import { formatInteger, formatLatency } from '../../format/numbers.js';
import { formatDateTime } from '../../format/time.js';
import { Link } from '../../shell/router.js';
import { Exchange, MarkedText } from './conversation.js';
import { formatUsd } from './figures.js';
import { projectApi, type Trace } from './llm-api.js';
import { KIND_TONE } from './span-kind-tone.js';

function Side({ value, role, label }: { value: unknown; role: 'user' | 'assistant'; label: string }) {
  return <Exchange value={value} role={role} label={label} missing="Not recorded for this span." />;
}

export function TreeSpanDetail({ project, span, pageItem }: { project: string; span: TreeSpan; pageItem: string }) {
  const call = useResource<Trace>(span.item_id ? projectApi(project, `/traces/${encodeURIComponent(span.item_id)}`) : null, 'the LLM call');
  const data = span.data;
  const input = span.item_id ? call.data?.input : data?.input;
  const output = span.item_id ? call.data?.output : data?.output;
  const r = span.rollup;
  return (
    <Card title={`Span: ${span.name}`} class="tree-detail"
      description={`${span.kind}${span.start_time ? ` · started ${formatDateTime(Date.parse(span.start_time))}` : ''} · ${formatLatency(span.duration_ms)}`}
      actions={span.item_id && span.item_id !== pageItem
        ? <Link href={`/llm/traces/${encodeURIComponent(span.item_id)}?project=${encodeURIComponent(project)}`} class="button button-secondary">Open this call</Link>
        : undefined}>
      <div class="stack">
        <dl class="call-facts">
          <div class="call-fact"><dt>Kind</dt><dd><Badge tone={KIND_TONE[span.kind]}>{span.kind}</Badge></dd></div>
          <div class="call-fact"><dt>Status</dt><dd><Badge tone={span.status === 'error' ? 'danger' : 'success'}>{span.status}</Badge></dd></div>
          {span.model && <div class="call-fact"><dt>Model</dt><dd><code class="inline-code">{span.model}</code></dd></div>}
          <div class="call-fact"><dt>Below it</dt><dd class="numeric">{r.llm_calls} LLM {r.llm_calls === 1 ? 'call' : 'calls'} · {formatInteger(r.tokens.total)} tokens · {formatUsd(r.cost_usd)}</dd></div>
          <div class="call-fact"><dt>Span of its subtree</dt><dd class="numeric">{formatLatency(r.latency_ms)}</dd></div>
        </dl>
        {data?.error !== null && data?.error !== undefined && (
          <div class="notice notice-danger" role="note"><strong>The span failed.</strong>{' '}
            {typeof data.error === 'string' ? <MarkedText text={data.error} /> : <JsonView value={data.error} label="The error" />}
          </div>
        )}
        {span.data_omitted && <p class="muted">This span's data is past what one answer carries (8 MiB for the whole tree).</p>}
        {data?.truncated && (
          <p class="muted">Left out to fit <code class="inline-code">llm.spans.max_bytes</code>: {Object.entries(data.truncated).map(([part, bytes]) => `${part} (${formatInteger(bytes)} bytes)`).join(', ')}.</p>
        )}
        <div class="detail-grid">
          <section aria-label="Span input"><h3 class="tree-detail-heading">Input</h3>
            {span.item_id && call.loading ? <p class="muted">Loading…</p> : <Side value={input} role="user" label="Span input" />}
          </section>
          <section aria-label="Span output"><h3 class="tree-detail-heading">Output</h3>
            {span.item_id && call.loading ? <p class="muted">Loading…</p> : <Side value={output} role="assistant" label="Span output" />}
          </section>
        </div>
        {data?.attributes !== null && data?.attributes !== undefined && (
          <section aria-label="Span attributes"><h3 class="tree-detail-heading">Attributes</h3><JsonView value={data.attributes} label="Span attributes" /></section>
        )}
      </div>
    </Card>
  );
}
