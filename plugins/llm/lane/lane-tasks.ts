/**
 * The LLM lane's tasks, one per ingest route: each decodes its request, checks it and stores what it may, with the
 * deps of the thread it runs on (lane-worker.ts in a worker thread; the main thread's own only for `sqlite::memory:`,
 * which threads cannot share). Every refusal comes back as data (lane-refusal.ts): errors do not cross threads.
 */
import { HttpError, httpError, type HttpErrorCode, type Store } from '@vigil/plugin-sdk';
import { governJson } from '../../../policies/govern-json.js';
import { LlmErrors, overMonthlyLimit } from '../errors.js';
import { decodeContent } from '../ingest-body.js';
import { applyLangfuseBatch } from '../langfuse/apply-batch.js';
import { LangfuseBatchError, parseIngestionBatch } from '../langfuse/ingestion-event.js';
import { INGESTION_STATUS, ingestionResponse } from '../langfuse/ingestion-response.js';
import { withLangfuseState } from '../langfuse-state.js';
import { OtlpDecodeError } from '../otlp/decode-error.js';
import { decodeOtlpBody, encodeOtlpResponse, otlpEncodingOf, type OtlpEncoding } from '../otlp/export-body.js';
import { mapOtlpLogs, type SpanMessages } from '../otlp/genai-log-events.js';
import { decodeOtlpLogsBody, encodeOtlpLogsResponse } from '../otlp/logs-body.js';
import { logsPartialSuccessOf } from '../otlp/logs-partial-success.js';
import { mapOtlpRequest, partialSuccessOf, type SpanRejection } from '../otlp/map-request.js';
import type { MessageParts } from '../pending-messages.js';
import type { QueuedItem } from '../queued-item.js';
import { receivedScores } from '../received-scores.js';
import { keepSpans } from '../spans/keep-spans.js';
import { DEFAULT_SPAN_BOUNDS } from '../spans/span-bounds.js';
import { langfuseSpanRecords, langfuseSpanRecordsOf, otlpSpanRecords } from '../spans/span-record.js';
import type { SpanStore } from '../spans/span-store.js';
import { acceptItems, storeItems, type AcceptDeps } from './accept-items.js';
import { refusalOf } from './lane-refusal.js';
import { parseBatchBody, type BatchEnvelope } from './parse-batch.js';
import { emptyResult, type LaneBody, type LaneContext, type LaneResult, type LaneTask } from './lane-types.js';
import { takePending } from './trace-writer.js';
import { syncStoredTraces, type UpsertDeps } from './langfuse-upserts.js';
import { takeUnended } from '../langfuse/unended.js';

export interface LaneDeps extends AcceptDeps, UpsertDeps {
  store: Store;
  spans: SpanStore;
}

/** Runs one task; never throws for anything the request decides (that is a refusal), only for bugs. */
export async function runLaneTask(deps: LaneDeps, task: LaneTask): Promise<LaneResult> {
  try {
    switch (task.kind) {
      case 'traces': return await tracesTask(deps, task.ctx, task.body);
      case 'otlp-traces': return await otlpTracesTask(deps, task.ctx, task.body);
      case 'otlp-logs': return await otlpLogsTask(deps, task.ctx, task.body);
      case 'langfuse': return await langfuseTask(deps, task.ctx, task.body);
      case 'langfuse-unended': return await langfuseUnendedTask(deps, task.ctx, task.before, task.limit);
      case 'queued-items': return await queuedItemsTask(deps, task.ctx, task.items);
      case 'queued-messages': return await storeMessages(deps, task.ctx, task.spans);
    }
  } catch (err) {
    if (err instanceof HttpError) return { ...emptyResult(), refusal: refusalOf(err) };
    throw err;
  }
}

const TRACES: BatchEnvelope = {
  key: 'traces',
  notEnvelope: (problem) => httpError(LlmErrors.BODY, problem.kind === 'unknown-key'
    ? `the body has an unknown key ${JSON.stringify(problem.key)}; it holds only "traces"`
    : problem.kind === 'twice' ? 'the body has the key "traces" twice; send one array'
      : 'the body must be an object with a "traces" array: { "traces": [ item, … ] }'),
};

/** `POST /v1/traces`: `{ "traces": [item, …] }`. */
async function tracesTask(deps: LaneDeps, ctx: LaneContext, body: LaneBody): Promise<LaneResult> {
  const { settings, name } = ctx.project;
  const { value, cut, within } = await parseBatchBody(body, TRACES, {
    bodyBytes: settings.bodyBytes, itemKeys: settings.itemKeys, itemBytes: settings.itemBytes, maxElements: settings.itemsPerBatch, what: `project "${name}"`,
  });
  const items = value.traces as unknown[] | undefined;
  if (!Array.isArray(items)) throw TRACES.notEnvelope({ kind: 'not-array' });
  const { outcome, result } = await acceptItems(deps, ctx, items, { cut, within });
  if (!result.refusal) result.answer = { json: outcome, status: 202 };
  return result;
}

/** The encoding of an OTLP request (415 otherwise) and its body inflated within the project's limit (413). */
async function otlpBody(ctx: LaneContext, body: LaneBody): Promise<{ encoding: OtlpEncoding; bytes: Buffer }> {
  const encoding = otlpEncodingOf(body.contentType);
  if (!encoding) {
    throw httpError(LlmErrors.CONTENT_TYPE, `OTLP/HTTP takes application/x-protobuf or application/json${body.contentType ? `, not ${JSON.stringify(body.contentType)}` : ''}`);
  }
  const raw = Buffer.from(body.bytes.buffer, body.bytes.byteOffset, body.bytes.byteLength);
  return { encoding, bytes: await decodeContent(raw, body.contentEncoding, ctx.project.settings.bodyBytes) };
}

/** `decode` with its OtlpDecodeError answered 400 under the route's code. */
function decoded<T>(decode: () => T, badBody: HttpErrorCode): T {
  try {
    return decode();
  } catch (err) {
    if (err instanceof OtlpDecodeError) throw httpError(badBody, `${err.message} (${err.reason})`);
    throw err;
  }
}

/**
 * An OTLP/HTTP trace export: LLM spans become items (otlp/README.md). An exporter's request is not a client's
 * batch to split, so `items_per_batch` never refuses it. Spans the mapping or validation refused are counted in
 * `partial_success`.
 */
async function otlpTracesTask(deps: LaneDeps, ctx: LaneContext, body: LaneBody): Promise<LaneResult> {
  const { encoding, bytes } = await otlpBody(ctx, body);
  const request = decoded(() => decodeOtlpBody(body.contentType, bytes), LlmErrors.OTLP_BODY);
  const mapped = mapOtlpRequest(request);
  // Read before the items are accepted: their redaction writes over them.
  const spans = otlpSpanRecords(request, new Map(mapped.items.map((i) => [i.id!, i])));
  const { outcome, result } = await acceptItems(deps, ctx, mapped.items);
  if (result.refusal) return result;
  result.counts.spans = await keepSpans(deps.spans, ctx, spans, ctx.spans ?? DEFAULT_SPAN_BOUNDS);
  const refused: SpanRejection[] = outcome.errors.map((e) => {
    const item = mapped.items[e.index];
    const otel = (item.metadata?.otel ?? {}) as { trace_id?: string; span_id?: string };
    return { trace_id: otel.trace_id ?? '', span_id: otel.span_id ?? '', name: item.name ?? '', reason: `${e.code}: ${e.message}` };
  });
  const response = encodeOtlpResponse(encoding, partialSuccessOf(mapped.rejected, refused));
  result.answer = { bytes: response.body, contentType: response.contentType };
  return result;
}

/**
 * An OTLP/HTTP logs export: GenAI message events become the messages of their span's trace (stored, or waiting for
 * it). Log records never count as items, but a month whose items are used refuses them too (429): messages kept
 * for spans that cannot be stored would only wait to be deleted.
 */
async function otlpLogsTask(deps: LaneDeps, ctx: LaneContext, body: LaneBody): Promise<LaneResult> {
  const { encoding, bytes } = await otlpBody(ctx, body);
  const mapped = decoded(() => mapOtlpLogs(decodeOtlpLogsBody(body.contentType, bytes)), LlmErrors.OTLP_LOGS_BODY);
  let result = emptyResult();
  if (mapped.spans.length) {
    await admit(deps, ctx);
    result = await storeMessages(deps, ctx, mapped.spans);
  }
  const response = encodeOtlpLogsResponse(encoding, logsPartialSuccessOf(mapped.rejected));
  result.answer = { bytes: response.body, contentType: response.contentType };
  return result;
}

/** 429 once the project's month is used: for routes that change state of their own before they accept items. */
async function admit(deps: LaneDeps, ctx: LaneContext): Promise<void> {
  const limit = ctx.project.settings.itemsPerMonth;
  if (limit === null) return;
  const month = await deps.usage.current(ctx.project.id);
  if (month.items >= limit) throw overMonthlyLimit(ctx.project.name, limit, ctx.now);
}

/**
 * Each span's messages redacted with the project's rules (the JSON paths see `{ input, output }`, the shape a
 * trace's paths are written over), kept as pending, then moved into the span's stored trace if it is there already
 * (pending-messages.ts has the ordering argument). Messages that cannot be redacted are dropped, never kept.
 */
async function storeMessages(deps: LaneDeps, ctx: LaneContext, spans: readonly SpanMessages[]): Promise<LaneResult> {
  const result = emptyResult();
  const { project } = ctx;
  const redacted: { id: string; parts: MessageParts }[] = [];
  for (const span of spans) {
    const parts: MessageParts = {};
    if (span.input !== undefined) parts.input = span.input;
    if (span.output !== undefined) parts.output = span.output;
    try {
      redacted.push({ id: span.id, parts: governJson(parts, project.settings.redact) as MessageParts });
    } catch (err) {
      result.counts.messagesDead++;
      result.deadReason ??= `messages of span item ${span.id} could not be redacted: ${(err as Error).message}`;
    }
  }
  await deps.pending.stash(project.id, redacted, ctx.now);
  for (const { id } of redacted) {
    const applied = await deps.pending.apply(project.id, id);
    if (applied.stored) result.counts.messagesApplied++;
    else result.counts.messagesWaiting++;
    if (applied.trace) {
      const { trace, ...ref } = applied.trace;
      result.updated.push({ ...ref, ...(ctx.withTraces ? { json: JSON.stringify(trace) } : {}) });
    }
  }
  return result;
}

const LANGFUSE_BATCH: BatchEnvelope = {
  key: 'batch',
  otherKeys: ['metadata'],
  notEnvelope: (problem) => httpError(LlmErrors.LANGFUSE_BATCH, problem.kind === 'unknown-key'
    ? `the body has an unknown key ${JSON.stringify(problem.key)}; a batch holds "batch" and "metadata"`
    : 'the body must be a JSON object with a "batch" array'),
};

/**
 * The Langfuse-compatible legacy ingestion: the batch's events merged into the project's partial state; generations
 * that became complete LLM calls accepted as items; scores redacted for `llm.score.received`. Answers 207.
 */
async function langfuseTask(deps: LaneDeps, ctx: LaneContext, body: LaneBody): Promise<LaneResult> {
  const { project } = ctx;
  const { value, cut } = await parseBatchBody(body, LANGFUSE_BATCH, { bodyBytes: project.settings.bodyBytes, itemKeys: project.settings.itemKeys, itemBytes: project.settings.itemBytes });
  let parsed;
  try {
    parsed = parseIngestionBatch(value, () => new Date(ctx.now).toISOString());
  } catch (err) {
    if (err instanceof LangfuseBatchError) throw httpError(LlmErrors.LANGFUSE_BATCH, err.message);
    throw err;
  }
  for (const error of parsed.errors) {
    const index = /^batch\[(\d+)\]$/.exec(error.id)?.[1];
    const counted = index === undefined ? undefined : cut.get(Number(index));
    if (counted !== undefined) error.message = `the event has more than ${project.settings.itemKeys} keys and array elements (counted ${counted} before stopping); raise limits.item_keys or send less`;
  }
  // Refused before the state changes: a batch that merged would not hand its generations over a second time.
  await admit(deps, ctx);
  const applied = await withLangfuseState(deps.store, project.id, async (state) => ({
    ...await applyLangfuseBatch(state, parsed.events),
    // The observations as merged now, every type: the nodes of their traces' trees.
    spans: await langfuseSpanRecords(state, parsed.events),
  }));
  const { result } = await acceptItems(deps, ctx, applied.items);
  if (result.refusal) return result;
  // Updates of generations stored before, and this batch's items if a batch in another process changed them meanwhile.
  await syncStoredTraces(deps, ctx, [...applied.updated.map((key) => ({ key })), ...applied.sources], result);
  result.counts.spans = await keepSpans(deps.spans, ctx, applied.spans, ctx.spans ?? DEFAULT_SPAN_BOUNDS);
  result.scores = receivedScores(project, applied.scores, governJson);
  result.counts.scores = applied.scores.length;
  result.answer = { json: ingestionResponse(applied.applied, parsed.errors), status: INGESTION_STATUS };
  return result;
}

/**
 * The sweep's task for one project (langfuse-upserts.ts in the spine): generations idle without an end are marked
 * handed on in the state, under the project's lock, and stored like any accepted item (the month's limit and budget
 * apply), marked incomplete when they never ended. A month already used refuses them: they stay handed on and are
 * not stored, as an item past the limit is not. Then they are synced like a batch's items: an end merged meanwhile by
 * another process replaces what was stored.
 */
async function langfuseUnendedTask(deps: LaneDeps, ctx: LaneContext, before: number, limit: number): Promise<LaneResult> {
  // At most a body's worth of state at once (the project's body_bytes, as characters): the thread holds no more
  // than an ingest request makes it hold; the rest waits for the next sweep.
  const taken = await withLangfuseState(deps.store, ctx.project.id, async (state) => {
    const t = await takeUnended(state, before, limit, ctx.project.settings.bodyBytes);
    // The generations' own nodes: once their items are stored, a tree held for want of an LLM call is kept, as it is
    // when a generation ends in a batch.
    return { ...t, spans: await langfuseSpanRecordsOf(state, t.sources.map((s) => s.key)) };
  });
  if (!taken.items.length) return { ...emptyResult(), answer: { json: { stored: 0 } } };
  const { result } = await acceptItems(deps, ctx, taken.items, undefined, taken.incomplete);
  if (result.refusal) return result;
  const incompleteIds = new Set([...taken.incomplete].map((i) => taken.items[i].id?.toLowerCase()));
  result.counts.unendedStored = result.stored.length;
  result.counts.unendedIncomplete = result.stored.filter((t) => incompleteIds.has(t.id)).length;
  await syncStoredTraces(deps, ctx, taken.sources, result);
  result.counts.spans = await keepSpans(deps.spans, ctx, taken.spans, ctx.spans ?? DEFAULT_SPAN_BOUNDS);
  result.answer = { json: { stored: result.stored.length } };
  return result;
}

/** Items an earlier version queued for its persist stage: accepted and counted then, so stored as they are. */
async function queuedItemsTask(deps: LaneDeps, ctx: LaneContext, items: readonly QueuedItem[]): Promise<LaneResult> {
  const result = emptyResult();
  const written = await storeItems(deps, ctx, items, result.versions);
  result.stored = written.inserted;
  result.counts.stored = written.inserted.length;
  result.counts.dead = written.dead.length;
  result.counts.duplicate = items.length - written.inserted.length - written.dead.length;
  result.updated = await takePending(deps.pending, ctx.project, items.map((i) => i.id), result.stored, ctx.withTraces);
  return result;
}
