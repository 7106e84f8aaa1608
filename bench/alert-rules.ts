// Benchmark: one tick of the alert engine, 1,000 rules over 1,000,000 stored LLM traces on SQLite: the rules' claim,
// each rule's windows read through the llm plugin's own query (AlertReads.traceWindows, as its service serves them),
// judged, the rule states saved and the events of those that fire written. The rules are 100 projects × 10: gt, lt,
// pct_change (2 windows) and anomaly (25 windows) on requests, error rate, cost and P95 latency, some scoped to a
// template or model. P95 rules are the costly kind (an exact nearest-rank P95 per window, a sort inside the database):
// 300 of the 1,000, one of them an anomaly rule over 25 windows in each project.
//
// Baseline, same store and same run: a bare aggregate query of the same windows for each rule (COUNT, errors, SUM of
// cost over the rule's windows, grouped by window) and, for a P95 rule, one bare `ORDER BY latency_ms LIMIT 1 OFFSET`
// per window with calls, at the engine's concurrency, without the engine.
//
// The traces are generated inside SQLite by one recursive INSERT … SELECT, so the setup stays well under a minute.
//
// Usage: node dist/bench/alert-rules.js [traces, default 1000000]
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { LlmService, Store } from '@vigil/plugin-sdk';
import { AlertingStateStore } from '../plugins/alerts/alerting-state.js';
import { windowsNeeded } from '../plugins/alerts/conditions.js';
import { AlertEngine } from '../plugins/alerts/engine.js';
import { alertsMigrations } from '../plugins/alerts/migrations.js';
import { RuleStore } from '../plugins/alerts/rule-store.js';
import { SourceRegistry } from '../plugins/alerts/source-registry.js';
import { llmSources } from '../plugins/alerts/sources/llm-sources.js';
import type { AlertCondition, AlertRule, RuleInput } from '../plugins/alerts/types.js';
import { AlertReads } from '../plugins/llm/alert-reads.js';
import { llmMigrations } from '../plugins/llm/migrations.js';
import { openStore } from '../runtime/store/index.js';
import { median } from './support/median.js';

const TRACES = Number(process.argv[2] ?? 1_000_000);
const PROJECTS = 100;
const TEMPLATES = ['support-reply', 'summarise-ticket', 'classify', 'extract', 'translate'];
const MODELS = ['gpt-4o-mini', 'gpt-4o', 'claude-3-5-haiku'];
const INTERVAL_MS = 60_000;
const WINDOW_MS = 5 * 60_000;
/** The traces span the anomaly rules' 25 windows and a little more. */
const SPAN_MS = 3 * 3_600_000;
const ROUNDS = 3;
const CONCURRENCY = 8;
const quiet = { debug() {}, info() {}, warn() {}, error() {}, child() { return quiet; } };

/** The 10 rules of one project: a mix of conditions, sources and scopes. */
function rulesOf(p: number): RuleInput[] {
  const project = `p${p}`;
  const shapes: [string, AlertCondition, Record<string, string>][] = [
    ['llm.requests', { type: 'gt', threshold: 5 }, {}],
    ['llm.error_rate', { type: 'gt', threshold: 0.2 }, {}],
    ['llm.cost_usd', { type: 'gt', threshold: 1 }, {}],
    ['llm.requests', { type: 'lt', threshold: 1 }, { template: TEMPLATES[p % TEMPLATES.length] }],
    ['llm.p95_latency_ms', { type: 'gt', threshold: 1000 }, { model: MODELS[p % MODELS.length] }],
    ['llm.requests', { type: 'pct_change', direction: 'either', pct: 50 }, {}],
    ['llm.cost_usd', { type: 'pct_change', direction: 'up', pct: 20 }, { template: TEMPLATES[(p + 1) % TEMPLATES.length] }],
    ['llm.p95_latency_ms', { type: 'pct_change', direction: 'up', pct: 50 }, {}],
    ['llm.requests', { type: 'anomaly' }, {}],
    ['llm.p95_latency_ms', { type: 'anomaly', z: 4 }, { template: TEMPLATES[(p + 2) % TEMPLATES.length] }],
  ];
  return shapes.map(([source, condition, scope], i) => ({
    id: `${project}-r${i}`, name: `${project} rule ${i}`, source, condition, scope: { project, ...scope }, window: WINDOW_MS, cooldown: '1h', min_samples: 1,
  }));
}

/** The traces in one statement, evenly over the span per project; template, model, status and cost vary by row. */
async function fillTraces(store: Store, end: number): Promise<void> {
  const t = store.table('traces');
  // Row order follows the (project, created_at) index, so the inserts append to it rather than scatter.
  const perProject = Math.ceil(TRACES / PROJECTS);
  await store.run(`WITH RECURSIVE n(i) AS (SELECT 0 UNION ALL SELECT i + 1 FROM n WHERE i < ${TRACES - 1})
    INSERT INTO ${t} (id, created_at, project_id, model, status, latency_ms, input_tokens, output_tokens, total_tokens, cost_usd, template, version, trace)
    SELECT 'tr-' || i, ${end} - 1 - (i % ${perProject}) * ${SPAN_MS / perProject}, 'proj-' || (i / ${perProject}),
      CASE (i / ${PROJECTS}) % 3 WHEN 0 THEN '${MODELS[0]}' WHEN 1 THEN '${MODELS[1]}' ELSE '${MODELS[2]}' END,
      CASE WHEN i % 17 = 0 THEN 'error' ELSE 'ok' END, 200 + (i % 900), 300, 60, 360, 0.0001 * (1 + i % 7),
      CASE (i / 7) % 5 ${TEMPLATES.map((name, k) => `WHEN ${k} THEN '${name}'`).join(' ')} END, 1 + i % 3, '{}'
    FROM n`);
}

/** The llm service as far as the rules read it: projects by name, and the plugin's own window query. */
function llmService(store: Store): LlmService {
  const reads = new AlertReads(store);
  return {
    project: async (name: string) => (/^p\d+$/.test(name) ? { id: `proj-${name.slice(1)}`, name } : undefined),
    traceWindows: (q) => reads.traceWindows(q),
  } as Partial<LlmService> as LlmService;
}

/**
 * The same windows, each rule's in one bare grouped aggregate, at the engine's concurrency; for a P95 rule, then the
 * nearest-rank P95 of each window with calls by one bare ORDER BY … LIMIT 1 OFFSET.
 */
async function bareTick(store: Store, rules: readonly AlertRule[], to: number): Promise<void> {
  const queue = [...rules];
  const t = store.table('traces');
  await Promise.all(Array.from({ length: CONCURRENCY }, async () => {
    for (let rule = queue.shift(); rule; rule = queue.shift()) {
      const count = Math.max(1, windowsNeeded(rule.condition));
      const from = to - count * rule.window_ms;
      const where = ['project_id = ?', 'created_at >= ?', 'created_at < ?'];
      const params: (string | number)[] = [`proj-${rule.scope.project!.slice(1)}`, from, to];
      if (rule.scope.template) { where.push('template = ?'); params.push(rule.scope.template); }
      if (rule.scope.model) { where.push('model = ?'); params.push(rule.scope.model); }
      const rows = await store.query<{ slot: number; timed: number }>(`SELECT (created_at - ${from}) / ${rule.window_ms} AS slot, COUNT(*) AS requests,
          SUM(CASE WHEN status = 'error' THEN 1 ELSE 0 END) AS errors, SUM(cost_usd) AS cost, COUNT(latency_ms) AS timed
        FROM ${t} WHERE ${where.join(' AND ')} GROUP BY (created_at - ${from}) / ${rule.window_ms}`, params);
      if (rule.source !== 'llm.p95_latency_ms') continue;
      for (const r of rows) {
        const timed = Number(r.timed);
        if (timed === 0) continue;
        const wFrom = from + Number(r.slot) * rule.window_ms;
        await store.query(`SELECT latency_ms FROM ${t} WHERE ${where.join(' AND ')} AND latency_ms IS NOT NULL ORDER BY latency_ms LIMIT 1 OFFSET ${Math.ceil(0.95 * timed) - 1}`,
          [params[0], wFrom, wFrom + rule.window_ms, ...params.slice(3)]);
      }
    }
  }));
}

async function main(): Promise<void> {
  const dir = mkdtempSync(join(tmpdir(), 'vigil-bench-alerts-'));
  const backend = await openStore(`sqlite:${join(dir, 'vigil.db')}`);
  try {
    const llmStore = backend.forPlugin('llm');
    const alertsStore = backend.forPlugin('alerts');
    await llmStore.migrate(llmMigrations);
    await alertsStore.migrate(alertsMigrations);
    const end = Math.floor(Date.now() / INTERVAL_MS) * INTERVAL_MS;
    const setup = performance.now();
    await fillTraces(llmStore, end);
    const setupS = (performance.now() - setup) / 1000;

    const rules = new RuleStore(alertsStore);
    await rules.syncConfig(Array.from({ length: PROJECTS }, (_, p) => rulesOf(p)).flat());
    const all = await rules.list();
    const sources = new SourceRegistry();
    for (const s of llmSources(llmService(llmStore))) sources.register(s, 'llm');
    let notices = 0;
    // Each round is the next tick (a tick claims each rule once), its windows a minute later over the same traces.
    let tickAt = end;
    const engine = new AlertEngine({
      store: alertsStore, rules, control: new AlertingStateStore(alertsStore), sources, intervalMs: INTERVAL_MS, flappingTransitions: 6,
      log: quiet, now: () => tickAt, concurrency: CONCURRENCY, notifier: { notify: async () => { notices++; } },
    });

    const ours: number[] = [];
    const bare: number[] = [];
    let evaluated = 0;
    let errors = 0;
    for (let r = 0; r < ROUNDS; r++) {
      tickAt = end + r * INTERVAL_MS;
      let t = performance.now();
      const report = await engine.tick();
      ours.push(performance.now() - t);
      evaluated = report.evaluated;
      errors += report.errors;
      t = performance.now();
      await bareTick(llmStore, all, tickAt);
      bare.push(performance.now() - t);
    }
    if (evaluated !== all.length || errors) throw new Error(`the tick evaluated ${evaluated} of ${all.length} rules, ${errors} errors`);
    const o = median(ours);
    const b = median(bare);
    const p95Rules = all.filter((r) => r.source === 'llm.p95_latency_ms').length;
    console.log(`alert rules: one tick of ${all.length} rules (${p95Rules} on P95 latency) over ${TRACES.toLocaleString('en-US')} traces in ${(o / 1000).toFixed(2)} s (ratio ${(o / b).toFixed(2)} vs bare aggregate queries of the same windows at ${(b / 1000).toFixed(2)} s; budget: well inside the 60 s tick; median of ${ROUNDS} ticks, ${notices} notices queued)`);
    console.log(`  ticks ${ours.map((x) => (x / 1000).toFixed(2)).join(', ')} s; bare ${bare.map((x) => (x / 1000).toFixed(2)).join(', ')} s; traces generated in ${setupS.toFixed(1)} s`);
  } finally {
    await backend.close();
    rmSync(dir, { recursive: true, force: true });
  }
}

if (process.argv[1] === fileURLToPath(import.meta.url)) await main();
