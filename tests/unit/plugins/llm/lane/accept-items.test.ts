// The lane's acceptance of a request's items, on both backends: bounds, validation, the month's reservation (its
// limit and budget hold under concurrency, also from two store handles standing for two processes), redaction,
// idempotent storage, a store that fails, and a row the store refuses.
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import type { Store, Transaction } from '@vigil/plugin-sdk';
import { effectiveSettings } from '../../../../../plugins/llm/effective-settings.js';
import { laneDeps } from '../../../../../plugins/llm/lane/lane-deps.js';
import { runLaneTask, type LaneDeps } from '../../../../../plugins/llm/lane/lane-tasks.js';
import type { LaneResult } from '../../../../../plugins/llm/lane/lane-types.js';
import { llmMigrations } from '../../../../../plugins/llm/migrations.js';
import type { IngestOutcome } from '../../../../../plugins/llm/queued-item.js';
import type { LlmProject, ProjectSettings } from '../../../../../plugins/llm/types.js';
import { backendKinds, type BackendKind } from '../../../runtime/store/backend-kinds.js';

const projectOf = (own: ProjectSettings = {}, id = 'p1'): LlmProject => ({ id, name: `project-${id}`, source: 'store', settings: effectiveSettings(own, {}, 5e6) });
let n = 0;
const uuid = () => `00000000-0000-4000-8000-${String(++n).padStart(12, '0')}`;
const item = (o: Record<string, unknown> = {}) => ({ id: uuid(), model: 'gpt-4o-mini', tokens: { input: 1000, output: 100 }, ...o });

function body(items: unknown[]) {
  return { bytes: new TextEncoder().encode(JSON.stringify({ traces: items })), contentType: 'application/json' };
}

async function send(deps: LaneDeps, project: LlmProject, items: unknown[]): Promise<{ result: LaneResult; outcome?: IngestOutcome }> {
  const result = await runLaneTask(deps, { kind: 'traces', ctx: { project, prices: {}, now: Date.now(), withTraces: true }, body: body(items) });
  const answer = result.answer as { json: IngestOutcome } | undefined;
  return { result, ...(answer ? { outcome: answer.json } : {}) };
}

function define(kind: BackendKind) {
  const test = suite(`lane: accepting items (${kind.name})`);
  test.after(() => kind.cleanup());

  async function stores(count: number): Promise<Store[]> {
    const url = await kind.fresh();
    const out: Store[] = [];
    for (let i = 0; i < count; i++) {
      const store = (await kind.open(url)).forPlugin('llm');
      await store.migrate(llmMigrations);
      out.push(store);
    }
    return out;
  }
  const stored = async (store: Store, project = 'p1') => Number((await store.query<{ n: number }>('SELECT COUNT(*) AS n FROM llm_traces WHERE project_id = ?', [project]))[0].n);
  const month = async (store: Store) => (await store.query<{ items: number; cost_usd: number; sampled_out: number }>('SELECT items, cost_usd, sampled_out FROM llm_usage'))
    .map((r) => ({ items: Number(r.items), cost_usd: Number(r.cost_usd), sampled_out: Number(r.sampled_out) }))[0];

  test('stores each valid item redacted, once: a batch sent again stores and hands on nothing new', async () => {
    const [store] = await stores(1);
    const deps = laneDeps(store);
    const project = projectOf({ redact: { json_fields: ['$.metadata.secret'] } });
    const items = [
      item({ input: 'mail ada@example.com', metadata: { secret: 'hunter2' }, prompt_template: { name: 't', raw: 'Hi {{x}}', variables: { x: 'bob@example.com' } } }),
      item({ model: '' }),
      item({ status: 'error', error: 'failed' }),
    ];
    const first = await send(deps, project, items);
    assert.equal([first.outcome!.accepted, first.outcome!.rejected, first.outcome!.errors[0].index], [2, 1, 1]);
    assert.equal(first.result.stored.map((t) => t.id), [items[0].id, items[2].id]);
    assert.equal(first.result.versions.map((v) => [v.template, v.version]), [['t', 1]]);
    const text = first.result.stored.map((t) => t.json).join('\n');
    for (const secret of ['ada@example.com', 'hunter2', 'bob@example.com']) assert.not.ok(text.includes(secret), secret);
    const again = await send(deps, project, items);
    assert.equal([again.outcome!.accepted, again.result.stored.length, again.result.counts.duplicate, again.result.versions.length], [2, 0, 2, 0]);
    assert.is(await stored(store), 2);
    const [row] = await store.query<{ trace: string }>('SELECT trace FROM llm_traces WHERE id = ?', [items[0].id]);
    assert.not.ok(row.trace.includes('ada@example.com'));
  });

  test('size bounds: an item past limits.item_keys or limits.item_bytes is rejected on its own, with the bound named', async () => {
    const [store] = await stores(1);
    const deps = laneDeps(store);
    const project = projectOf({ limits: { item_keys: 1000, item_bytes: '64kb' } });
    const wide = Object.fromEntries(Array.from({ length: 5000 }, (_, i) => [`k${i}`, i]));
    const items = [item({ metadata: wide }), item({ input: 'é'.repeat(40_000) }), item({ input: [Array.from({ length: 2000 }, () => 0)] }), item()];
    const { outcome } = await send(deps, project, items);
    assert.equal(outcome!.errors.map((e) => [e.index, e.code]), [[0, 'VIGIL_ERR_LLM_ITEM_TOO_LARGE'], [1, 'VIGIL_ERR_LLM_ITEM_TOO_LARGE'], [2, 'VIGIL_ERR_LLM_ITEM_TOO_LARGE']]);
    assert.match(outcome!.errors[0].message, /more than 1000 keys/);
    assert.match(outcome!.errors[1].message, /65536 bytes/, 'bytes are UTF-8 bytes: 40,000 é are 80,000 of them');
    assert.is(outcome!.accepted, 1);
  });

  test('the month\'s item limit: a batch that fits is accepted, one that straddles it is cut item by item, then 429', async () => {
    const [store] = await stores(1);
    const deps = laneDeps(store);
    const project = projectOf({ limits: { items_per_month: 5 } });
    assert.is((await send(deps, project, [item(), item(), item()])).outcome!.accepted, 3);
    const cut = await send(deps, project, [item(), item({ model: '' }), item(), item()]);
    assert.equal([cut.outcome!.accepted, cut.outcome!.errors.map((e) => [e.index, e.code])],
      [2, [[1, 'VIGIL_ERR_LLM_ITEM_INVALID'], [3, 'VIGIL_ERR_LLM_MONTHLY_LIMIT']]]);
    const full = await send(deps, project, [item()]);
    assert.equal([full.result.refusal?.status, full.result.refusal?.code], [429, 'VIGIL_ERR_LLM_MONTHLY_LIMIT']);
    assert.ok(Number(full.result.refusal!.headers!['Retry-After']) > 0);
    assert.equal([await stored(store), (await month(store)).items], [5, 5]);
  });

  test('concurrency: ten batches of 100 at once from two processes against items_per_month 300 store exactly 300', async () => {
    const handles = await stores(2);
    const deps = handles.map(laneDeps);
    const project = projectOf({ limits: { items_per_month: 300 } });
    const answers = await Promise.all(Array.from({ length: 10 }, (_, b) => send(deps[b % 2], project, Array.from({ length: 100 }, () => item()))));
    const accepted = answers.reduce((sum, a) => sum + (a.outcome?.accepted ?? 0), 0);
    assert.is(accepted, 300);
    assert.ok(answers.some((a) => a.result.refusal?.status === 429), 'the batches past the limit are refused');
    assert.equal([await stored(handles[0]), (await month(handles[0])).items], [300, 300]);
  });

  test('concurrency: a $0.001 budget with sample rate 0 stores calls until the budget is spent, from two processes at once', async () => {
    const handles = await stores(2);
    const deps = handles.map(laneDeps);
    const project = projectOf({ budget: { monthly_usd: 0.001, over_budget_sample_rate: 0 } });
    // 0.0003 USD a call: the fourth call starts past the cap.
    const calls = () => Array.from({ length: 50 }, () => item({ tokens: undefined, cost_usd: 0.0003 }));
    const answers = await Promise.all(Array.from({ length: 10 }, (_, b) => send(deps[b % 2], project, calls())));
    assert.is(answers.reduce((sum, a) => sum + a.outcome!.accepted, 0), 500, 'over budget, items are still accepted (and counted)');
    assert.is(await stored(handles[0]), 4, 'only the calls that started under the cap are stored');
    const [{ cost }] = await handles[0].query<{ cost: number }>('SELECT SUM(cost_usd) AS cost FROM llm_traces');
    assert.ok(Number(cost) <= 0.001 + 0.0003 + 1e-12, `stored cost ${cost}`);
    const m = await month(handles[0]);
    assert.equal([m.items, m.sampled_out], [500, 496]);
  });

  test('a store that refuses the batch: 503 with Retry-After, nothing stored, the month given back', async () => {
    const [store] = await stores(1);
    let failing = true;
    const broken: Store = Object.assign(Object.create(store), {
      transaction: <T>(fn: (tx: Transaction) => Promise<T>) => store.transaction((tx) => fn(Object.assign(Object.create(tx), {
        query: (sql: string, params?: unknown[]) => (failing && sql.startsWith('INSERT INTO llm_traces') ? Promise.reject(new Error('disk full')) : tx.query(sql, params as never)),
      }) as Transaction)),
    });
    const deps = laneDeps(broken);
    const project = projectOf({ limits: { items_per_month: 10 } });
    const items = [item(), item()];
    const refused = await send(deps, project, items);
    assert.equal([refused.result.refusal?.status, refused.result.refusal?.code], [503, 'VIGIL_ERR_LLM_STORE_UNAVAILABLE']);
    assert.match(refused.result.refusal!.message, /disk full/);
    assert.equal([await stored(store), (await month(store)).items], [0, 0]);
    failing = false;
    const retried = await send(deps, project, items);
    assert.equal([retried.outcome!.accepted, await stored(store), (await month(store)).items], [2, 2, 2]);
  });

  test('a row the store refuses alone goes to the dead list, redacted; the rest of the batch is stored', async () => {
    const [store] = await stores(1);
    const poison = item({ name: 'refused-by-store', input: 'from ada@example.com' });
    const picky: Store = Object.assign(Object.create(store), {
      transaction: <T>(fn: (tx: Transaction) => Promise<T>) => store.transaction((tx) => fn(Object.assign(Object.create(tx), {
        query: (sql: string, params?: unknown[]) => (sql.startsWith('INSERT INTO llm_traces') && params?.includes(poison.id) ? Promise.reject(new Error('value too long')) : tx.query(sql, params as never)),
      }) as Transaction)),
    });
    const { outcome, result } = await send(laneDeps(picky), projectOf(), [item(), poison, item()]);
    assert.equal([outcome!.accepted, result.counts.stored, result.counts.dead], [3, 2, 1]);
    const dead = await store.query<{ id: string; reason: string; item: string }>('SELECT id, reason, item FROM llm_dead_items');
    assert.equal(dead.map((d) => d.id), [poison.id]);
    assert.match(dead[0].reason, /value too long/);
    assert.not.ok(dead[0].item.includes('ada@example.com'), 'the dead list keeps the redacted item');
  });

  test('bad bodies are refusals with their status and code, never throws', async () => {
    const [store] = await stores(1);
    const deps = laneDeps(store);
    const project = projectOf({ limits: { items_per_batch: 2 } });
    const refusal = async (bytes: Uint8Array, contentEncoding?: string) => (await runLaneTask(deps, {
      kind: 'traces', ctx: { project, prices: {}, now: Date.now(), withTraces: false },
      body: { bytes, contentType: 'application/json', ...(contentEncoding ? { contentEncoding } : {}) },
    })).refusal;
    const enc = (s: string) => new TextEncoder().encode(s);
    assert.equal((await refusal(enc('{"traces": [')))!.status, 400);
    assert.equal((await refusal(enc(`{"traces":[${'[[[['.repeat(40)}`)))!.code, 'VIGIL_ERR_LLM_TOO_DEEP');
    assert.equal((await refusal(enc('{"traces": [], "x": 1}')))!.code, 'VIGIL_ERR_LLM_BODY');
    assert.equal((await refusal(enc(JSON.stringify({ traces: [item(), item(), item()] }))))!.status, 413);
    assert.equal((await refusal(enc('not gzip'), 'gzip'))!.status, 400);
    assert.equal((await refusal(enc('{}'), 'br'))!.status, 415);
  });

  return test;
}

for (const kind of await backendKinds('llm_lane_accept')) define(kind).run();
