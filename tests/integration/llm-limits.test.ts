// Limits and budgets hold under concurrency, through the real routes: ten batches of 100 at once against
// items_per_month 300, and calls at once against a $0.001 budget with sample rate 0; on SQLite with one `vigil run`,
// and on PostgreSQL with two processes taking the batches in turns. The month is reserved before a batch is stored,
// so the overshoot is zero in both (the README promises at most one batch per extra process).
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { randomUUID } from 'node:crypto';
import { llmClient, traceItem } from '../support/llm-client.js';
import { freePort } from '../support/net.js';
import { freshPostgresSchema, postgresAvailable } from '../support/postgres.js';
import { tempDir } from '../support/tmp.js';
import { startVigil, writeConfig, type VigilProcess } from '../support/vigil-process.js';

const TOKEN = 'limits-token';
const LIMITED = 'limits-items-key-0123456789';
const BUDGETED = 'limits-budget-key-0123456789';

async function startProcesses(count: number, storage: string): Promise<{ bases: string[]; procs: VigilProcess[]; work: ReturnType<typeof tempDir> }> {
  const work = tempDir('vigil-llm-limits-');
  const bases: string[] = [];
  const procs: VigilProcess[] = [];
  for (let i = 0; i < count; i++) {
    const port = await freePort();
    bases.push(`http://127.0.0.1:${port}`);
    const file = writeConfig(work.path, `data_dir: ${work.path}/data
${storage}control_plane: { listen: 127.0.0.1:${port}, token: ${TOKEN} }
llm:
  projects:
    - { name: limited, key: ${LIMITED}, limits: { items_per_month: 300 } }
    - { name: budgeted, key: ${BUDGETED}, budget: { monthly_usd: 0.001, over_budget_sample_rate: 0 } }
`, `vigil-${i}.yaml`);
    procs.push(await startVigil(file, bases[i], { cwd: work.path }));
  }
  return { bases, procs, work };
}

/** Traces stored for a key, counted through the public API (every page). */
async function storedCount(base: string, key: string): Promise<{ count: number; cost: number }> {
  const api = llmClient(base);
  let count = 0;
  let cost = 0;
  let next: string | null = null;
  do {
    const r = await api.get(key, `/api/v1/traces?limit=200${next ? `&before=${next}` : ''}`);
    assert.is(r.status, 200, JSON.stringify(r.body));
    for (const t of r.body.data as { cost_usd: number | null }[]) {
      count++;
      cost += t.cost_usd ?? 0;
    }
    next = r.body.next;
  } while (next);
  return { count, cost };
}

function define(name: string, processes: number, storage: () => Promise<{ text: string; drop(): Promise<void> } | null>) {
  const test = suite(`llm limits under concurrency (${name})`);
  let bases: string[] = [];
  let procs: VigilProcess[] = [];
  let cleanup = async () => {};

  test.before(async () => {
    const s = await storage();
    const started = await startProcesses(processes, s?.text ?? '');
    ({ bases, procs } = started);
    cleanup = async () => {
      await Promise.all(procs.map((p) => p.stop('SIGKILL')));
      await s?.drop();
      started.work.cleanup();
    };
  });
  test.after(() => cleanup());

  test('ten batches of 100 at once against items_per_month 300: exactly 300 accepted and stored, the rest refused', async () => {
    const answers = await Promise.all(Array.from({ length: 10 }, (_, b) =>
      llmClient(bases[b % bases.length]).ingest(LIMITED, { traces: Array.from({ length: 100 }, () => traceItem({ id: randomUUID() })) })));
    let accepted = 0;
    for (const a of answers) {
      if (a.status === 202) accepted += a.body.accepted;
      else assert.equal([a.status, a.body.error.code], [429, 'VIGIL_ERR_LLM_MONTHLY_LIMIT']);
    }
    assert.is(accepted, 300, `accepted ${accepted}`);
    assert.is((await storedCount(bases[0], LIMITED)).count, 300);
  });

  test('calls at once against a $0.001 budget with sample rate 0: stored spend passes the cap by one call at most', async () => {
    // 0.0003 USD a call: three fit under the cap, the fourth starts under it and passes it, the rest start past it.
    const calls = () => Array.from({ length: 50 }, () => traceItem({ id: randomUUID(), cost_usd: 0.0003 }));
    const answers = await Promise.all(Array.from({ length: 10 }, (_, b) => llmClient(bases[b % bases.length]).ingest(BUDGETED, { traces: calls() })));
    for (const a of answers) assert.is(a.status, 202, JSON.stringify(a.body));
    assert.is(answers.reduce((sum, a) => sum + a.body.accepted, 0), 500, 'over budget, calls are accepted and counted');
    assert.is(answers.reduce((sum, a) => sum + a.body.sampled_out, 0), 496);
    const stored = await storedCount(bases[0], BUDGETED);
    assert.is(stored.count, 4);
    assert.ok(stored.cost <= 0.001 + 0.0003 + 1e-9, `stored spend ${stored.cost}`);
  });

  return test;
}

// Both suites are started in one turn, so uvu prints one total for the file.
const withPostgres = await postgresAvailable('llm-limits');
define('SQLite, one process', 1, async () => null).run();
if (withPostgres) {
  define('PostgreSQL, two processes', 2, async () => {
    const schema = await freshPostgresSchema('llm_limits');
    return { text: `storage: { url: "${schema.url}" }\n`, drop: () => schema.drop() };
  }).run();
}
