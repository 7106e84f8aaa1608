import { httpError, type PromptVersionChange } from '@vigil/plugin-sdk';
import { LlmErrors, overMonthlyLimit } from '../errors.js';
import { fromOtlpSpan } from '../late-messages.js';
import type { ItemError } from '../item-schema.js';
import type { PendingMessages } from '../pending-messages.js';
import type { PriceTable } from '../price-table.js';
import type { IngestOutcome, QueuedItem } from '../queued-item.js';
import type { UsageBook } from '../usage-book.js';
import { checkItems, type ScannedSizes } from './check-items.js';
import { refusalOf } from './lane-refusal.js';
import { emptyResult, type LaneContext, type LaneResult } from './lane-types.js';
import { planBatch } from './plan-batch.js';
import { timeSlicer } from './time-slice.js';
import type { DeadItem, PreparedTrace, TracePreparer } from './prepare-trace.js';
import { takePending, type TraceWriter, type Written } from './trace-writer.js';

/** What accepting a request's items needs, one set per worker thread (or per process, without worker threads). */
export interface AcceptDeps {
  usage: UsageBook;
  preparer: TracePreparer;
  writer: TraceWriter;
  pending: PendingMessages;
  prices(ctx: LaneContext): PriceTable;
  random(): number;
}

export interface Accepted {
  outcome: IngestOutcome;
  result: LaneResult;
}

/**
 * Accepts one request's items, from validation to stored rows: each item checked on its own (bounds, schema, id,
 * cost); the valid ones reserved against the project's month (its item limit and budget, atomically across
 * processes, usage-book.ts); those granted and kept by budget sampling prepared (versioned, redacted) and stored;
 * messages from OTLP logs that waited for them moved in. A store that fails gives the reservation back and refuses
 * the request as retryable (503), so a client's retry is neither lost nor counted twice (ids make it idempotent).
 * A month already used refuses the request (429, Retry-After); a month with room for part of it accepts that part
 * and rejects the rest, item by item.
 */
export async function acceptItems(deps: AcceptDeps, ctx: LaneContext, items: readonly unknown[], scanned?: ScannedSizes, incomplete?: ReadonlySet<number>): Promise<Accepted> {
  const { project, now } = ctx;
  const { settings } = project;
  const result = emptyResult();
  const checked = await checkItems(items, { keys: settings.itemKeys, bytes: settings.itemBytes }, deps.prices(ctx), now, scanned);
  // `incomplete` names items by their index in `items` (Langfuse generations stored without an end): a mark the wire cannot set.
  if (incomplete?.size) for (const v of checked.valid) if (incomplete.has(v.index)) v.item.incomplete = 'never_ended';
  const errors: ItemError[] = checked.errors;
  const { valid } = checked;
  result.counts.unpriced = checked.unpriced;
  const answer = (ids: string[], sampledOut: number): Accepted => {
    errors.sort((a, b) => a.index - b.index);
    result.counts.accepted = ids.length;
    result.counts.rejected = errors.length;
    result.counts.sampledOut = sampledOut;
    return { outcome: { accepted: ids.length, rejected: errors.length, sampled_out: sampledOut, errors, ids }, result };
  };
  if (!valid.length) return answer([], 0);

  const costs = valid.map((v) => v.cost);
  // Without a limit or a budget nothing depends on the month: the batch is added to it in one upsert.
  const plan = settings.itemsPerMonth === null && settings.monthlyBudgetUsd === null
    ? { ...planBatch({ items: 0, cost_usd: 0 }, costs, settings, deps.random), ...await deps.usage.add(project.id, unlimited(costs)) }
    : await deps.usage.reserve(project.id, (month) => planBatch(month, costs, settings, deps.random));
  if (plan.granted === 0) {
    result.refusal = refusalOf(overMonthlyLimit(project.name, settings.itemsPerMonth ?? 0, now));
    return { outcome: answer([], 0).outcome, result };
  }
  for (const over of valid.slice(plan.granted)) {
    errors.push({ index: over.index, code: LlmErrors.MONTHLY_LIMIT,
      message: `project "${project.name}" has used its ${settings.itemsPerMonth} items for this month; this item and the rest of the batch are refused`, path: '' });
  }
  const granted = valid.slice(0, plan.granted);
  const kept = granted.filter((_, i) => plan.keep[i]).map((v) => v.item);

  // Read before redaction writes over the items: only a span's item can have messages from OTLP logs waiting.
  const fromSpans = kept.filter(fromOtlpSpan).map((i) => i.id);
  let stored: Written;
  try {
    stored = await storeItems(deps, ctx, kept, result.versions);
  } catch (err) {
    await deps.usage.release(project.id, plan.month, plan).catch(() => { /* the month keeps the batch: counted, never lost */ });
    result.refusal = refusalOf(httpError(LlmErrors.STORE_UNAVAILABLE, `the batch could not be stored (${(err as Error).message}); send it again`, { headers: { 'Retry-After': '1' } }));
    return { outcome: answer([], 0).outcome, result };
  }
  result.stored = stored.inserted;
  result.counts.stored = stored.inserted.length;
  result.counts.dead = stored.dead.length;
  result.counts.duplicate = kept.length - stored.inserted.length - stored.dead.length;
  if (stored.dead.length) result.deadReason = stored.dead[0].reason;
  result.updated = await takePending(deps.pending, project, fromSpans, result.stored, ctx.withTraces);
  return answer(granted.map((v) => v.item.id), plan.sampled_out);
}

/** What a batch adds to a month that has no limit and no budget: all of it. */
function unlimited(costs: readonly number[]): { items: number; cost_usd: number; sampled_out: number } {
  let cost = 0;
  for (const c of costs) cost += c;
  return { items: costs.length, cost_usd: cost, sampled_out: 0 };
}

/** Prepares and writes accepted items; what cannot be prepared goes to the dead list with the rest's rows. */
export async function storeItems(deps: AcceptDeps, ctx: LaneContext, kept: readonly QueuedItem[], changes: PromptVersionChange[]): Promise<Written> {
  const prepared: PreparedTrace[] = [];
  const dead: DeadItem[] = [];
  const slice = timeSlicer();
  for (const item of kept) {
    await slice();
    const p = await deps.preparer.prepare(ctx.project, item, ctx.withTraces, changes);
    if ('row' in p) prepared.push(p); else dead.push(p);
  }
  if (!prepared.length && !dead.length) return { inserted: [], dead: [] };
  return deps.writer.write(ctx.project, prepared, dead, ctx.now);
}
