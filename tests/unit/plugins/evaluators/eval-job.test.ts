// The eval queue's handler with the real stores (SQLite), the real rate and a judge behind the local fake OpenAI
// server: it waits for its rate slot without spending attempts, retries a provider failure until the last attempt,
// then stores a failed result; every stored result is published for the alerts.
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { JobDeferral, type EvalResultEvent, type PersistedTrace, type QueuedJob, type Store } from '@vigil/plugin-sdk';
import { DefinitionStore } from '../../../../plugins/evaluators/definitions.js';
import { EmbeddingCache } from '../../../../plugins/evaluators/embedding-cache.js';
import { ProviderUnavailable } from '../../../../plugins/evaluators/errors.js';
import { EvalJobs, type EvalJobPayload } from '../../../../plugins/evaluators/eval-job.js';
import { evaluate, type EvaluateDeps } from '../../../../plugins/evaluators/evaluate.js';
import { GoldenSets } from '../../../../plugins/evaluators/golden-sets.js';
import { evaluatorsMigrations } from '../../../../plugins/evaluators/migrations.js';
import { RateLimiter } from '../../../../plugins/evaluators/rate-limit.js';
import { ResultStore } from '../../../../plugins/evaluators/results-store.js';
import { openStore, type StoreBackend } from '../../../../runtime/store/index.js';
import { startFakeOpenAI, type FakeOpenAI } from '../../../support/fake-openai.js';
import { tempDir } from '../../../support/tmp.js';

const quiet = { debug() {}, info() {}, warn() {}, error() {}, child() { return quiet; } };
const dir = tempDir('vigil-evals-job-');
let backend: StoreBackend;
let store: Store;
let fake: FakeOpenAI;
let now = 1_800_000_000_000;
const events: EvalResultEvent[] = [];
let reserved = 0;
let jobs: EvalJobs;
let results: ResultStore;

const trace: PersistedTrace = {
  id: '0190c000-0000-7000-8000-000000000001', created_at: 1_799_999_000_000, project_id: 'p1', model: 'gpt-4o', status: 'ok', latency_ms: 5,
  cost_usd: 0.002, template: 'answer', version: 2,
  trace: { input: [{ role: 'user', content: 'Capital of France?' }], output: { role: 'assistant', content: 'Paris.' } },
};

test.before(async () => {
  fake = await startFakeOpenAI({ delayMs: 0 });
  backend = await openStore(`sqlite:${dir.path}/vigil.db`);
  store = backend.forPlugin('evaluators');
  await store.migrate(evaluatorsMigrations);
  const definitions = new DefinitionStore(store);
  await definitions.create('p1', { id: 'judge', name: 'Judge', type: 'llm_judge', settings: { provider: 'judge', rubric: 'Grade {{output}}' } });
  await definitions.create('p1', { id: 'broken', name: 'Broken', type: 'custom_function', settings: { source: 'export default (t) => {' } });
  results = new ResultStore(store);
  const limiter = new RateLimiter(store, () => 60, () => now);
  const deps: EvaluateDeps = {
    sandboxes: { loadFunction: () => Promise.reject(new Error('no functions here')) },
    golden: new GoldenSets(store),
    judge: { provider: () => ({ name: 'judge', baseUrl: fake.baseURL, model: 'gpt-4o-mini', timeoutMs: 1000 }), price: () => 0.5 },
    similarity: { embedder: () => Promise.reject(new Error('none')), cosine: () => 0, cache: new EmbeddingCache(store), price: () => null },
  };
  jobs = new EvalJobs({
    llm: { trace: async (_p, id) => (id === trace.id ? trace : undefined) }, definitions, results,
    rate: { reserve: (p) => { reserved++; return limiter.reserve(p); } },
    evaluate: (def, t) => evaluate(deps, def, t), maxAttempts: 3, log: quiet, now: () => now,
    publish: (e) => events.push(e), counters: { result() {}, deferred() {} },
  });
});
test.after(async () => { await fake.close(); await backend.close(); dir.cleanup(); });

const job = (payload: EvalJobPayload, attempt = 1): QueuedJob<EvalJobPayload> => ({ id: 7, queue: 'evaluators.eval', payload, attempt });
const stored = async () => (await results.list('p1', { limit: 10, offset: 0 }));

test('a slot far ahead defers the job with the slot in its payload; back in time, it runs without reserving again', async () => {
  // Three evals of the project already hold the next three seconds.
  for (let i = 0; i < 3; i++) await new RateLimiter(store, () => 60, () => now).reserve('p1');
  reserved = 0;
  const first = await jobs.run(job({ p: 'p1', d: 'judge', t: trace.id })).then(() => null, (e) => e);
  assert.instance(first, JobDeferral);
  assert.is(first.delayMs, 3000);
  assert.equal(first.payload, { p: 'p1', d: 'judge', t: trace.id, slot: now + 3000, slot_attempt: 1 });
  assert.is(reserved, 1);
  assert.is(fake.requests.length, 0, 'the judge was not called early');

  now += 3000;
  fake.script.push({ score: 90, reasoning: 'Right.' });
  await jobs.run(job(first.payload));
  assert.is(reserved, 1, 'the slot it held was used');
  const [r] = await stored();
  assert.equal([r.score, r.status, r.reason, r.cost.usd], [0.9, 'ok', 'Right.', 0.5]);
  assert.equal(events.map((e) => [e.eval_definition_id, e.eval_definition_name, e.eval_type, e.score, e.template, e.version, e.trace_created_at, e.project_id]),
    [['judge', 'Judge', 'llm_judge', 0.9, 'answer', 2, trace.created_at, 'p1']]);
});

test('a slot held for an earlier attempt is not used by a retry: it reserves again', async () => {
  now += 10_000;
  reserved = 0;
  fake.script.push({ score: 10 });
  await jobs.run(job({ p: 'p1', d: 'judge', t: trace.id, slot: now - 5000, slot_attempt: 1 }, 2));
  assert.is(reserved, 1);
});

test('a provider failure is thrown for the queue to retry, until the last attempt stores a failed result', async () => {
  now += 10_000;
  events.length = 0;
  fake.script.push({ status: 503, headers: { 'retry-after': '2' } });
  const err = await jobs.run(job({ p: 'p1', d: 'judge', t: trace.id }, 2)).then(() => null, (e) => e);
  assert.instance(err, ProviderUnavailable);
  assert.is(err.retryAfterMs, 2000);
  assert.is(events.length, 0);
  now += 10_000;
  fake.script.push({ status: 500 });
  await jobs.run(job({ p: 'p1', d: 'judge', t: trace.id }, 3));
  const [r] = await stored();
  assert.equal([r.status, r.score, (r.details as { kind: string }).kind], ['failed', null, 'gave_up']);
  assert.match(r.reason!, /answered 500: .*\(attempt 3 of 3: given up\)/);
  assert.is(events.length, 1);
  assert.is((await stored()).length, 1, 'one result per (definition, trace): the latest');
});

test('a broken function is a permanent failure: a failed result at the first attempt, nothing thrown for the queue to retry', async () => {
  now += 10_000;
  events.length = 0;
  await jobs.run(job({ p: 'p1', d: 'broken', t: trace.id }, 1));
  const [r] = (await stored()).filter((x) => x.eval_definition_id === 'broken');
  assert.equal([r.status, r.score, r.method, (r.details as { kind: string }).kind], ['failed', null, 'custom_function', 'compile']);
  assert.match(r.reason!, /^compile: /);
  assert.not.match(r.reason!, /attempt/);
  assert.equal(events.map((e) => [e.eval_definition_id, e.status]), [['broken', 'failed']]);
});

test('a deleted definition or trace ends the job without a result', async () => {
  now += 10_000;
  events.length = 0;
  await jobs.run(job({ p: 'p1', d: 'gone', t: trace.id }));
  await jobs.run(job({ p: 'p1', d: 'judge', t: '0190c000-0000-7000-8000-00000000dead' }));
  assert.is(events.length, 0);
});

test('an incomplete trace (a Langfuse generation stored before its end) that changed while evaluated is evaluated again, not recorded', async () => {
  now += 60_000;
  const incomplete: PersistedTrace = { ...trace, id: '0190c000-0000-7000-8000-0000000000aa', trace: { ...trace.trace, output: 'Par', incomplete: 'never_ended' } };
  const final: PersistedTrace = { ...incomplete, trace: { ...trace.trace, output: 'Paris.' } };
  const reads = [incomplete, final];
  let evaluated = 0;
  const outcome = { status: 'ok' as const, score: 1, method: 'custom_function', model: null, tokens_in: 0, tokens_out: 0, usd: null, reason: 'r' };
  const own = new EvalJobs({
    llm: { trace: async () => reads.shift() ?? final }, definitions: new DefinitionStore(store), results,
    rate: { reserve: async () => now }, evaluate: async () => { evaluated++; return outcome; }, maxAttempts: 3, log: quiet, now: () => now,
    publish: () => {}, counters: { result() {}, deferred() {} },
  });
  const before = (await stored()).length;
  const err = await own.run(job({ p: 'p1', d: 'judge', t: incomplete.id })).then(() => null, (e) => e);
  assert.instance(err, JobDeferral);
  assert.match(err.message, /changed while it was evaluated/);
  assert.is((await stored()).length, before, 'no result of the incomplete version');
  // Run again (as the queue does): the final version is read, and unchanged since, so it is recorded.
  await own.run(job(err.payload));
  assert.is(evaluated, 2);
  assert.is((await stored()).length, before + 1);
});

test('a definition deleted while its job evaluates: the result is not stored or published (the delete removed its results first)', async () => {
  now += 60_000;
  const definitions = new DefinitionStore(store);
  await definitions.create('p1', { id: 'short-lived', name: 'Short-lived', type: 'custom_function', settings: { source: 'export default () => 1' } });
  const outcome = { status: 'ok' as const, score: 1, method: 'custom_function', model: null, tokens_in: 0, tokens_out: 0, usd: null, reason: 'r' };
  const published: EvalResultEvent[] = [];
  const own = new EvalJobs({
    llm: { trace: async () => trace }, definitions, results, rate: { reserve: async () => now },
    // The DELETE route's two steps run while the evaluation is under way.
    evaluate: async (def) => {
      await definitions.delete('p1', def.id);
      await results.deleteForDefinition({ project_id: 'p1', id: def.id });
      return outcome;
    },
    maxAttempts: 3, log: quiet, now: () => now, publish: (e) => published.push(e), counters: { result() {}, deferred() {} },
  });
  await own.run(job({ p: 'p1', d: 'short-lived', t: trace.id }));
  assert.is((await results.list('p1', { limit: 50, offset: 0 })).filter((r) => r.eval_definition_id === 'short-lived').length, 0, 'a result of a deleted definition');
  assert.is(published.length, 0);
});

test.run();
