import { REDACTED } from '../../policies/compile-json-path.js';
import { detect } from '../../policies/detectors/index.js';
import type { DetectorKind } from '../../policies/detectors/types.js';

/**
 * `text` with every detected value of `kinds` replaced by the marker, and how many were. Run on everything that
 * leaves the host for a provider (messages and context); its cost is bounded by the route's body limit.
 */
export function redactOutgoing(text: string, kinds: ReadonlySet<DetectorKind>): { text: string; masked: number } {
  let out = '';
  let at = 0;
  let masked = 0;
  for (const span of detect(text)) {
    if (!kinds.has(span.kind)) continue;
    out += text.slice(at, span.start) + REDACTED;
    at = span.end;
    masked++;
  }
  return masked ? { text: out + text.slice(at), masked } : { text, masked: 0 };
}
