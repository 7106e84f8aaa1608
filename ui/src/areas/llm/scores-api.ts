// What the trace page reads of the scores an application sent with its traces (Langfuse `score-create`), kept by the
// evaluators plugin: `GET /api/llm/projects/:project/traces/:id/scores`. They are on the sender's scale, so the page
// shows them as sent, never as a 0..1 eval score. The shapes are generated from the route's schema (api.gen.ts).
import type { ReceivedScore, ReceivedScorePage } from '../../data/api.gen.js';

export type SentScore = ReceivedScore;
export type SentScorePage = ReceivedScorePage;

/** A trace's scores, by the dashboard route. */
export const traceScoresPath = (project: string, traceId: string): string =>
  `/api/llm/projects/${encodeURIComponent(project)}/traces/${encodeURIComponent(traceId)}/scores?limit=200`;

/** A score's value as sent: BOOLEAN as true/false, numbers without float noise (0.30000000000000004 is 0.3), text as is. */
export function sentValueText(s: Pick<SentScore, 'value' | 'data_type'>): string {
  if (s.value === null) return '—';
  if (s.data_type === 'BOOLEAN' && typeof s.value === 'number') return s.value ? 'true' : 'false';
  if (typeof s.value === 'number') return String(Number(s.value.toPrecision(12)));
  return s.value;
}

/** Whether the score is about the trace as a whole (it names the sender's trace only), not this call. */
export const isTraceLevel = (s: Pick<SentScore, 'trace_id'>): boolean => s.trace_id === null;
