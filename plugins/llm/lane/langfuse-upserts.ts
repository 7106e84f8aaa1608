/**
 * Langfuse's upserts in the lane: a stored trace follows its observation's merged state. Langfuse applies every event
 * of an observation to what it shows, also after it showed it: an end that comes a minute after the create, an
 * output, usage, cost or level sent with `update()` later. Vigil stores a generation once it is complete (or once it
 * idled without an end, langfuse/unended.ts), so what comes after is applied to the stored trace here.
 *
 * Ordering across processes. A batch commits its merge of the state (under the project's lock), then stores its new
 * items, then syncs: for each observation it changed that was handed on before (an update), and for each item it
 * stored now, it reads the state as committed, rebuilds the item, and replaces the stored trace when the state is
 * newer than what the row was built from. Whichever of two batches (an insert and an update, in two processes)
 * syncs second sees both writes, so no update is lost; a replacement carries the state's revision and is refused
 * over a newer one (trace-replacer.ts), so an older update never overwrites a newer one, and one that changes
 * nothing (the same event id again) writes nothing and is not published.
 *
 * The rebuilt item goes through the same checks (bounds, schema, cost from the price table) and the same
 * preparation (prompt version, redaction by the project's rules) as an ingested one, on this worker thread: an
 * update's output is redacted exactly as an ingest's. A replaced trace goes back to the main thread in `updated`,
 * which publishes it on `llm.trace.persisted` with `update: true` and hands it to the eval hooks again.
 */
import type { Store } from '@vigil/plugin-sdk';
import { readLangfuseRevisions, readLangfuseState } from '../langfuse-state.js';
import type { ItemSource } from '../langfuse/apply-batch.js';
import type { LangfuseEntity } from '../langfuse/entity-reducer.js';
import { observationToItem } from '../langfuse/observation-item.js';
import { traceKey } from '../langfuse/state-store.js';
import { neverEnded } from '../langfuse/unended.js';
import type { PriceTable } from '../price-table.js';
import type { QueuedItem } from '../queued-item.js';
import type { UsageBook } from '../usage-book.js';
import { checkItems } from './check-items.js';
import type { LaneContext, LaneResult, StoredTrace } from './lane-types.js';
import type { TracePreparer } from './prepare-trace.js';
import type { TraceReplacer } from './trace-replacer.js';
import { timeSlicer } from './time-slice.js';

export interface UpsertDeps {
  store: Store;
  usage: UsageBook;
  preparer: TracePreparer;
  replacer: TraceReplacer;
  prices(ctx: LaneContext): PriceTable;
}

/**
 * Brings the stored traces of `sources` up to the state: `built` is the revision a source's row was just built from
 * (items stored by this task: synced only if the state moved on since), absent for updates (always rebuilt; the
 * replacer refuses what is not newer). Counts and replaced traces go into `result`.
 */
export async function syncStoredTraces(deps: UpsertDeps, ctx: LaneContext, sources: readonly (ItemSource | { key: string; revision?: undefined })[], result: LaneResult): Promise<void> {
  if (!sources.length) return;
  const { project } = ctx;
  // Items just built are synced only if their entity moved on: a read of revisions, mostly finding none.
  const built = sources.filter((s) => s.revision !== undefined);
  const revisions = built.length ? await readLangfuseRevisions(deps.store, project.id, [...new Set(built.map((s) => s.key))]) : new Map<string, number>();
  const keys = new Set(sources.filter((s) => s.revision === undefined || (revisions.get(s.key) ?? 0) > s.revision).map((s) => s.key));
  if (!keys.size) return;
  const entities = await readLangfuseState(deps.store, project.id, [...keys]);
  const due: LangfuseEntity[] = [];
  for (const key of keys) {
    const entity = entities.get(key);
    if (entity?.emitted) due.push(entity);
  }
  if (!due.length) return;
  const traceKeys = [...new Set(due.map((e) => (typeof e.body.traceId === 'string' ? traceKey(e.body.traceId) : '')).filter(Boolean))];
  const traces = await readLangfuseState(deps.store, project.id, traceKeys);
  const slice = timeSlicer();
  const { settings } = project;
  for (const entity of due) {
    await slice();
    const trace = typeof entity.body.traceId === 'string' ? traces.get(traceKey(entity.body.traceId)) : undefined;
    const checked = await checkItems([observationToItem(entity, trace)], { keys: settings.itemKeys, bytes: settings.itemBytes }, deps.prices(ctx), ctx.now);
    const valid = checked.valid[0];
    if (!valid) { result.counts.updatesInvalid++; continue; }
    const createdAt = await deps.replacer.createdAt(project.id, valid.item.id);
    if (createdAt === undefined) { result.counts.updatesUnstored++; continue; }
    const item: QueuedItem = { ...valid.item, created_at: createdAt, ...(neverEnded(entity.body) ? { incomplete: 'never_ended' as const } : {}) };
    const prepared = await deps.preparer.prepare(project, item, ctx.withTraces, result.versions);
    if (!('row' in prepared)) { result.counts.updatesInvalid++; result.deadReason ??= `update of ${item.id}: ${prepared.reason}`; continue; }
    const done = await deps.replacer.replace(project, prepared, entity.revision ?? 0);
    switch (done.outcome) {
      case 'replaced': {
        result.counts.updatesApplied++;
        // The month counts what the call cost: an update that reports (more) cost adds the difference now.
        if (done.costDelta !== 0) await deps.usage.add(project.id, { items: 0, cost_usd: done.costDelta, sampled_out: 0 });
        const { awaiting_messages: _, ...ref } = prepared.ref;
        const replaced: StoredTrace = ref;
        const already = result.stored.find((t) => t.id === replaced.id);
        // Stored by this very task and replaced at once: one publication, of the final version.
        if (already) Object.assign(already, replaced); else result.updated.push(replaced);
        break;
      }
      case 'unchanged': result.counts.updatesUnchanged++; break;
      case 'stale': result.counts.updatesStale++; break;
      case 'unstored': result.counts.updatesUnstored++; break;
    }
  }
}
