/**
 * Generations that were created and never handed on, once idle: Langfuse shows a generation the app never ended
 * (a crash, a stream abandoned, `.end()` forgotten), so Vigil stores it too rather than keep it in the partial state
 * until it expires. The spine's sweep (../langfuse-upserts.ts) calls this for generations no event touched for
 * `llm.langfuse.unended_after`; an end that comes later is an update of the stored trace, as any late event is.
 *
 * Each is marked handed on (`emitted`) in the state, in the caller's transaction, so it is taken once whichever
 * process sweeps. Its item is `incomplete` when it has no `endTime` (an ended generation without a model or usage,
 * which the reducer never calls complete, is stored here too, and is complete).
 */
import type { TraceItem } from '../trace-item.js';
import type { ItemSource } from './apply-batch.js';
import { isUnended } from './entity-reducer.js';
import { observationToItem } from './observation-item.js';
import { traceKey, type LangfuseStateStore } from './state-store.js';

export interface TakenUnended {
  items: TraceItem[];
  sources: ItemSource[];
  /** Indexes into `items` of generations that never ended. */
  incomplete: Set<number>;
}

/** Whether an observation's merged body has no end: stored, it is marked incomplete. */
export const neverEnded = (body: Record<string, unknown>): boolean => body.endTime === undefined || body.endTime === null;

/**
 * Takes at most `limit` generations idle since before `before` (epoch ms), oldest first, and no more than `maxChars`
 * of their stored JSON in all (at least one): what one ingest body could carry, so a sweep holds no more than a
 * request does.
 */
export async function takeUnended(state: LangfuseStateStore, before: number, limit: number, maxChars = Infinity): Promise<TakenUnended> {
  const taken: TakenUnended = { items: [], sources: [], incomplete: new Set() };
  let chars = 0;
  for (const { key, size } of await state.idle(before, limit)) {
    if (taken.items.length > 0 && chars + size > maxChars) break;
    chars += size;
    const entity = await state.get(key);
    if (!entity || !isUnended(entity)) continue;
    entity.emitted = true;
    const traceId = typeof entity.body.traceId === 'string' ? entity.body.traceId : undefined;
    const trace = traceId ? await state.get(traceKey(traceId)) : undefined;
    if (neverEnded(entity.body)) taken.incomplete.add(taken.items.length);
    taken.items.push(observationToItem(entity, trace));
    taken.sources.push({ key, revision: entity.revision ?? 0 });
    await state.put(key, entity);
  }
  return taken;
}
