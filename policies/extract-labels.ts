import type { RouteDecision } from './merge.js';

/**
 * Label values for a request, from Node's `rawHeaders` (name, value, name, value…). Header names match
 * case-insensitively; a repeated header gives its first value; a label whose header is absent is left out.
 */
export function extractLabels(decision: RouteDecision, rawHeaders: readonly string[] | null | undefined): Record<string, string> {
  const out: Record<string, string> = {};
  const labels = decision.labels;
  if (labels.length === 0 || !rawHeaders) return out;
  for (const { name, header } of labels) {
    for (let i = 0; i + 1 < rawHeaders.length; i += 2) {
      if (rawHeaders[i].length === header.length && rawHeaders[i].toLowerCase() === header) {
        out[name] = rawHeaders[i + 1];
        break;
      }
    }
  }
  return out;
}
