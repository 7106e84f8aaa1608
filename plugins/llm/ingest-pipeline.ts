import { HttpError, uuidv7, type CounterChild } from '@vigil/plugin-sdk';
import { LlmErrors, overMonthlyLimit } from './errors.js';
import type { GroupCommit } from './group-commit.js';
import { checkItem, type ItemError } from './item-schema.js';
import type { PriceTable } from './price-table.js';
import type { TraceItem } from './trace-item.js';
import type { LlmProject } from './types.js';
import type { UsageBook } from './usage-book.js';

/** An accepted item on its way to the persist stage: the item as sent, with its id, `created_at` and cost settled. */
export interface QueuedItem extends TraceItem {
  id: string;
  /** Epoch ms, assigned at ingest. */
  created_at: number;
  /** As sent, or from the price table; null when neither knows. */
  cost_usd?: number;
  /** True when `cost_usd` came from the price table rather than the client. */
  cost_estimated?: boolean;
}

/** One persist job: a batch's kept items, for one project. */
export interface PersistPayload {
  kind?: undefined;
  project: string;
  items: QueuedItem[];
}

/** The body of a 202 from every ingest route. */
export interface IngestOutcome {
  /** Valid items: stored, or dropped by budget sampling (`sampled_out` of them). */
  accepted: number;
  rejected: number;
  /** Accepted items that budget sampling dropped: the project is over its monthly budget. */
  sampled_out: number;
  errors: ItemError[];
  /** The ids of the accepted items, in order: the client's own, or assigned here. */
  ids: string[];
}

/** What every ingest path (native, OTLP, Langfuse) hands its items to, and how it finds the project of a key. */
export interface IngestPipeline {
  /**
   * Validates each item on its own, settles ids, times and costs, applies budget sampling, and enqueues the kept items
   * for the persist stage; resolves once they are durable in the queue. Throws 413 for a batch over the project's
   * `items_per_batch`, 429 (with Retry-After) once its month's items are used.
   */
  ingestItems(project: LlmProject, items: readonly unknown[]): Promise<IngestOutcome>;
  /** The project a key belongs to, or null; cached 60 s. */
  projectForKey(key: string): Promise<LlmProject | null>;
  /**
   * Throws the 429 `ingestItems` would throw once the project's month is used up: for routes that change state of
   * their own before handing items over (the Langfuse batch), so they refuse before changing anything.
   */
  admit(project: LlmProject): Promise<void>;
}

export interface IngestDeps {
  prices: () => PriceTable;
  usage: UsageBook;
  /** Writes accepted batches to the persist queue and the month's usage. */
  commit: GroupCommit;
  projectForKey(key: string): Promise<LlmProject | null>;
  counters: { accepted: (project: string) => CounterChild; rejected: (project: string) => CounterChild; sampledOut: (project: string) => CounterChild; unpriced: CounterChild };
  now?: () => number;
  random?: () => number;
}

/** The ingest pipeline: stateless (all it knows is in the store), so any number of processes can take ingest. */
export function createIngestPipeline(deps: IngestDeps): IngestPipeline {
  const now = deps.now ?? Date.now;
  const random = deps.random ?? Math.random;
  const monthOf = async (project: LlmProject) => {
    const month = await deps.usage.current(project.id);
    const limit = project.settings.itemsPerMonth;
    if (limit !== null && month.items >= limit) throw overMonthlyLimit(project.name, limit, now());
    return month;
  };
  return {
    projectForKey: deps.projectForKey,
    admit: async (project) => { await monthOf(project); },
    async ingestItems(project, items) {
      const { settings } = project;
      if (items.length > settings.itemsPerBatch) {
        throw new HttpError(413, LlmErrors.BATCH_TOO_LARGE,
          `the batch holds ${items.length} items; project "${project.name}" takes at most ${settings.itemsPerBatch} per request`);
      }
      const month = await monthOf(project);
      const overBudget = settings.monthlyBudgetUsd !== null && month.cost_usd >= settings.monthlyBudgetUsd;

      const createdAt = now();
      const prices = deps.prices();
      const errors: ItemError[] = [];
      const ids: string[] = [];
      const kept: QueuedItem[] = [];
      const seenIds = new Set<string>();
      let cost = 0;
      let sampledOut = 0;
      for (let index = 0; index < items.length; index++) {
        const checked = checkItem(items[index], index);
        if (!checked.ok) { errors.push(checked.error); continue; }
        const item = checked.item;
        const id = item.id === undefined ? uuidv7(createdAt) : item.id.toLowerCase();
        if (seenIds.has(id)) {
          errors.push({ index, code: LlmErrors.ITEM_DUPLICATE_ID, message: `id ${id} is already used by an earlier item of this batch`, path: 'id' });
          continue;
        }
        seenIds.add(id);
        ids.push(id);
        let itemCost = item.cost_usd;
        let estimated = false;
        if (itemCost === undefined) {
          const priced = prices.cost(item.model, item.tokens);
          if (priced === null) deps.counters.unpriced.inc();
          else { itemCost = priced; estimated = true; }
        }
        cost += itemCost ?? 0;
        if (overBudget && random() >= settings.overBudgetSampleRate) { sampledOut++; continue; }
        kept.push({ ...item, id, created_at: createdAt, ...(itemCost === undefined ? {} : { cost_usd: itemCost }), ...(estimated ? { cost_estimated: true } : {}) });
      }
      // Durable before the answer: once the client has its 202 the items survive a crash of this process.
      if (ids.length) await deps.commit.add(project.id, kept, ids.length, cost, sampledOut);
      deps.counters.accepted(project.name).inc(ids.length);
      if (errors.length) deps.counters.rejected(project.name).inc(errors.length);
      if (sampledOut) deps.counters.sampledOut(project.name).inc(sampledOut);
      return { accepted: ids.length, rejected: errors.length, sampled_out: sampledOut, errors, ids };
    },
  };
}
