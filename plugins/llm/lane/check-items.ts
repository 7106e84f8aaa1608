import { uuidv7 } from '@vigil/plugin-sdk';
import { LlmErrors } from '../errors.js';
import { checkItem, type ItemError } from '../item-schema.js';
import type { PriceTable } from '../price-table.js';
import type { QueuedItem } from '../queued-item.js';
import { boundsMessage, exceedsBounds, type ItemBounds } from './item-bounds.js';
import { traceTime } from '../trace-time.js';
import { timeSlicer } from './time-slice.js';

/** What the body's scan already knows of its items' sizes (parse-batch.ts). */
export interface ScannedSizes {
  /** Cut out before parsing, past the key bound: index → the count reached. */
  cut: ReadonlyMap<number, number>;
  /** Within both bounds. */
  within: ReadonlySet<number>;
}

/** A valid item of a request, with its place in the request and its cost settled. */
export interface ValidItem {
  index: number;
  item: QueuedItem;
  /** USD, 0 when unpriced: what the month's budget counts. */
  cost: number;
}

export interface CheckedItems {
  valid: ValidItem[];
  errors: ItemError[];
  /** Valid items with no `cost_usd` whose model the price table does not know. */
  unpriced: number;
}

/**
 * Each item on its own: within the size bounds (checked first, so an oversized item costs no validation; `scanned`
 * says which the body's scan found past the key bound, or within both), valid
 * by the schema, an id not used by an earlier item of the request. Settles ids (the client's, lower-cased, or a new
 * UUIDv7), `created_at` (the call's `start_time` within a bound, else `receivedAt`: trace-time.ts) and cost (as
 * sent, else from the price table).
 */
export async function checkItems(items: readonly unknown[], bounds: ItemBounds, prices: PriceTable, receivedAt: number, scanned?: ScannedSizes): Promise<CheckedItems> {
  const slice = timeSlicer();
  const valid: ValidItem[] = [];
  const errors: ItemError[] = [];
  const seenIds = new Set<string>();
  let unpriced = 0;
  for (let index = 0; index < items.length; index++) {
    await slice();
    const counted = scanned?.cut.get(index);
    const over = counted !== undefined ? { what: 'keys' as const, counted, limit: bounds.keys }
      : scanned?.within.has(index) ? null : exceedsBounds(items[index], bounds);
    if (over) {
      errors.push({ index, code: LlmErrors.ITEM_TOO_LARGE, message: boundsMessage(over), path: '' });
      continue;
    }
    const checked = checkItem(items[index], index);
    if (!checked.ok) { errors.push(checked.error); continue; }
    const item = checked.item;
    const createdAt = traceTime(item.start_time, receivedAt);
    const id = item.id === undefined ? uuidv7(createdAt) : item.id.toLowerCase();
    if (seenIds.has(id)) {
      errors.push({ index, code: LlmErrors.ITEM_DUPLICATE_ID, message: `id ${id} is already used by an earlier item of this batch`, path: 'id' });
      continue;
    }
    seenIds.add(id);
    let cost = item.cost_usd;
    let estimated = false;
    if (cost === undefined) {
      const priced = prices.cost(item.model, item.tokens);
      if (priced === null) unpriced++;
      else { cost = priced; estimated = true; }
    }
    valid.push({
      index,
      cost: cost ?? 0,
      item: { ...item, id, created_at: createdAt, ...(cost === undefined ? {} : { cost_usd: cost }), ...(estimated ? { cost_estimated: true } : {}) },
    });
  }
  return { valid, errors, unpriced };
}
