/**
 * One span of a trace tree as the lane keeps it, from either source: an OTLP span or a Langfuse observation. Its
 * user data (`parts`) is still raw here; keep-spans.ts bounds it and redacts it before anything is stored.
 */
import { eventTarget, type LangfuseEntity } from '../langfuse/entity-reducer.js';
import type { LangfuseEvent } from '../langfuse/ingestion-event.js';
import { observationKey, type LangfuseStateStore } from '../langfuse/state-store.js';
import { observationItemId } from '../langfuse/observation-item.js';
import { jsonAttribute, toJson } from '../otlp/attribute-values.js';
import { spanItemId } from '../otlp/item-id.js';
import { idProblem } from '../otlp/map-span.js';
import type { OtlpTraceRequest } from '../otlp/otlp-model.js';
import { spanError } from '../otlp/span-fields.js';
import type { TraceItem } from '../trace-item.js';
import { langfuseKind, otlpSpanKind, type SpanKind } from './span-kind.js';

/** The parts of a span that carry user data: redacted as an item's input, output, metadata and error are. */
export interface SpanParts {
  input?: unknown;
  output?: unknown;
  /** Redacted as an item's `metadata` (`$.metadata…` paths apply). */
  metadata?: unknown;
  error?: unknown;
}

export interface SpanRecord {
  source: 'otlp' | 'langfuse';
  trace_id: string;
  span_id: string;
  parent_id: string | null;
  kind: SpanKind;
  name: string;
  /** Epoch ms, fractions kept (OTLP has nanoseconds). */
  start_ms: number | null;
  end_ms: number | null;
  status: 'ok' | 'error';
  /** The id the span's LLM call has (or would have) as a trace item; null for other spans. */
  llm_item_id: string | null;
  parts: SpanParts;
}

/** Names are for lists: longer ones are cut. */
export const MAX_NAME = 256;
const cut = (s: string): string => (s.length > MAX_NAME ? `${s.slice(0, MAX_NAME - 1)}…` : s);

/** Attributes that hold a span's input and output, by convention; they leave the attributes for `input`/`output`. */
const INPUT_KEYS = ['langfuse.observation.input', 'input.value', 'traceloop.entity.input', 'gen_ai.tool.call.arguments', 'gen_ai.input.messages'];
const OUTPUT_KEYS = ['langfuse.observation.output', 'output.value', 'traceloop.entity.output', 'gen_ai.tool.call.result', 'gen_ai.output.messages'];
const MOVED = new Set([...INPUT_KEYS, ...OUTPUT_KEYS, 'input.mime_type', 'output.mime_type']);

const nsToMs = (ns: number): number | null => (ns > 0 && Number.isFinite(ns) ? ns / 1e6 : null);

/**
 * Every span of a decoded OTLP request with valid ids, once each. `items` are the request's LLM items by id
 * (map-request.ts): their spans are `llm`, with the item's input and output as their parts.
 */
export function otlpSpanRecords(req: OtlpTraceRequest, items: ReadonlyMap<string, TraceItem>): SpanRecord[] {
  const out: SpanRecord[] = [];
  const seen = new Set<string>();
  for (const rs of req.resourceSpans) {
    for (const ss of rs.scopeSpans) {
      for (const span of ss.spans) {
        if (idProblem(span)) continue;
        const key = `${span.traceId}/${span.spanId}`;
        if (seen.has(key)) continue;
        seen.add(key);
        const itemId = spanItemId(span.traceId, span.spanId);
        const item = items.get(itemId);
        const { status, error } = spanError(span);
        let kind: SpanKind = 'llm';
        const parts: SpanParts = {};
        if (item) {
          if (item.input !== undefined) parts.input = item.input;
          if (item.output !== undefined) parts.output = item.output;
        } else {
          kind = otlpSpanKind(span.attributes);
          const a = span.attributes;
          const input = INPUT_KEYS.find((k) => a[k] !== undefined && a[k] !== null);
          const output = OUTPUT_KEYS.find((k) => a[k] !== undefined && a[k] !== null);
          if (input) parts.input = jsonAttribute(a[input]);
          if (output) parts.output = jsonAttribute(a[output]);
          const metadata: Record<string, unknown> = {};
          for (const k of Object.keys(a)) {
            if (MOVED.has(k)) continue;
            Object.defineProperty(metadata, k, { value: toJson(a[k]), enumerable: true, writable: true, configurable: true });
          }
          if (Object.keys(metadata).length) parts.metadata = metadata;
        }
        if (error) parts.error = error;
        out.push({
          source: 'otlp', trace_id: span.traceId, span_id: span.spanId, parent_id: span.parentSpanId || null, kind,
          name: cut(span.name), start_ms: nsToMs(span.startTimeUnixNano), end_ms: nsToMs(span.endTimeUnixNano), status,
          llm_item_id: item ? itemId : null, parts,
        });
      }
    }
  }
  return out;
}

const str = (v: unknown): string | undefined => (typeof v === 'string' && v !== '' ? v : undefined);
const ms = (v: unknown): number | null => {
  const t = Date.parse(String(v ?? ''));
  return Number.isNaN(t) ? null : t;
};
/** Langfuse fields kept as a node's attributes (its user metadata is under `metadata`). */
const LANGFUSE_ATTRIBUTES = ['model', 'modelParameters', 'usage', 'usageDetails', 'costDetails', 'version', 'level', 'statusMessage', 'environment', 'promptName', 'promptVersion', 'completionStartTime'];

/**
 * A Langfuse observation (merged state, entity-reducer.ts) as a span; undefined without a trace id (an observation
 * is placed in its trace by it). Generations and embeddings are `llm`.
 */
export function langfuseSpanRecord(entity: LangfuseEntity): SpanRecord | undefined {
  const b = entity.body;
  const traceId = str(b.traceId);
  if (entity.kind !== 'observation' || !traceId) return undefined;
  const kind = langfuseKind(entity.type);
  const start = ms(b.startTime) ?? ms(b.timestamp);
  const end = ms(b.endTime) ?? (entity.type === 'event' ? start : null);
  const error = str(b.level)?.toUpperCase() === 'ERROR';
  const parts: SpanParts = {};
  if (b.input !== undefined && b.input !== null) parts.input = b.input;
  if (b.output !== undefined && b.output !== null) parts.output = b.output;
  const metadata: Record<string, unknown> = {};
  if (b.metadata !== undefined && b.metadata !== null) metadata.metadata = b.metadata;
  for (const k of LANGFUSE_ATTRIBUTES) if (b[k] !== undefined && b[k] !== null) metadata[k] = b[k];
  if (Object.keys(metadata).length) parts.metadata = metadata;
  if (error) parts.error = str(b.statusMessage) ?? 'error';
  return {
    source: 'langfuse', trace_id: traceId, span_id: entity.id, parent_id: str(b.parentObservationId) ?? null, kind,
    name: cut(str(b.name) ?? entity.type ?? 'observation'), start_ms: start, end_ms: end, status: error ? 'error' : 'ok',
    llm_item_id: kind === 'llm' ? observationItemId(entity.id) : null, parts,
  };
}

/** The observations a Langfuse batch touched, as merged in the state after it (one read each), as spans. */
export async function langfuseSpanRecords(state: LangfuseStateStore, events: readonly LangfuseEvent[]): Promise<SpanRecord[]> {
  const ids = new Set<string>();
  for (const e of events) {
    const target = eventTarget(e);
    if (target?.kind === 'observation') ids.add(target.id);
  }
  return langfuseSpanRecordsOf(state, [...ids].map(observationKey));
}

/** The nodes of observations by their state keys (the idle sweep names its generations so). */
export async function langfuseSpanRecordsOf(state: LangfuseStateStore, keys: readonly string[]): Promise<SpanRecord[]> {
  const out: SpanRecord[] = [];
  for (const key of keys) {
    const entity = await state.get(key);
    const record = entity && langfuseSpanRecord(entity);
    if (record) out.push(record);
  }
  return out;
}
