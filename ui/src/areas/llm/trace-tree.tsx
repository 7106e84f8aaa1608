// The trace around an LLM call, as a tree with its timeline: each span a row (indented by depth, its kind, name and
// figures), with a bar placed on the trace's time axis (a waterfall); LLM calls carry their model, tokens and cost.
// Selecting a row shows that span's input, output and attributes below. A call that came without spans
// (POST /v1/traces) has no tree: nothing is read or shown, its page is the call itself.
import { useState } from 'preact/hooks';
import { Badge } from '../../components/badge.js';
import { Card } from '../../components/card.js';
import { ErrorState } from '../../components/error-state.js';
import { Loading } from '../../components/skeleton.js';
import type { TraceTree as Tree, TreeSpan } from '../../data/api.gen.js';
import { useResource } from '../../data/use-resource.js';
import { formatInteger, formatLatency } from '../../format/numbers.js';
import { formatUsd } from './figures.js';
import { projectApi } from './llm-api.js';
import { KIND_TONE } from './span-kind-tone.js';
import { TreeSpanDetail } from './tree-span-detail.js';

/** Indentation stops growing past this depth, so a deep tree stays readable at 375 px (the depth is still named). */
const MAX_INDENT = 8;

const pct = (v: number) => `${Math.max(0, Math.min(100, v)).toFixed(3)}%`;

function Bar({ span, total }: { span: TreeSpan; total: number | null }) {
  if (total === null || span.offset_ms === null) return <span class="tree-bar-none">no time</span>;
  const left = total > 0 ? (span.offset_ms / total) * 100 : 0;
  const width = total > 0 && span.duration_ms !== null ? (span.duration_ms / total) * 100 : 0;
  return (
    <span class="tree-track" aria-hidden="true">
      <span class={`tree-bar tree-bar-${span.kind}${span.status === 'error' ? ' tree-bar-error' : ''}`}
        style={{ left: pct(Math.min(left, 99.5)), width: pct(Math.max(width, 0.5)) }} />
    </span>
  );
}

/** What a row says of its span: an LLM call's model, tokens and cost; any span's duration. */
function Figures({ span }: { span: TreeSpan }) {
  return (
    <span class="tree-figures numeric">
      {span.model && <code class="inline-code">{span.model}</code>}
      {span.tokens && <span>{formatInteger(span.tokens.total ?? (span.tokens.input ?? 0) + (span.tokens.output ?? 0))} tok</span>}
      {span.cost_usd !== null && <span>{formatUsd(span.cost_usd)}</span>}
      <span>{formatLatency(span.duration_ms)}</span>
    </span>
  );
}

/** Whether a stored call came with spans around it: from OTLP or Langfuse, which name its trace. */
const fromTrace = (metadata: unknown): boolean => {
  const m = metadata as { otel?: { trace_id?: unknown }; langfuse?: { trace_id?: unknown } } | null;
  return typeof m?.otel?.trace_id === 'string' || typeof m?.langfuse?.trace_id === 'string';
};

export function TraceTree({ project, itemId, metadata }: { project: string; itemId: string; metadata: unknown }) {
  const tree = useResource<Tree>(fromTrace(metadata) ? projectApi(project, `/traces/${encodeURIComponent(itemId)}/tree`) : null, 'the trace tree');
  const [chosen, choose] = useState<string | null>(null);
  if (tree.error?.kind === 'not_found') return null;
  if (tree.error) return <ErrorState error={tree.error} onRetry={tree.reload} />;
  if (!tree.data) return tree.loading ? <Loading label="Loading the trace tree" lines={4} /> : null;
  if (tree.data.nodes.length === 0) return null;
  const t = tree.data;
  const total = t.total.latency_ms;
  const selected = t.nodes.find((n) => n.span_id === chosen) ?? t.nodes.find((n) => n.item_id === itemId) ?? t.nodes[0];
  const summary = `${formatInteger(t.nodes.length)} spans · ${t.total.llm_calls} LLM ${t.total.llm_calls === 1 ? 'call' : 'calls'} · `
    + `${formatInteger(t.total.tokens.total)} tokens · ${formatUsd(t.total.cost_usd)} · ${formatLatency(total)}`;
  return (
    <>
      <Card title="Trace tree" description={summary} padded={false} class="trace-tree-card">
        {(t.dropped_spans > 0 || t.truncated_spans > 0 || t.more || t.held) && (
          <div class="notice notice-warning tree-notice" role="note">
            {t.held && <p>No LLM call of this trace is stored yet: its spans are held for a while, then dropped.</p>}
            {t.dropped_spans > 0 && <p><strong>{formatInteger(t.dropped_spans)} spans dropped:</strong> the trace passed <code class="inline-code">llm.spans.max_per_trace</code>; its LLM calls were all kept.</p>}
            {t.truncated_spans > 0 && <p><strong>{formatInteger(t.truncated_spans)} spans cut:</strong> their input, output or attributes passed <code class="inline-code">llm.spans.max_bytes</code> and were left out.</p>}
            {t.more && <p>The trace has more spans than one page shows; the first {formatInteger(t.nodes.length)} are listed.</p>}
          </div>
        )}
        <div class="tree-axis" aria-hidden="true"><span>0 ms</span><span>{formatLatency(total)}</span></div>
        <ul class="tree-rows" aria-label="Spans of the trace, in order">
          {t.nodes.map((n) => {
            const current = n.span_id === selected?.span_id;
            return (
              <li key={n.span_id} class="tree-row-item">
                <button type="button" class={`tree-row${current ? ' tree-row-selected' : ''}`} aria-pressed={current}
                  style={{ '--tree-depth': String(Math.min(n.depth, MAX_INDENT)) }} onClick={() => choose(n.span_id)}>
                  {/* The depth a sighted reader sees as indentation, said to a screen reader. */}
                  <span class="sr-only">Level {n.depth + 1}{n.status === 'error' ? ', failed' : ''}: </span>
                  <span class="tree-label">
                    <Badge tone={n.status === 'error' ? 'danger' : KIND_TONE[n.kind]}>{n.kind}</Badge>
                    <span class="tree-name">{n.name}</span>
                    {n.item_id === itemId && <span class="tree-this muted">this call</span>}
                  </span>
                  <Figures span={n} />
                  <Bar span={n} total={total} />
                </button>
              </li>
            );
          })}
        </ul>
      </Card>
      {selected && <TreeSpanDetail project={project} span={selected} pageItem={itemId} />}
    </>
  );
}
