/**
 * GenAI message events on the OTLP Logs API → the messages of the span they belong to.
 *
 * @opentelemetry/instrumentation-openai (and the GenAI event convention it follows) writes no content on the span:
 * each message sent is a log record `gen_ai.system.message`, `gen_ai.user.message`, `gen_ai.assistant.message` or
 * `gen_ai.tool.message` with a body `{ content, role?, tool_calls?, id? }`, and each choice received a record
 * `gen_ai.choice` with `{ index, finish_reason, message: { role?, content, tool_calls? } }`. The event name is in
 * LogRecord.event_name or, in older SDKs, in the `event.name` attribute. Every record carries the trace and span
 * ids of its span. They become ChatMessage lists (chat-message.ts), so the stored trace reads as with any other
 * convention: input in time order, output by choice index. Item ids are the span's (item-id.ts), which is how
 * the persist stage joins them to the span's item.
 */
import { toJson } from './attribute-values.js';
import { contentOf, message, toolCall, type ChatMessage, type ToolCall } from './chat-message.js';
import { spanItemId } from './item-id.js';
import type { OtlpLogRecord, OtlpLogsRequest } from './logs-model.js';

/** The messages of one span, as the logs of one request gave them. A side is absent when no record carried it. */
export interface SpanMessages {
  /** The span's item id: spanItemId(trace_id, span_id). */
  id: string;
  trace_id: string;
  span_id: string;
  input?: ChatMessage[];
  output?: ChatMessage[];
}

export interface LogRejection {
  trace_id: string;
  span_id: string;
  event: string;
  reason: string;
}

export interface LogsMapResult {
  spans: SpanMessages[];
  rejected: LogRejection[];
  /** Records that are not GenAI message events (any other log), accepted and not used. */
  skipped: number;
}

const INPUT_ROLES: Record<string, string> = {
  'gen_ai.system.message': 'system',
  'gen_ai.user.message': 'user',
  'gen_ai.assistant.message': 'assistant',
  'gen_ai.tool.message': 'tool',
};
const CHOICE = 'gen_ai.choice';

type Obj = Record<string, unknown>;
const isObj = (v: unknown): v is Obj => typeof v === 'object' && v !== null && !Array.isArray(v);
const str = (v: unknown): string | undefined => (typeof v === 'string' ? v : undefined);
const TRACE_ID = /^(?!0{32})[0-9a-f]{32}$/;
const SPAN_ID = /^(?!0{16})[0-9a-f]{16}$/;

export function eventNameOf(rec: OtlpLogRecord): string {
  if (rec.eventName !== '') return rec.eventName;
  const attr = rec.attributes['event.name'];
  return typeof attr === 'string' ? attr : '';
}

function toolCalls(v: unknown): ToolCall[] {
  if (!Array.isArray(v)) return [];
  return v.filter(isObj).map((c) => {
    const fn = isObj(c.function) ? c.function : {};
    return toolCall(c.id, fn.name, fn.arguments);
  });
}

/** Content as the event wrote it: text, or a list of parts reduced to text when all are text. */
function content(v: unknown): string | unknown[] | null | undefined {
  if (v === undefined || v === null || typeof v === 'string') return v;
  if (Array.isArray(v)) return contentOf(v);
  return JSON.stringify(v);
}

function chatMessage(body: Obj, role: string, finish?: string): ChatMessage {
  const calls = toolCalls(body.tool_calls);
  const text = content(body.content);
  return message({
    role: str(body.role) ?? role,
    content: text ?? (calls.length > 0 ? null : undefined),
    tool_calls: calls,
    tool_call_id: role === 'tool' ? str(body.id) ?? str(body.tool_call_id) : undefined,
    finish_reason: finish,
  });
}

/** A side worth storing: some message carries content or a tool call (without captureMessageContent none does). */
const carries = (list: ChatMessage[]): boolean => list.some((m) => m.content !== undefined || m.tool_calls !== undefined);

interface Collected {
  traceId: string;
  spanId: string;
  input: { at: number; seq: number; m: ChatMessage }[];
  output: { index: number; seq: number; m: ChatMessage }[];
}

/** Maps every record of a decoded logs request. Pure: no I/O, never throws on data. */
export function mapOtlpLogs(req: OtlpLogsRequest): LogsMapResult {
  const bySpan = new Map<string, Collected>();
  const rejected: LogRejection[] = [];
  let skipped = 0;
  let seq = 0;
  for (const rl of req.resourceLogs) {
    for (const sl of rl.scopeLogs) {
      for (const rec of sl.logRecords) {
        const event = eventNameOf(rec);
        const role = INPUT_ROLES[event];
        if (role === undefined && event !== CHOICE) { skipped++; continue; }
        if (!TRACE_ID.test(rec.traceId) || !SPAN_ID.test(rec.spanId)) {
          rejected.push({ trace_id: rec.traceId, span_id: rec.spanId, event, reason: 'a GenAI event needs the trace id (16 bytes) and span id (8 bytes) of its span' });
          continue;
        }
        const key = `${rec.traceId}:${rec.spanId}`;
        let c = bySpan.get(key);
        if (!c) bySpan.set(key, (c = { traceId: rec.traceId, spanId: rec.spanId, input: [], output: [] }));
        const body = toJson(rec.body);
        if (role !== undefined) {
          const fields = isObj(body) ? body : { content: body };
          c.input.push({ at: rec.timeUnixNano || rec.observedTimeUnixNano, seq: seq++, m: chatMessage(fields, role) });
        } else {
          const b = isObj(body) ? body : {};
          const index = typeof b.index === 'number' && Number.isFinite(b.index) ? b.index : c.output.length;
          c.output.push({ index, seq: seq++, m: chatMessage(isObj(b.message) ? b.message : {}, 'assistant', str(b.finish_reason)) });
        }
      }
    }
  }
  const spans: SpanMessages[] = [];
  for (const c of bySpan.values()) {
    const input = c.input.sort((a, b) => a.at - b.at || a.seq - b.seq).map((x) => x.m);
    const output = c.output.sort((a, b) => a.index - b.index || a.seq - b.seq).map((x) => x.m);
    const s: SpanMessages = { id: spanItemId(c.traceId, c.spanId), trace_id: c.traceId, span_id: c.spanId };
    if (carries(input)) s.input = input;
    if (carries(output)) s.output = output;
    if (s.input || s.output) spans.push(s);
  }
  return { spans, rejected, skipped };
}
