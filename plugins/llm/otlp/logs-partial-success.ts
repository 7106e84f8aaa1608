import type { OtlpPartialSuccess } from './encode-response.js';
import type { LogRejection } from './genai-log-events.js';

const LISTED = 5;

/** partial_success of a logs export, or undefined when nothing was rejected: the first few rejections and why. */
export function logsPartialSuccessOf(rejected: readonly LogRejection[]): OtlpPartialSuccess | undefined {
  if (!rejected.length) return undefined;
  const listed = rejected.slice(0, LISTED).map((r) => `${r.event} (trace ${r.trace_id || '?'}, span ${r.span_id || '?'}): ${r.reason}`);
  const more = rejected.length > LISTED ? `; and ${rejected.length - LISTED} more` : '';
  return { rejectedSpans: rejected.length, errorMessage: `${rejected.length} log record(s) rejected: ${listed.join('; ')}${more}` };
}
