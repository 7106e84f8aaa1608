/**
 * A request's spans, bounded and redacted, then stored (span-store.ts). Runs in the LLM lane's threads, in time
 * slices like the items: a span's user data is cut to `maxBytes` before the project's rules see it, so redaction
 * works on at most that much per span. Redaction is the items': `governJson` with the project's rules over
 * `{ input, output, metadata, error }` (a span's attributes are its `metadata`), so `$.input…` and `$.metadata…`
 * paths and every detector apply as they do to items. A span whose data cannot be redacted is stored without it.
 */
import { governJson } from '../../../policies/govern-json.js';
import type { LaneContext } from '../lane/lane-types.js';
import { timeSlicer } from '../lane/time-slice.js';
import { noNul } from '../trace-record.js';
import { fitParts, type SpanBounds, type Truncated } from './span-bounds.js';
import type { SpanParts, SpanRecord } from './span-record.js';
import type { PreparedSpan, SpanCounts, SpanStore } from './span-store.js';

/** The stored data of a span: its redacted parts, and what was left out to fit. */
function dataText(parts: SpanParts, truncated: Truncated, redactionFailed: boolean): string {
  return JSON.stringify({
    input: parts.input ?? null,
    output: parts.output ?? null,
    attributes: parts.metadata ?? null,
    error: parts.error ?? null,
    truncated: Object.keys(truncated).length ? truncated : null,
    ...(redactionFailed ? { redaction_failed: true } : {}),
  });
}

export async function prepareSpans(records: readonly SpanRecord[], ctx: LaneContext, bounds: SpanBounds): Promise<PreparedSpan[]> {
  const slice = timeSlicer();
  const rules = ctx.project.settings.redact;
  const out: PreparedSpan[] = [];
  for (const r of records) {
    await slice();
    const parts: SpanParts = { ...r.parts };
    const truncated = fitParts(parts, bounds.maxBytes);
    let redacted: SpanParts;
    let failed = false;
    try {
      redacted = governJson(parts, rules) as SpanParts;
    } catch {
      // Fails closed: nothing unredacted is stored.
      redacted = {};
      failed = true;
    }
    fitParts(redacted, bounds.maxBytes, truncated);
    const cut = Object.keys(truncated).length > 0;
    out.push({
      // PostgreSQL's TEXT cannot hold U+0000; Langfuse ids and every name are the sender's strings.
      source: r.source, trace_id: noNul(r.trace_id), span_id: noNul(r.span_id), parent_id: r.parent_id === null ? null : noNul(r.parent_id), kind: r.kind, name: noNul(r.name),
      start_ms: r.start_ms, end_ms: r.end_ms, status: r.status, llm_item_id: r.llm_item_id, truncated: cut,
      data: dataText(redacted, truncated, failed),
      linkedData: dataText({ metadata: redacted.metadata, error: redacted.error }, truncated, failed),
    });
  }
  return out;
}

/** Bounds, redacts and stores a request's spans; what the bounds dropped is counted. */
export async function keepSpans(store: SpanStore, ctx: LaneContext, records: readonly SpanRecord[], bounds: SpanBounds): Promise<SpanCounts | undefined> {
  if (!records.length) return undefined;
  // A stored call's input and output are its item's: not redacted a second time to be thrown away.
  const linked = await store.storedItems(ctx.project.id, records.map((r) => r.llm_item_id).filter((id): id is string => id !== null));
  const own = records.map((r) => (r.llm_item_id !== null && linked.has(r.llm_item_id)
    ? { ...r, parts: { ...(r.parts.metadata === undefined ? {} : { metadata: r.parts.metadata }), ...(r.parts.error === undefined ? {} : { error: r.parts.error }) } }
    : r));
  const prepared = await prepareSpans(own, ctx, bounds);
  return store.write(ctx.project.id, prepared, bounds, ctx.now);
}
