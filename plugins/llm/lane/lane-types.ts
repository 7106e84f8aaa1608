/**
 * What crosses between the main thread and the LLM lane's worker threads. A task carries the request's bytes as
 * they came and the project as its key resolved it; a result carries only what the main thread must act on:
 * the answer, counts for the metrics, and references to stored traces for the eval hooks. Everything that grows
 * with the request (decoding, validation, redaction, hashing, storing) happens on the worker's side.
 */
import type { HttpErrorCode, PersistedTraceRef, PromptVersionChange, ReceivedScore } from '@vigil/plugin-sdk';
import type { SpanMessages } from '../otlp/genai-log-events.js';
import type { QueuedItem } from '../queued-item.js';
import type { SpanBounds } from '../spans/span-bounds.js';
import type { SpanCounts } from '../spans/span-store.js';
import type { LlmProject, ModelPrice } from '../types.js';

/** The project of the request's key, with its settings in force. */
export type LaneProject = LlmProject;

/** What every task carries besides its input. */
export interface LaneContext {
  project: LaneProject;
  /** `llm.prices`, over the shipped table. */
  prices: Record<string, ModelPrice>;
  /** Epoch ms when the request was taken: the month is of this instant, and `created_at` of items without a recent `start_time`. */
  now: number;
  /** Someone listens on `llm.trace.persisted`: send each stored trace's JSON back too. */
  withTraces: boolean;
  /** Trace trees' bounds (`llm.spans`); the defaults without it. */
  spans?: SpanBounds;
}

/** A request body as it came: bytes (moved to the worker, not copied, when they own their memory) and its headers. */
export interface LaneBody {
  bytes: Uint8Array;
  contentType?: string;
  contentEncoding?: string;
}

export type LaneTask =
  | { kind: 'traces'; ctx: LaneContext; body: LaneBody }
  | { kind: 'otlp-traces'; ctx: LaneContext; body: LaneBody }
  | { kind: 'otlp-logs'; ctx: LaneContext; body: LaneBody }
  | { kind: 'langfuse'; ctx: LaneContext; body: LaneBody }
  /** Langfuse generations of the project idle without an end since before `before` (epoch ms): stored, incomplete. */
  | { kind: 'langfuse-unended'; ctx: LaneContext; before: number; limit: number }
  /** Items an earlier version left in the durable persist queue, accepted and counted then: stored as they are. */
  | { kind: 'queued-items'; ctx: LaneContext; items: QueuedItem[] }
  /** Messages an earlier version left in the persist queue. */
  | { kind: 'queued-messages'; ctx: LaneContext; spans: SpanMessages[] };

/** An answer other than success, with everything the HTTP error needs (errors do not survive a thread boundary). */
export interface LaneRefusal {
  /** Its code's status, kept for those that read the refusal. */
  status: number;
  code: HttpErrorCode;
  message: string;
  headers?: Record<string, string>;
}

/** A stored trace as the main thread needs it: the eval hooks' reference, and its JSON when someone listens. */
export interface StoredTrace extends PersistedTraceRef {
  json?: string;
}

/** What a task did, for the metrics. */
export interface LaneCounts {
  accepted: number;
  rejected: number;
  sampledOut: number;
  unpriced: number;
  stored: number;
  duplicate: number;
  dead: number;
  /** Span items whose messages came on OTLP logs: moved into their stored trace, kept for their span, or dropped. */
  messagesApplied: number;
  messagesWaiting: number;
  messagesDead: number;
  /** Langfuse scores received. */
  scores: number;
  /** Langfuse generations stored after idling without an end (`unendedStored`, of which `unendedIncomplete` never ended). */
  unendedStored: number;
  unendedIncomplete: number;
  /**
   * Langfuse updates of stored traces (langfuse-upserts.ts): replaced; unchanged (nothing to change: a repeat);
   * stale (a newer revision was stored meanwhile); unstored (the trace was never stored: sampled out, refused);
   * invalid (the updated item fails the item's checks: the stored trace stays).
   */
  updatesApplied: number;
  updatesUnchanged: number;
  updatesStale: number;
  updatesUnstored: number;
  updatesInvalid: number;
  /** Spans of trace trees kept and dropped (spans/span-store.ts). */
  spans?: SpanCounts;
}

export interface LaneResult {
  refusal?: LaneRefusal;
  /** The success answer's body: a JSON value, or encoded bytes with their content type (OTLP). */
  answer?: { json: unknown; status?: number } | { bytes: Uint8Array | string; contentType: string };
  stored: StoredTrace[];
  /** Stored traces that messages from OTLP logs or Langfuse updates changed: published again, as updates. */
  updated: StoredTrace[];
  versions: PromptVersionChange[];
  /** Langfuse scores, redacted, for `llm.score.received`. */
  scores: ReceivedScore[];
  counts: LaneCounts;
  /** The first reason items went to the dead list, for the log. */
  deadReason?: string;
}

export const noCounts = (): LaneCounts => ({
  accepted: 0, rejected: 0, sampledOut: 0, unpriced: 0, stored: 0, duplicate: 0, dead: 0,
  messagesApplied: 0, messagesWaiting: 0, messagesDead: 0, scores: 0,
  unendedStored: 0, unendedIncomplete: 0, updatesApplied: 0, updatesUnchanged: 0, updatesStale: 0, updatesUnstored: 0, updatesInvalid: 0,
});

export const emptyResult = (): LaneResult => ({ stored: [], updated: [], versions: [], scores: [], counts: noCounts() });
