import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import type { PersistedTrace, QueuedJob, Store, Transaction } from '@vigil/plugin-sdk';
import { governJson } from '../../../../policies/govern-json.js';
import { effectiveSettings } from '../../../../plugins/llm/effective-settings.js';
import { EvalHooks } from '../../../../plugins/llm/eval-hooks.js';
import type { PersistPayload, QueuedItem } from '../../../../plugins/llm/ingest-pipeline.js';
import { llmMigrations } from '../../../../plugins/llm/migrations.js';
import { ISOLATE_FROM_ATTEMPT, PersistStage } from '../../../../plugins/llm/persist-stage.js';
import { PromptVersions } from '../../../../plugins/llm/prompt-versions.js';
import type { LlmProject } from '../../../../plugins/llm/types.js';
import { backendKinds, recordingLog, type BackendKind } from '../../runtime/store/backend-kinds.js';

const project: LlmProject = { id: 'p1', name: 'alpha', source: 'store', settings: effectiveSettings({ redact: { json_fields: ['$.metadata.secret'] } }, {}, 5e6) };
let n = 0;
const item = (o: Partial<QueuedItem> = {}): QueuedItem => ({ id: `00000000-0000-7000-8000-${String(++n).padStart(12, '0')}`, created_at: 1_700_000_000_000, model: 'm', ...o });
const job = (items: QueuedItem[], attempt = 1): QueuedJob<PersistPayload> => ({ id: 1, queue: 'llm.persist', attempt, payload: { project: 'p1', items } });

function define(kind: BackendKind) {
  const test = suite(`persist stage (${kind.name})`);
  test.after(() => kind.cleanup());

  async function setup(options: { governJson?: typeof governJson; wrap?: (s: Store) => Store; hook?: () => void } = {}) {
    const store = (await kind.open(await kind.fresh())).forPlugin('llm');
    await store.migrate(llmMigrations);
    const published: PersistedTrace[] = [];
    const hooked: PersistedTrace[] = [];
    const announced: [string, number][] = [];
    const counts = { stored: 0, duplicate: 0, dead: 0, projectGone: 0, hookFailures: 0 };
    const hooks = new EvalHooks(recordingLog(), () => counts.hookFailures++);
    hooks.add(async (t) => { options.hook?.(); hooked.push(...t); });
    const stage = new PersistStage({
      store: options.wrap ? options.wrap(store) : store,
      log: recordingLog(),
      project: async (id) => (id === 'p1' ? project : undefined),
      versions: new PromptVersions(store, () => {}),
      governJson: options.governJson ?? governJson,
      hooks,
      publish: (t) => published.push(t),
      announce: (p, n) => announced.push([p.name, n]),
      counters: {
        stored: (x) => { counts.stored += x; }, duplicate: (x) => { counts.duplicate += x; },
        dead: (x) => { counts.dead += x; }, projectGone: (x) => { counts.projectGone += x; },
      },
    });
    const rows = async () => (await store.query<{ id: string; trace: string }>('SELECT id, trace FROM llm_traces ORDER BY id')).map((r) => ({ id: r.id, ...JSON.parse(r.trace) }));
    const dead = () => store.query<{ id: string; reason: string; item: string | null }>('SELECT id, reason, item FROM llm_dead_items ORDER BY id');
    return { stage, store, published, hooked, announced, counts, rows, dead };
  }

  test('stores redacted traces once; a retried job stores, publishes and hooks nothing again', async () => {
    const s = await setup();
    const items = [
      item({ input: 'from ada@example.com', metadata: { secret: 'hunter2' }, prompt_template: { name: 't', raw: 'Hi {{x}}', variables: { x: 'bob@example.com' } } }),
      item({ status: 'error', error: 'failed' }),
    ];
    await s.stage.run(job(items));
    await s.stage.run(job(items, 2));
    const rows = await s.rows();
    assert.is(rows.length, 2);
    assert.is(rows[0].input, 'from [REDACTED]');
    assert.is(rows[0].metadata.secret, '[REDACTED]');
    assert.is(rows[0].prompt_template.variables.x, '[REDACTED]');
    assert.equal([rows[0].prompt_template.name, rows[0].prompt_template.version], ['t', 1]);
    assert.is(rows[1].status, 'error');
    assert.equal([s.published.length, s.hooked.length, s.counts.stored, s.counts.duplicate], [2, 2, 2, 2]);
    assert.equal(s.announced, [['alpha', 2]], 'the dashboard hears of the batch once, and of nothing on the retry');
    assert.not.ok(JSON.stringify(s.published).includes('ada@example.com'));
  });

  test('an item that cannot be redacted goes to the dead list, the others are stored; never retried', async () => {
    const s = await setup({ governJson: (value, rules) => { if (JSON.stringify(value).includes('poison')) throw new Error('cannot govern'); return governJson(value, rules); } });
    const bad = item({ input: 'poison ada@example.com' });
    await s.stage.run(job([item(), bad, item()]));
    assert.is((await s.rows()).length, 2);
    const dead = await s.dead();
    assert.equal(dead.map((d) => [d.id, d.item]), [[bad.id, null]]);
    assert.match(dead[0].reason, /cannot govern/);
    assert.is(s.counts.dead, 1);
  });

  test('items of a deleted project are dropped and counted; a failing hook never fails the batch', async () => {
    const s = await setup({ hook: () => { throw new Error('eval queue down'); } });
    await s.stage.run({ ...job([item()]), payload: { project: 'gone', items: [item()] } });
    assert.is(s.counts.projectGone, 1);
    await s.stage.run(job([item()]));
    assert.equal([(await s.rows()).length, s.counts.hookFailures], [1, 1]);
  });

  test('a row the store refuses: the batch fails (and is retried) until attempt 3, then that row alone goes to the dead list', async () => {
    const poison = item({ name: 'refused-by-store' });
    const wrap = (store: Store): Store => Object.assign(Object.create(store), {
      transaction: <T>(fn: (tx: Transaction) => Promise<T>) => store.transaction((tx) => fn(Object.assign(Object.create(tx), {
        query: (sql: string, params?: unknown[]) => {
          if (sql.startsWith('INSERT INTO llm_traces') && params?.includes(poison.id)) return Promise.reject(new Error('value too long'));
          return tx.query(sql, params as never);
        },
      }) as Transaction)),
    });
    const s = await setup({ wrap });
    const items = [item(), poison, item()];
    try {
      await s.stage.run(job(items, ISOLATE_FROM_ATTEMPT - 1));
      assert.unreachable('the first attempts must fail');
    } catch (err) {
      assert.match((err as Error).message, /value too long/);
    }
    assert.is((await s.rows()).length, 0);
    await s.stage.run(job(items, ISOLATE_FROM_ATTEMPT));
    assert.is((await s.rows()).length, 2);
    const dead = await s.dead();
    assert.equal(dead.map((d) => d.id), [poison.id]);
    assert.ok(dead[0].item !== null && !dead[0].item.includes('ada@'), 'the dead list keeps the redacted item');
  });

  return test;
}

for (const kind of await backendKinds('llm_persist_stage')) define(kind).run();
