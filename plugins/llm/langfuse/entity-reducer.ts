/**
 * The merge of Langfuse events into traces and observations, as a pure reducer:
 *   (stored entity or undefined, event) → { entity, ready }
 *
 * Langfuse's SDKs send a create and then updates per id, in batches that are not in order (an update can precede
 * its create, even in one batch) and may be retried whole. So each entity remembers the stamp of the newest event
 * applied (its timestamp, and create < update at the same millisecond). A newer event overwrites the fields it
 * sets (null and absent fields never erase); an older one only fills fields still empty. Applying an event twice
 * changes nothing.
 *
 * `ready` says the observation is now a complete LLM call, to become a trace item: a generation (or embedding)
 * whose create has arrived (an update that comes first cannot know the model the create will name), that has
 * ended (`endTime`) and names a model or reports usage. It is ready once: the entity then records
 * `emitted`, and later events still merge into the stored state but are `late` (the item is already stored; the
 * persist stage never stores an id twice).
 */
import type { Body, LangfuseEvent } from './ingestion-event.js';

export interface LangfuseEntity {
  kind: 'trace' | 'observation';
  id: string;
  /** Observations: generation, span, event, or another Langfuse observation type, lowercased. */
  type?: string;
  /** The merged Langfuse body, in Langfuse's field names. */
  body: Body;
  /** The newest event applied: `<ISO timestamp>|<0 create, 1 update>`, compared as strings. */
  stamp: string;
  /** A create event was applied (updates may come first). */
  created?: boolean;
  /** Set once the observation was handed on as a trace item. */
  emitted?: boolean;
  /**
   * Counts the changes of the merged entity (an event that changes nothing leaves it): a stored trace built from a
   * revision is replaced only by one built from a later revision (../langfuse-upserts.ts).
   */
  revision?: number;
}

export interface ReduceResult {
  entity: LangfuseEntity;
  /** The observation just became a complete LLM call. */
  ready: boolean;
  /** The event changed an observation that was already handed on. */
  late: boolean;
  /** The event changed the entity (a repeat of an applied event, or an older one with nothing to fill, does not). */
  changed: boolean;
}

const LLM_TYPES = new Set(['generation', 'embedding']);

/** The entity an event is about, and its key fields; undefined for scores and SDK logs. */
export function eventTarget(event: LangfuseEvent): { kind: 'trace' | 'observation'; id: string; type?: string } | undefined {
  const id = typeof event.body.id === 'string' && event.body.id !== '' ? event.body.id : event.id;
  switch (event.type) {
    case 'trace-create': return { kind: 'trace', id };
    case 'generation-create': case 'generation-update': return { kind: 'observation', id, type: 'generation' };
    case 'span-create': case 'span-update': return { kind: 'observation', id, type: 'span' };
    case 'event-create': return { kind: 'observation', id, type: 'event' };
    case 'observation-create': case 'observation-update':
      return { kind: 'observation', id, type: typeof event.body.type === 'string' ? event.body.type.toLowerCase() : undefined };
    default: return undefined;
  }
}

const stampOf = (event: LangfuseEvent): string => {
  const t = Date.parse(event.timestamp);
  // ISO strings of one format compare in time order; normalise so '…Z' and '+00:00' spellings agree.
  const iso = Number.isNaN(t) ? event.timestamp : new Date(t).toISOString();
  return `${iso}|${event.type.endsWith('-update') ? 1 : 0}`;
};

const empty = (v: unknown) => v === undefined || v === null;
/** Equal JSON values: a field an event sets again with the value it has is no change (a retried batch). */
const same = (a: unknown, b: unknown) => a === b || (typeof a === 'object' && typeof b === 'object' && JSON.stringify(a) === JSON.stringify(b));

/** Whether an observation is a complete LLM call (see the module comment). */
export function isCompleteLlmCall(entity: LangfuseEntity): boolean {
  if (entity.kind !== 'observation' || !entity.created || !LLM_TYPES.has(entity.type ?? '')) return false;
  const b = entity.body;
  const named = typeof b.model === 'string' && b.model !== '';
  const counted = !empty(b.usage) || !empty(b.usageDetails);
  return !empty(b.endTime) && (named || counted);
}

/**
 * A generation (or embedding) whose create arrived and that was not handed on: it waits for its end, and is stored
 * incomplete once it stays idle past `llm.langfuse.unended_after` (../langfuse-upserts.ts).
 */
export function isUnended(entity: LangfuseEntity): boolean {
  return entity.kind === 'observation' && entity.created === true && !entity.emitted && LLM_TYPES.has(entity.type ?? '');
}

export function reduceEvent(stored: LangfuseEntity | undefined, event: LangfuseEvent): ReduceResult {
  const target = eventTarget(event);
  if (!target) throw new TypeError(`${event.type} events are not merged`);
  const stamp = stampOf(event);
  const newer = stored === undefined || stamp >= stored.stamp;
  const body: Body = { ...stored?.body };
  let changed = stored === undefined;
  for (const [key, value] of Object.entries(event.body)) {
    // `type` is the entity's, not a body field; `__proto__` (from JSON.parse) would set the prototype.
    if (empty(value) || key === 'type' || key === '__proto__') continue;
    if ((newer || empty(body[key])) && !same(body[key], value)) {
      body[key] = value;
      changed = true;
    }
  }
  body.id = target.id;
  // A create names the type; an update before its create gives a provisional one.
  const isCreate = !event.type.endsWith('-update');
  const type = target.type && (isCreate || !stored?.type) ? target.type : stored?.type ?? target.type;
  const entity: LangfuseEntity = {
    kind: target.kind, id: target.id, body, stamp: newer ? stamp : stored!.stamp,
    ...(type ? { type } : {}), ...(isCreate || stored?.created ? { created: true } : {}), ...(stored?.emitted ? { emitted: true } : {}),
  };
  if (type !== stored?.type || entity.created !== stored?.created) changed = true;
  entity.revision = (stored?.revision ?? 0) + (changed ? 1 : 0);
  const ready = !entity.emitted && isCompleteLlmCall(entity);
  if (ready) entity.emitted = true;
  return { entity, ready, late: stored?.emitted === true, changed };
}
