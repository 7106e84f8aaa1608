import type { Store } from '@vigil/plugin-sdk';
import { PendingMessages } from '../pending-messages.js';
import { PriceTable } from '../price-table.js';
import { PromptVersions } from '../prompt-versions.js';
import { SpanStore } from '../spans/span-store.js';
import { UsageBook } from '../usage-book.js';
import type { LaneDeps } from './lane-tasks.js';
import { TracePreparer } from './prepare-trace.js';
import { TraceReplacer } from './trace-replacer.js';
import { TraceWriter } from './trace-writer.js';

/**
 * What the lane's tasks need, over one connection to the plugin's store: one set per worker thread (its caches of
 * prompt versions, templates and prices live as long as the thread).
 */
export function laneDeps(store: Store): LaneDeps {
  let prices: { json: string; table: PriceTable } | undefined;
  return {
    store,
    usage: new UsageBook(store),
    preparer: new TracePreparer(new PromptVersions(store)),
    writer: new TraceWriter(store),
    replacer: new TraceReplacer(store),
    pending: new PendingMessages(store),
    spans: new SpanStore(store),
    // Tasks carry `llm.prices` as it stands (a reload may change it); the table is rebuilt only when it did.
    prices(ctx) {
      const json = JSON.stringify(ctx.prices);
      if (prices?.json !== json) prices = { json, table: new PriceTable(ctx.prices) };
      return prices.table;
    },
    random: Math.random,
  };
}
