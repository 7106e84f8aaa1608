import type { QueuedItem } from './queued-item.js';

const empty = (v: unknown): boolean => v === undefined || v === null;

/** An item mapped from an OTLP span (metadata.otel carries its span id): its messages may come on OTLP logs. */
export const fromOtlpSpan = (item: QueuedItem): boolean => typeof (item.metadata?.otel as { span_id?: unknown } | undefined)?.span_id === 'string';

/**
 * Whether a trace just stored may still get messages from OTLP logs: it came from an OTLP span (`fromOtlpSpan` of the
 * item, read before redaction wrote over it) and a side is still
 * empty. The flag (`awaiting_messages`) lets the evaluators wait a grace before evaluating it; a span whose
 * instrumentation sends no content at all is flagged too, and is then evaluated after that grace, once.
 *
 * When the messages do come later, the trace is published again on `llm.trace.persisted` with `update`, and handed
 * to the eval hooks again (lane/llm-lane.ts), so an eval that already ran is redone on the complete trace. Why again
 * rather than holding the first publication back: the lane cannot know whether logs will ever come (an
 * instrumentation without content capture sends none), and holding traces back would delay every subscriber. The
 * evaluators make the second hand-over cheap: an eval job still waiting (its grace, or its rate slot) holds the
 * (definition, trace) dedupe key, so the update adds nothing and that job reads the complete trace when it runs;
 * only an eval that already ran is run again, and its result replaces the first. The dashboard's live event is not
 * sent again: it counts stored traces, and the list reloads rows, so an update would only count a trace twice.
 * A process that dies between moving the messages in and publishing loses the update: the trace is stored
 * complete, and only an eval that already ran keeps its first result.
 */
export const awaitsMessages = (fromSpan: boolean, trace: Record<string, unknown>): boolean =>
  fromSpan && (empty(trace.input) || empty(trace.output));
