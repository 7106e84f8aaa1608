// The daily usage rollup on both stores: migration 4 fills it from the traces already stored, and the trace writer
// adds to it in the transaction that inserts the traces, so a batch written twice is counted once.
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { randomUUID } from 'node:crypto';
import type { SqlValue, Store } from '@vigil/plugin-sdk';
import { TraceReplacer } from '../../../../../plugins/llm/lane/trace-replacer.js';
import { TraceWriter } from '../../../../../plugins/llm/lane/trace-writer.js';
import type { PreparedTrace } from '../../../../../plugins/llm/lane/prepare-trace.js';
import { llmMigrations } from '../../../../../plugins/llm/migrations.js';
import { TRACE_COLUMNS } from '../../../../../plugins/llm/trace-record.js';
import type { LlmProject } from '../../../../../plugins/llm/types.js';
import { backendKinds } from '../../../runtime/store/backend-kinds.js';

const DAY = 86_400_000;
const DAY0 = Date.UTC(2026, 10, 30); // the 30th of November: its next day is in December

function row(project: string, createdAt: number, status: 'ok' | 'error', input: number | null, output: number | null, cost: number | null): SqlValue[] {
  const v: Record<string, SqlValue> = {
    id: randomUUID(), created_at: createdAt, project_id: project, model: 'm', status, latency_ms: 1, input_tokens: input, output_tokens: output,
    total_tokens: null, cost_usd: cost, template: null, version: null, user_id: null, session_id: null, tags: '[]', trace: '{}',
  };
  return TRACE_COLUMNS.map((c) => v[c]);
}

const rollup = (store: Store) => store.query<Record<string, number | string>>(
  `SELECT day, arrived, items, errors, input_tokens, output_tokens, cost_usd FROM ${store.table('usage_daily')} ORDER BY day, arrived`)
  .then((rows) => rows.map((r) => Object.values(r).map(Number)));

const kinds = await backendKinds('llm-usage-rollup');
test.after(async () => { for (const k of kinds) await k.cleanup(); });

for (const kind of kinds) {
  test(`${kind.name}: the rollup's migration backfills it from stored traces, by their day`, async () => {
    const store = (await kind.open(await kind.fresh())).forPlugin('llm');
    const rollupVersion = llmMigrations.find((m) => m.name.startsWith('daily usage rollup'))!.version;
    await store.migrate(llmMigrations.filter((m) => m.version < rollupVersion));
    await store.insertMany(store.table('traces'), TRACE_COLUMNS, [
      row('p', DAY0 + 1000, 'ok', 100, 10, 0.5), row('p', DAY0 + 2000, 'error', null, null, null), row('p', DAY0 + DAY + 5, 'ok', 7, 3, 0.25),
    ]);
    await store.migrate(llmMigrations);
    const d = DAY0 / DAY;
    assert.equal(await rollup(store), [[d, d, 2, 1, 100, 10, 0.5], [d + 1, d + 1, 1, 0, 7, 3, 0.25]]);
  });

  test(`${kind.name}: the writer counts what it inserts, by trace day and arrival day; a batch written again adds nothing`, async () => {
    const store = (await kind.open(await kind.fresh())).forPlugin('llm');
    await store.migrate(llmMigrations);
    const project = { id: 'p', name: 'p' } as LlmProject;
    const rows = [row('p', DAY0 + 1, 'ok', 10, 1, 0.1), row('p', DAY0 + DAY + 1, 'ok', 20, 2, 0.2), row('p', DAY0 + DAY + 2, 'error', 30, 3, null)];
    const prepared = rows.map((r) => ({ item: { id: r[0] }, row: r, ref: { id: r[0] } }) as unknown as PreparedTrace);
    const writer = new TraceWriter(store);
    const arrived = DAY0 + 2 * DAY + 60_000;
    assert.is((await writer.write(project, prepared, [], arrived)).inserted.length, 3);
    assert.is((await writer.write(project, prepared, [], arrived + DAY)).inserted.length, 0);
    const d = DAY0 / DAY;
    assert.equal(await rollup(store), [[d, d + 2, 1, 0, 10, 1, 0.1], [d + 1, d + 2, 2, 1, 50, 5, 0.2]]);
  });
  test(`${kind.name}: a stored trace replaced in place (a Langfuse update) moves the rollup by the difference, as of the day of the update`, async () => {
    const store = (await kind.open(await kind.fresh())).forPlugin('llm');
    await store.migrate(llmMigrations);
    const project = { id: 'p', name: 'p' } as LlmProject;
    const first = row('p', DAY0 + 1, 'ok', 10, 1, 0.1);
    const asPrepared = (r: SqlValue[], cost: number | null) => ({ item: { id: r[0], cost_usd: cost ?? undefined }, row: r, ref: { id: r[0] } }) as unknown as PreparedTrace;
    await new TraceWriter(store).write(project, [asPrepared(first, 0.1)], [], DAY0 + 60_000);
    const updated = [...first];
    updated[TRACE_COLUMNS.indexOf('status')] = 'error';
    updated[TRACE_COLUMNS.indexOf('input_tokens')] = 25;
    updated[TRACE_COLUMNS.indexOf('output_tokens')] = 4;
    updated[TRACE_COLUMNS.indexOf('cost_usd')] = 0.3;
    updated[TRACE_COLUMNS.indexOf('trace')] = '{"changed":true}';
    const replacer = new TraceReplacer(store, () => DAY0 + 3 * DAY);
    assert.equal(await replacer.replace(project, asPrepared(updated, 0.3), 1), { outcome: 'replaced', costDelta: 0.3 - 0.1 });
    const d = DAY0 / DAY;
    const rows = await rollup(store);
    assert.equal(rows.map((r) => r.slice(0, 6)), [[d, d, 1, 0, 10, 1], [d, d + 3, 0, 1, 15, 3]]);
    assert.ok(Math.abs(rows[1][6] - 0.2) < 1e-12);
    const [sum] = await store.query<Record<string, number | string>>(
      `SELECT SUM(items) AS items, SUM(errors) AS errors, SUM(input_tokens) AS input, SUM(cost_usd) AS cost FROM ${store.table('usage_daily')}`);
    assert.equal([Number(sum.items), Number(sum.errors), Number(sum.input)], [1, 1, 25], 'the rollup sums to the row as it now is');
    assert.ok(Math.abs(Number(sum.cost) - 0.3) < 1e-12);
  });
}

test.run();
