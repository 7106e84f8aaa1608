/**
 * Langfuse scores (`score-create`), kept apart from trace items: they are evaluation results that a user or an
 * app attached to a trace, an observation or a session. The spine publishes them on `llm.score.received`, for the
 * evaluators plugin to keep (apart from its eval results);
 * `item_id` names the trace item the score is about when it names an observation.
 */
import type { Body, LangfuseEvent } from './ingestion-event.js';
import { observationItemId } from './observation-item.js';
import { uuidFor } from '../otlp/item-id.js';

export interface LangfuseScore {
  /** A UUID: the body's id when it is one, derived from it (or the envelope id) otherwise; a retry maps to the same. */
  id: string;
  name: string;
  /** As sent: a number for NUMERIC (and BOOLEAN as 0/1), a string for CATEGORICAL. */
  value: number | string | boolean;
  data_type: 'NUMERIC' | 'CATEGORICAL' | 'BOOLEAN';
  trace_id?: string;
  observation_id?: string;
  /** The trace item of the scored observation (observation-item.ts observationItemId). */
  item_id?: string;
  session_id?: string;
  comment?: string;
  config_id?: string;
  /** ISO 8601: the body's timestamp, else the event's. */
  timestamp: string;
  metadata?: unknown;
}

const str = (v: unknown): string | undefined => (typeof v === 'string' && v !== '' ? v : undefined);

/** A validated score-create event (ingestion-event.ts) as a score. */
export function scoreFromEvent(event: LangfuseEvent): LangfuseScore {
  const b: Body = event.body;
  const value = b.value as number | string | boolean;
  const declared = str(b.dataType) as LangfuseScore['data_type'] | undefined;
  const data_type = declared ?? (typeof value === 'string' ? 'CATEGORICAL' : typeof value === 'boolean' ? 'BOOLEAN' : 'NUMERIC');
  const score: LangfuseScore = {
    id: uuidFor(str(b.id) ?? event.id, 'langfuse-score'),
    name: b.name as string,
    value,
    data_type,
    timestamp: str(b.timestamp) ?? event.timestamp,
  };
  const observation = str(b.observationId);
  if (str(b.traceId)) score.trace_id = b.traceId as string;
  if (observation) { score.observation_id = observation; score.item_id = observationItemId(observation); }
  if (str(b.sessionId)) score.session_id = b.sessionId as string;
  if (str(b.comment)) score.comment = b.comment as string;
  if (str(b.configId)) score.config_id = b.configId as string;
  if (b.metadata !== undefined && b.metadata !== null) score.metadata = b.metadata;
  return score;
}
