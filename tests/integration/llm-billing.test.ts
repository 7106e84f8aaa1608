// Billing against the stored rows (issue 35, section 2): a run of generated traces (thousands, dated across the last
// week of days, so across a month's boundary early in a month; four projects on plans; some failed calls, some priced
// by Vigil, a batch sent twice, a project past its items limit) stored through the real ingest, an LLM judge with a
// cost on one project, and then: the billing figures equal SQL sums over llm_traces and evaluators_results for every
// month the traces fall in; the CSV parses and says the same; the usage export pages through CloudEvents whose sums
// are the same, with the same ids and data when exported again; plan usage fires the alert engine's rules (near at
// 80 %, over at 100 %) and leaves a project far from its limits alone. SQLite, and PostgreSQL where it answers.
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { randomUUID } from 'node:crypto';
import { billingMonth } from '../../plugins/llm/billing/billing-query.js';
import { decodeCursor, readUsageEvents, type EventCursor, type UsageEvent } from '../../plugins/llm/billing/usage-events.js';
import { openStore } from '../../runtime/store/index.js';
import { startFakeOpenAI, type FakeOpenAI } from '../support/fake-openai.js';
import { llmClient, type Json } from '../support/llm-client.js';
import { freePort, waitFor } from '../support/net.js';
import { freshPostgresSchema, postgresAvailable } from '../support/postgres.js';
import { tempDir } from '../support/tmp.js';
import { startVigil, writeConfig, type VigilProcess } from '../support/vigil-process.js';

const TOKEN = 'billing-dashboard-token-0123';
const KEYS = { alpha: 'billing-alpha-key-0123456789', beta: 'billing-beta-key-0123456789', gamma: 'billing-gamma-key-0123456789', delta: 'billing-delta-key-0123456789' };
const SENT = { alpha: 850, beta: 1800, gamma: 520, delta: 40 };
const DAY = 86_400_000;

/** A seeded generator: a failing run sends the same traces again. */
function random(seed: number): () => number {
  let s = seed >>> 0;
  return () => { s = (Math.imul(s, 1664525) + 1013904223) >>> 0; return s / 2 ** 32; };
}

/** `n` calls dated across the last 6.8 days (a trace takes its start time up to 7 days back), a few older or undated. */
function calls(n: number, seed: number): Json[] {
  const r = random(seed);
  const now = Date.now();
  return Array.from({ length: n }, (_, i) => {
    const item: Json = {
      id: randomUUID(), model: 'gpt-4o-mini-2024-07-18', latency_ms: Math.round(100 + r() * 900),
      tokens: { input: 100 + Math.floor(r() * 1900), output: 10 + Math.floor(r() * 490) },
      input: [{ role: 'user', content: `question ${i}` }], output: { role: 'assistant', content: `answer ${i}` },
    };
    const kind = r();
    if (kind < 0.9) item.start_time = new Date(now - 60_000 - Math.floor(r() * 6.8 * DAY)).toISOString();
    else if (kind < 0.95) item.start_time = new Date(now - 20 * DAY).toISOString(); // older than a week: stamped on arrival
    if (r() < 0.5) item.cost_usd = Math.round(r() * 1e6) / 1e8; // else priced from the table
    if (r() < 1 / 13) { item.status = 'error'; item.error = 'upstream timeout'; }
    return item;
  });
}

/** RFC 4180, as the export writes it: every field quoted, CRLF lines. */
function parseCsv(text: string): string[][] {
  const rows: string[][] = [];
  let row: string[] = [];
  let field = '';
  let quoted = false;
  for (let i = 0; i < text.length; i++) {
    const c = text[i];
    if (quoted) {
      if (c === '"' && text[i + 1] === '"') { field += '"'; i++; } else if (c === '"') quoted = false; else field += c;
    } else if (c === '"') quoted = true;
    else if (c === ',') { row.push(field); field = ''; } else if (c === '\r' && text[i + 1] === '\n') { row.push(field); rows.push(row); row = []; field = ''; i++; } else field += c;
  }
  assert.is(row.length + field.length, 0, 'the CSV ends with a line break');
  return rows;
}

const close = (actual: number, expected: number, what: string) =>
  assert.ok(Math.abs(actual - expected) <= 1e-9 + 1e-9 * Math.abs(expected), `${what}: ${actual} ≠ ${expected}`);

interface Ctx { base: string; vigil: VigilProcess; fake: FakeOpenAI; storeUrl: string; api: ReturnType<typeof llmClient> }

function define(backend: 'sqlite' | 'postgres') {
  const test = suite<Ctx>(`llm billing (${backend})`);
  const work = tempDir('vigil-llm-billing-');
  let schema: Awaited<ReturnType<typeof freshPostgresSchema>> | undefined;

  test.before(async (ctx) => {
    ctx.fake = await startFakeOpenAI({ delayMs: 0, chat: () => ({ score: 80, reasoning: 'Fine.' }) });
    const port = await freePort();
    ctx.base = `http://127.0.0.1:${port}`;
    if (backend === 'postgres') schema = await freshPostgresSchema('llm_billing');
    ctx.storeUrl = schema?.url ?? `sqlite:${work.path}/data/vigil.db`;
    const file = writeConfig(work.path, `data_dir: ${work.path}/data
${schema ? `storage: { url: "${schema.url}" }\n` : ''}control_plane: { listen: 127.0.0.1:${port}, token: ${TOKEN} }
llm:
  plans:
    starter: { description: Small teams, limits: { items_per_month: 1000, items_per_batch: 250 }, budget: { monthly_usd: 500 }, retention: 90d }
    pro: { limits: { items_per_month: 100000 }, budget: { monthly_usd: 5000 } }
  defaults: { plan: pro }
  projects:
    - { name: alpha, key: ${KEYS.alpha}, plan: starter }
    - { name: beta, key: ${KEYS.beta} }
    - { name: gamma, key: ${KEYS.gamma}, plan: starter, limits: { items_per_month: 500 } }
    - { name: delta, key: ${KEYS.delta} }
evaluators:
  rate_per_minute: 6000
  providers:
    judge: { base_url: "${ctx.fake.baseURL}", model: gpt-4o-mini, api_key_env: BILLING_JUDGE_KEY, timeout: 5s }
  definitions:
    - { id: judge, project: delta, name: Judge, type: llm_judge, sample_rate: 1, settings: { provider: judge, rubric: "Question: {{input}}\\nAnswer: {{output}}\\nGrade it." } }
alerts:
  interval: 1s
  rules:
    - { id: near, name: Alpha near its plan, source: llm.plan_usage, scope: { project: alpha }, condition: { type: gte, threshold: 0.8 }, window: 1m }
    - { id: over, name: Gamma over its plan, source: llm.plan_usage, scope: { project: gamma }, condition: { type: gte, threshold: 1 }, window: 1m, severity: critical }
    - { id: quiet, name: Beta near its plan, source: llm.plan_usage, scope: { project: beta }, condition: { type: gte, threshold: 0.8 }, window: 1m }
`);
    ctx.vigil = await startVigil(file, ctx.base, { cwd: work.path, env: { BILLING_JUDGE_KEY: 'sk-billing-judge' } });
    ctx.api = llmClient(ctx.base);

    // Each project's calls in batches of 200, the projects at once; gamma's third batch passes its limit of 500.
    let seed = 35;
    const firstBatch: Record<string, Json[]> = {};
    await Promise.all(Object.entries(SENT).map(async ([name, n]) => {
      const items = calls(n, seed++);
      for (let i = 0; i < items.length; i += 200) {
        const batch = items.slice(i, i + 200);
        firstBatch[name] ??= batch;
        const r = await ctx.api.ingest(KEYS[name as keyof typeof KEYS], { traces: batch });
        assert.is(r.status, 202, JSON.stringify(r.body).slice(0, 300));
      }
    }));
    // A client's retry of beta's first batch: stored once, so billed once.
    const again = await ctx.api.ingest(KEYS.beta, { traces: firstBatch.beta });
    assert.is(again.status, 202);
    await waitFor(async () => {
      const r = await ctx.api.get(KEYS.delta, '/api/v1/eval-results?limit=200');
      return r.body.data?.filter((e: Json) => e.status === 'ok').length === SENT.delta ? true : null;
    }, { what: 'the judge scored every delta trace', timeoutMs: 60_000 });
  });

  test.after(async (ctx) => {
    await ctx.vigil?.stop('SIGKILL');
    await ctx.fake?.close();
    await schema?.drop();
    work.cleanup();
  });

  /** What the stored rows say, per project and month of the traces' time: summed in SQL. */
  async function storedSums(ctx: Ctx) {
    const store = await openStore(ctx.storeUrl);
    try {
      const q = store.forPlugin('llm');
      const months = (await q.query<{ created_at: number }>('SELECT MIN(created_at) AS created_at FROM llm_traces UNION ALL SELECT MAX(created_at) FROM llm_traces'))
        .map((r) => new Date(Number(r.created_at)).toISOString().slice(0, 7));
      const out = new Map<string, Map<string, Json>>();
      for (const month of new Set(months)) {
        const { from, to } = billingMonth(month);
        const traces = await q.query<Json>(
          `SELECT p.name, COUNT(*) AS items, SUM(CASE WHEN t.status = 'error' THEN 1 ELSE 0 END) AS errors, SUM(t.input_tokens) AS input_tokens,
             SUM(t.output_tokens) AS output_tokens, SUM(t.cost_usd) AS cost_usd
           FROM llm_traces t JOIN llm_projects p ON p.id = t.project_id WHERE t.created_at >= ? AND t.created_at < ? GROUP BY p.name`, [from, to]);
        const evals = await q.query<Json>(
          `SELECT p.name, SUM(r.cost_usd) AS usd FROM evaluators_results r JOIN llm_projects p ON p.id = r.project_id
           WHERE r.trace_created_at >= ? AND r.trace_created_at < ? GROUP BY p.name`, [from, to]);
        const usage = await q.query<Json>('SELECT p.name, u.items, u.cost_usd FROM llm_usage u JOIN llm_projects p ON p.id = u.project_id WHERE u.month = ?', [month]);
        const byName = new Map<string, Json>();
        for (const name of Object.keys(SENT)) {
          const t = traces.find((r) => r.name === name);
          const u = usage.find((r) => r.name === name);
          byName.set(name, {
            items: Number(t?.items ?? 0), errors: Number(t?.errors ?? 0), input_tokens: Number(t?.input_tokens ?? 0), output_tokens: Number(t?.output_tokens ?? 0),
            cost_usd: Number(t?.cost_usd ?? 0), eval_cost_usd: Number(evals.find((r) => r.name === name)?.usd ?? 0),
            counted_items: Number(u?.items ?? 0), counted_cost: Number(u?.cost_usd ?? 0),
          });
        }
        out.set(month, byName);
      }
      return out;
    } finally {
      await store.close();
    }
  }

  const dash = (ctx: Ctx, path: string) => ctx.api.dashboard(TOKEN, path);

  test('the month\'s figures per project equal the stored rows summed in SQL, in every month the traces fall in', async (ctx) => {
    const sums = await storedSums(ctx);
    let total = 0;
    for (const [month, expected] of sums) {
      const r = await dash(ctx, `/api/llm/billing?month=${month}`);
      assert.is(r.status, 200, JSON.stringify(r.body));
      assert.is(r.body.month, month);
      assert.equal(r.body.data.map((b: Json) => b.project), ['alpha', 'beta', 'delta', 'gamma']);
      for (const bill of r.body.data as Json[]) {
        const e = expected.get(bill.project)!;
        assert.equal([bill.items, bill.errors, bill.input_tokens, bill.output_tokens], [e.items, e.errors, e.input_tokens, e.output_tokens], `${month} ${bill.project}`);
        close(bill.cost_usd, e.cost_usd, `${month} ${bill.project} cost`);
        close(bill.eval_cost_usd, e.eval_cost_usd, `${month} ${bill.project} eval cost`);
        close(bill.total_cost_usd, e.cost_usd + e.eval_cost_usd, `${month} ${bill.project} total`);
        assert.is(bill.counted.items, e.counted_items);
        close(bill.counted.cost_usd, e.counted_cost, `${month} ${bill.project} counted cost`);
        total += bill.items;
      }
    }
    // Every stored trace is billed once: beta's resent batch added nothing, gamma's 20 over its limit were refused.
    assert.is(total, SENT.alpha + SENT.beta + 500 + SENT.delta);
    const now = (await dash(ctx, '/api/llm/billing')).body;
    const delta = now.data.find((b: Json) => b.project === 'delta');
    assert.ok(delta.eval_cost_usd > 0 || [...sums.values()].some((m) => m.get('delta')!.eval_cost_usd > 0), 'the judge cost something');
    // Ingest counts what it accepted in the month the calls arrived, the resent batch too: that is what limits hold to.
    assert.is(now.data.find((b: Json) => b.project === 'beta').counted.items, SENT.beta + 200);
  });

  test('plans feed the limits: near at 80 %, over at the limit, a project\'s own limit over its plan\'s', async (ctx) => {
    const r = await dash(ctx, '/api/llm/billing');
    const of = (name: string) => r.body.data.find((b: Json) => b.project === name);
    assert.equal([of('alpha').plan, of('alpha').state, of('alpha').limits[0]], ['starter', 'near', { name: 'items_per_month', used: 850, limit: 1000, ratio: 0.85, state: 'near' }]);
    assert.equal([of('gamma').plan, of('gamma').state, of('gamma').limits[0].used, of('gamma').limits[0].limit], ['starter', 'over', 500, 500]);
    assert.equal([of('beta').plan, of('beta').state, of('beta').plan_limits.items_per_month, of('beta').plan_limits.monthly_usd], ['pro', 'ok', 100000, 5000]);
    assert.equal([of('alpha').plan_limits.items_per_batch, of('alpha').plan_limits.retention_ms], [250, 90 * DAY]);
    const projects = await dash(ctx, '/api/llm/projects');
    assert.is(projects.body.data.find((p: Json) => p.name === 'alpha').effective.plan, 'starter');
    // The plan's batch size is enforced by ingest like a project's own.
    const big = await ctx.api.ingest(KEYS.alpha, { traces: calls(251, 1) });
    assert.is(big.status, 413, JSON.stringify(big.body));
    // A project made on the dashboard takes a plan in its settings; one llm.plans lacks is refused by its key path.
    const create = (plan: string) => ctx.api.dashboard(TOKEN, '/api/llm/projects', { method: 'POST', body: JSON.stringify({ name: 'epsilon', settings: { plan } }) });
    const gold = await create('gold');
    assert.equal([gold.status, gold.body.error.code], [400, 'VIGIL_ERR_LLM_PROJECT_SETTINGS']);
    assert.match(gold.body.error.message, /^settings\.plan: there is no plan "gold" in llm\.plans \(plans: starter, pro\)/);
    const made = await create('starter');
    assert.is(made.status, 201, JSON.stringify(made.body));
    assert.equal([made.body.project.effective.plan, made.body.project.effective.itemsPerMonth], ['starter', 1000]);
  });

  test('the CSV parses and says what the JSON says; a bad month is refused', async (ctx) => {
    const month = new Date().toISOString().slice(0, 7);
    const json = (await dash(ctx, `/api/llm/billing?month=${month}`)).body.data as Json[];
    const r = await dash(ctx, `/api/llm/billing.csv?month=${month}`);
    assert.is(r.status, 200);
    assert.match(r.headers.get('content-type') ?? '', /^text\/csv/);
    assert.match(r.headers.get('content-disposition') ?? '', new RegExp(`vigil-llm-billing-${month}\\.csv`));
    const [header, ...rows] = parseCsv(r.body as string);
    assert.equal(header, ['month', 'project', 'plan', 'items', 'errors', 'input_tokens', 'output_tokens', 'app_cost_usd', 'eval_cost_usd',
      'total_cost_usd', 'items_counted', 'items_per_month', 'spend_counted_usd', 'budget_usd', 'state']);
    assert.is(rows.length, json.length);
    for (const [i, row] of rows.entries()) {
      const b = json[i];
      const cell = Object.fromEntries(header.map((h, j) => [h, row[j]]));
      assert.equal([cell.month, cell.project, cell.plan, cell.state], [month, b.project, b.plan ?? '', b.state]);
      assert.equal([Number(cell.items), Number(cell.errors), Number(cell.input_tokens), Number(cell.output_tokens), Number(cell.items_counted)],
        [b.items, b.errors, b.input_tokens, b.output_tokens, b.counted.items]);
      close(Number(cell.app_cost_usd), b.cost_usd, 'csv cost');
      close(Number(cell.eval_cost_usd), b.eval_cost_usd, 'csv eval cost');
      close(Number(cell.total_cost_usd), b.total_cost_usd, 'csv total');
      assert.is(cell.items_per_month === '' ? null : Number(cell.items_per_month), b.plan_limits.items_per_month);
    }
    const bad = await dash(ctx, '/api/llm/billing.csv?month=2026-13');
    assert.is(bad.status, 400);
    assert.is(bad.body.error.code, 'VIGIL_ERR_HTTP_INVALID_QUERY');
  });

  test('the usage export: CloudEvents of days that are over, paged, the same ids and data when sent again, summing to the bill', async (ctx) => {
    const today = await dash(ctx, '/api/llm/billing/events');
    assert.is(today.status, 200, JSON.stringify(today.body));
    // Every call arrived today: until the day is over nothing is final, so nothing is exported.
    assert.equal([today.body.data, today.body.next, today.body.closed_before], [[], null, new Date().toISOString().slice(0, 10)]);
    assert.is((await dash(ctx, '/api/llm/billing/events?after=nonsense')).body.error.code, 'VIGIL_ERR_LLM_BILLING_CURSOR');

    // Tomorrow's export, read by the route's own function over the same store.
    const store = await openStore(ctx.storeUrl);
    try {
      const llm = store.forPlugin('llm');
      const tomorrow = Date.now() + DAY;
      const exportMonth = async (month: string): Promise<UsageEvent[]> => {
        const events: UsageEvent[] = [];
        let after: EventCursor | null = null;
        for (let pages = 0; pages < 100; pages++) {
          const page = await readUsageEvents(llm, billingMonth(month), after, 7, tomorrow);
          assert.ok(page.data.length <= 7);
          events.push(...page.data);
          if (!page.next) return events;
          after = decodeCursor(page.next);
        }
        throw new Error('the export did not end');
      };
      const sums = await storedSums(ctx);
      for (const [month, expected] of sums) {
        const events = await exportMonth(month);
        assert.ok(events.length > 0);
        for (const e of events) {
          assert.equal([e.specversion, e.source, e.type, e.datacontenttype], ['1.0', '/vigil/llm', 'vigil.llm.usage', 'application/json']);
          assert.is(e.time.slice(0, 7), month);
          assert.is(e.subject, e.data.project);
        }
        assert.is(new Set(events.map((e) => e.id)).size, events.length, 'ids are unique');
        for (const [name, e] of expected) {
          const mine = events.filter((ev) => ev.subject === name);
          assert.is(mine.reduce((s, ev) => s + ev.data.items, 0), e.items, `${month} ${name} items`);
          assert.is(mine.reduce((s, ev) => s + ev.data.input_tokens, 0), e.input_tokens);
          assert.is(mine.reduce((s, ev) => s + ev.data.output_tokens, 0), e.output_tokens);
          close(mine.reduce((s, ev) => s + ev.data.cost_usd, 0), e.cost_usd, `${month} ${name} events cost`);
        }
        assert.equal(await exportMonth(month), events, 'exported again: the same events');
      }
    } finally {
      await store.close();
    }
  });

  test('plan usage fires the alert engine: alpha near its items limit, gamma over it, beta far from its own', async (ctx) => {
    const events = async (rule: string) => (await dash(ctx, `/api/alerts/events?rule_id=${rule}`)).body.data as Json[];
    const [near] = (await waitFor(async () => { const l = await events('near'); return l.length ? l : null; }, { what: 'the near rule fired', timeoutMs: 15_000 }))!;
    // It fires at the tick that first sees alpha at 80 % or more: while the batches arrive (800 of 1,000), or after (850).
    assert.equal([near.status, near.source, near.threshold], ['firing', 'llm.plan_usage', 0.8]);
    assert.ok(near.value >= 0.8 && near.value <= 0.85, String(near.value));
    const [over] = (await waitFor(async () => { const l = await events('over'); return l.length ? l : null; }, { what: 'the over rule fired', timeoutMs: 15_000 }))!;
    assert.equal([over.status, over.value, over.severity], ['firing', 1, 'critical']);
    assert.equal(await events('quiet'), []);
    const sources = (await dash(ctx, '/api/alerts/sources')).body;
    const listed = (Array.isArray(sources) ? sources : sources.data).find((s: Json) => s.id === 'llm.plan_usage');
    assert.equal([listed.unit, listed.plugin], ['ratio', 'a plugin']);
  });

  return test;
}

const withPostgres = await postgresAvailable('llm-billing');
define('sqlite').run();
if (withPostgres) define('postgres').run();
