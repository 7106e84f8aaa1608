/**
 * A decoded OTLP request → trace items, rejections for partial_success, and a count of context spans.
 *
 * Context spans (not LLM calls, map-span.ts) are counted in `skipped` and not stored; they are not rejections (the
 * OTLP exporter would report them as failures). What they carry at trace level is not lost when it arrives in the
 * same request: the trace's name (Langfuse's `langfuse.trace.name`, else the root span's name), user, session, tags
 * and trace metadata fill the same fields of that trace's items where the item's own span left them empty.
 * Exporters batch by time, so a root span that ends after its children may come in a later request; the spine
 * can keep `traces` (below) to do the same across requests if it wants to.
 */
import type { TraceItem } from '../trace-item.js';
import type { OtlpPartialSuccess } from './encode-response.js';
import { mapSpan } from './map-span.js';
import type { OtlpTraceRequest } from './otlp-model.js';
import { traceFields, type TraceFields } from './span-fields.js';

export interface SpanRejection {
  trace_id: string;
  span_id: string;
  name: string;
  reason: string;
}

export interface OtlpMapResult {
  /** In request order. */
  items: TraceItem[];
  rejected: SpanRejection[];
  /** Context spans (and repeated copies of a span within the request): accepted, not stored as items. */
  skipped: number;
  /** Trace-level fields seen in this request, by trace id (hex): what enriched the items. */
  traces: Map<string, TraceFields>;
}

/** Merges the trace-level fields of every span of the request, by trace; the first value of each field wins. */
function collectTraces(req: OtlpTraceRequest): Map<string, TraceFields> {
  const traces = new Map<string, TraceFields>();
  const rootNames = new Map<string, string>();
  for (const rs of req.resourceSpans) {
    for (const ss of rs.scopeSpans) {
      for (const span of ss.spans) {
        const f = traceFields(span.attributes);
        let t = traces.get(span.traceId);
        if (!t) traces.set(span.traceId, (t = {}));
        if (span.parentSpanId === '' && !rootNames.has(span.traceId)) rootNames.set(span.traceId, span.name);
        t.trace_name ??= f.trace_name;
        t.user_id ??= f.user_id;
        t.session_id ??= f.session_id;
        t.tags ??= f.tags;
        if (f.trace_metadata) t.trace_metadata = { ...f.trace_metadata, ...t.trace_metadata };
      }
    }
  }
  // A Langfuse trace name wins over the root span's name, whichever span came first.
  for (const [traceId, name] of rootNames) {
    const t = traces.get(traceId)!;
    t.trace_name ??= name;
  }
  return traces;
}

function enrich(item: TraceItem, t: TraceFields | undefined): void {
  if (!t) return;
  if (!item.user_id && t.user_id) item.user_id = t.user_id;
  if (!item.session_id && t.session_id) item.session_id = t.session_id;
  if (!item.tags && t.tags) item.tags = t.tags;
  const metadata = item.metadata ?? {};
  const otel = (metadata.otel ?? {}) as Record<string, unknown>;
  if (!otel.trace_name && t.trace_name) otel.trace_name = t.trace_name;
  item.metadata = { ...t.trace_metadata, ...metadata, otel };
}

/** Maps every span of a decoded request (decode-protobuf.ts or decode-json.ts). Pure: no I/O, never throws on data. */
export function mapOtlpRequest(req: OtlpTraceRequest): OtlpMapResult {
  const traces = collectTraces(req);
  const items: TraceItem[] = [];
  const rejected: SpanRejection[] = [];
  const seen = new Set<string>();
  let skipped = 0;
  for (const rs of req.resourceSpans) {
    for (const ss of rs.scopeSpans) {
      for (const span of ss.spans) {
        const outcome = mapSpan(span, rs.resource.attributes, ss.scope);
        if (outcome.kind === 'rejected') {
          rejected.push({ trace_id: span.traceId, span_id: span.spanId, name: span.name, reason: outcome.reason });
        } else if (outcome.kind === 'context' || seen.has(outcome.item.id!)) {
          skipped++;
        } else {
          seen.add(outcome.item.id!);
          enrich(outcome.item, traces.get(span.traceId));
          items.push(outcome.item);
        }
      }
    }
  }
  return { items, rejected, skipped, traces };
}

const LISTED = 5;

/**
 * partial_success for the response (encode-response.ts), or undefined when nothing was rejected. The message names
 * the first few rejected spans and why, so the sender's logs say what to fix.
 */
export function partialSuccessOf(rejected: readonly SpanRejection[], extra: readonly SpanRejection[] = []): OtlpPartialSuccess | undefined {
  const all = [...rejected, ...extra];
  if (all.length === 0) return undefined;
  const listed = all.slice(0, LISTED).map((r) => `span "${r.name}" (trace ${r.trace_id || '?'}, span ${r.span_id || '?'}): ${r.reason}`);
  const more = all.length > LISTED ? `; and ${all.length - LISTED} more` : '';
  return { rejectedSpans: all.length, errorMessage: `${all.length} span(s) rejected: ${listed.join('; ')}${more}` };
}
