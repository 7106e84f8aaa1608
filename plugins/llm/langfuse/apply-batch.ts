/**
 * A parsed Langfuse batch (ingestion-event.ts) applied to the partial state (state-store.ts): what the spine's
 * `POST /api/public/ingestion` handler calls, between parsing and answering 207.
 *
 * Order within the batch: traces first, then observations (creates before updates at equal timestamps, as the
 * reducer ranks them), then scores. So a generation completed in a batch that also carries its trace gets the
 * trace's user, session, tags and metadata even when the SDK put the trace last. A batch event id seen twice in
 * one batch is applied once.
 */
import type { TraceItem } from '../trace-item.js';
import { eventTarget, reduceEvent, type LangfuseEntity } from './entity-reducer.js';
import type { LangfuseEvent } from './ingestion-event.js';
import { observationToItem } from './observation-item.js';
import { scoreFromEvent, type LangfuseScore } from './score.js';
import { observationKey, traceKey, type LangfuseStateStore } from './state-store.js';

/** Where an item handed on came from: its state key, and the entity's revision it was built from. */
export interface ItemSource {
  key: string;
  revision: number;
}

export interface AppliedBatch {
  /** Generations that became complete LLM calls: hand them to the ingest pipeline. */
  items: TraceItem[];
  /** Each item's source, in the same order. */
  sources: ItemSource[];
  /** Keys of observations handed on before that this batch changed: their stored traces are replaced (upserts). */
  updated: string[];
  /** Scores, for the eval results (kept apart from items). */
  scores: LangfuseScore[];
  /** Envelope ids of the events applied (all of them are successes in the 207). */
  applied: string[];
  /** Events that changed an observation already handed on (counted; their fields stay in the state only). */
  late: number;
  /** Spans, events, non-LLM observations and SDK logs: accepted, merged (observations) or ignored (logs). */
  context: number;
}

const rank = (e: LangfuseEvent): number => {
  if (e.type === 'trace-create') return 0;
  if (e.type === 'score-create' || e.type === 'sdk-log') return 2;
  return 1;
};

/** Applies events in a deterministic order; the store is read once per entity and written once per entity. */
export async function applyLangfuseBatch(store: LangfuseStateStore, events: readonly LangfuseEvent[]): Promise<AppliedBatch> {
  const seen = new Set<string>();
  const unique = events.filter((e) => (seen.has(e.id) ? false : (seen.add(e.id), true)));
  const ordered = unique
    .map((e, i) => ({ e, i }))
    .sort((a, b) => rank(a.e) - rank(b.e) || (a.e.timestamp < b.e.timestamp ? -1 : a.e.timestamp > b.e.timestamp ? 1 : 0)
      || Number(a.e.type.endsWith('-update')) - Number(b.e.type.endsWith('-update')) || a.i - b.i)
    .map(({ e }) => e);

  const cache = new Map<string, LangfuseEntity | undefined>();
  const dirty = new Set<string>();
  const load = async (key: string) => {
    if (!cache.has(key)) cache.set(key, await store.get(key));
    return cache.get(key);
  };
  const readyIds: string[] = [];
  const result: AppliedBatch = { items: [], sources: [], updated: [], scores: [], applied: [], late: 0, context: 0 };
  const updated = new Set<string>();

  for (const event of ordered) {
    result.applied.push(event.id);
    if (event.type === 'score-create') { result.scores.push(scoreFromEvent(event)); continue; }
    if (event.type === 'sdk-log') { result.context++; continue; }
    const target = eventTarget(event)!;
    const key = target.kind === 'trace' ? traceKey(target.id) : observationKey(target.id);
    const { entity, ready, late, changed } = reduceEvent(await load(key), event);
    cache.set(key, entity);
    dirty.add(key);
    if (late) result.late++;
    if (late && changed && entity.kind === 'observation') updated.add(key);
    if (ready) readyIds.push(key);
    else if (entity.kind === 'observation' && entity.type !== 'generation' && entity.type !== 'embedding') result.context++;
  }

  for (const key of readyIds) {
    const observation = cache.get(key)!;
    const traceId = typeof observation.body.traceId === 'string' ? observation.body.traceId : undefined;
    const trace = traceId ? await load(traceKey(traceId)) : undefined;
    result.items.push(observationToItem(observation, trace));
    result.sources.push({ key, revision: observation.revision ?? 0 });
  }
  result.updated = [...updated];
  for (const key of dirty) await store.put(key, cache.get(key)!);
  return result;
}
