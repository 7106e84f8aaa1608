// The alerts plugin in a real runtime (SDK harness, SQLite) with the llm and channels plugins and a local webhook
// receiver: a gt rule over stored traces fires within one tick and its notice is delivered; a new prompt version
// fires at once; a budget crossing fires; while alerting is stopped nothing fires and no history is written; the
// preview answers from stored data; GET /api/v1/alert-events lists the project's events; config rules answer 409.
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { startTestRuntime, type TestRuntime } from '@vigil/plugin-sdk/testing';
import { startReceivers, type Receivers } from '../../../support/channel-receivers.js';
import { llmClient, traceItem } from '../../../support/llm-client.js';
import { waitFor } from '../../../support/net.js';

const KEY = 'alerts-runtime-project-key-0123456789';
let rt: TestRuntime;
let rx: Receivers;

test.before(async () => {
  rx = await startReceivers();
  rt = await startTestRuntime({
    plugins: [],
    config: {
      llm: { persist: { backoff: '100ms' }, projects: [{ name: 'shop', key: KEY, budget: { monthly_usd: 1 } }] },
      channels: { backoff: '100ms', targets: [{ id: 'hook', type: 'webhook', url: rx.url('/hook'), secret: 'webhook-secret-for-tests-0123' }] },
      alerts: {
        interval: '1s',
        rules: [{ id: 'errors', name: 'Shop errors', source: 'llm.error_rate', scope: { project: 'shop' }, condition: { type: 'gt', threshold: 0.5 }, window: '10m', min_samples: 3 }],
      },
    },
  });
});
test.after(async () => {
  await rt?.stop();
  await rx?.close();
});

const call = async (path: string, init: RequestInit = {}) => {
  const res = await rt.fetch(path, { ...init, headers: { 'content-type': 'application/json', ...init.headers } });
  const text = await res.text();
  return { status: res.status, text, body: text ? JSON.parse(text) : undefined };
};
const post = (path: string, body: unknown) => call(path, { method: 'POST', body: JSON.stringify(body) });
const hooks = () => rx.received('/hook').map((r) => JSON.parse(r.raw.toString()) as Record<string, any>);

test('a gt rule on stored traces fires within a tick, and the webhook receives the notice once', async () => {
  const llm = llmClient(rt.url);
  const items = Array.from({ length: 4 }, (_, i) => traceItem({ id: `00000000-0000-4000-8000-00000000000${i}`, status: 'error', error: 'boom', cost_usd: 0.01 }));
  assert.is((await llm.ingest(KEY, { traces: items })).status, 202);
  await llm.waitForTraces(KEY, items.map((t) => t.id));
  const events = await waitFor(async () => {
    const r = await call('/api/alerts/events?status=firing');
    return r.body.data.length ? r.body.data : null;
  }, { timeoutMs: 10_000, what: 'the errors rule firing' });
  assert.is(events[0].rule_id, 'errors');
  assert.is(events[0].value, 1);
  assert.is(events[0].samples, 4);
  await waitFor(async () => hooks().length >= 1 || null, { timeoutMs: 10_000, what: 'the webhook notice' });
  const delivered = await waitFor(async () => {
    const r = await call('/api/alerts/events?status=firing');
    return r.body.data[0].delivery[0]?.state === 'delivered' ? r.body.data[0] : null;
  }, { timeoutMs: 10_000, what: 'the delivery recorded on the event' });
  assert.is(delivered.delivery[0].channel_id, 'hook');
  await new Promise((r) => setTimeout(r, 2500));
  assert.is(hooks().filter((h) => JSON.stringify(h).includes('Shop errors')).length, 1, 'later ticks do not notify again while it fires');
  const metrics = await (await rt.fetch('/metrics')).text();
  assert.match(metrics, /vigil_alerts_rule_firing\{rule="errors"\} 1/);
});

test('the public list shows the project\'s events; the config rule answers 409 to a change', async () => {
  const res = await fetch(`${rt.url}/api/v1/alert-events?status=firing`, { headers: { 'X-Service-Project-Key': KEY } });
  const body = await res.json() as { data: { rule_id: string }[] };
  assert.is(res.status, 200);
  assert.equal(body.data.map((e) => e.rule_id), ['errors']);
  const put = await call('/api/alerts/rules/errors', { method: 'PUT', body: JSON.stringify({ name: 'x', source: 'llm.requests', scope: { project: 'shop' }, condition: { type: 'gt', threshold: 1 } }) });
  assert.is(put.status, 409);
});

test('a rule is refused with the key that is wrong; the preview says whether it would have fired in the last 24 h', async () => {
  const bad = await post('/api/alerts/rules', { name: 'x', source: 'llm.error_rate', scope: { route: '/a' }, condition: { type: 'gt', threshold: 1 } });
  assert.is(bad.status, 400);
  assert.match(bad.body.error?.message ?? bad.text, 'scope.route');
  const preview = await post('/api/alerts/rules/preview', { name: 'p', source: 'llm.requests', scope: { project: 'shop' }, condition: { type: 'gt', threshold: 2 }, window: '1h' });
  assert.is(preview.status, 200, preview.text);
  assert.is(preview.body.would_fire, true);
  assert.is(preview.body.points.length, 24);
  const quiet = await post('/api/alerts/rules/preview', { name: 'p', source: 'llm.requests', scope: { project: 'shop' }, condition: { type: 'gt', threshold: 100 }, window: '1h' });
  assert.is(quiet.body.would_fire, false);
});

test('a new prompt version fires at once; a budget crossing fires', async () => {
  assert.is((await post('/api/alerts/rules', { id: 'versions', name: 'New prompt', source: 'llm.prompt_versions', scope: { project: 'shop' }, condition: { type: 'prompt_version_change' } })).status, 201);
  assert.is((await post('/api/alerts/rules', { id: 'budget', name: 'Budget', source: 'llm.cost_usd', scope: { project: 'shop' }, condition: { type: 'budget' } })).status, 201);
  const llm = llmClient(rt.url);
  const item = traceItem({ id: '00000000-0000-4000-8000-0000000000aa', cost_usd: 2, prompt_template: { name: 'greet', raw: 'Say hello to {{name}}' } });
  assert.is((await llm.ingest(KEY, { traces: [item] })).status, 202);
  await llm.waitForTraces(KEY, [item.id]);
  const version = await waitFor(async () => {
    const r = await call('/api/alerts/events?rule_id=versions');
    return r.body.data[0] ?? null;
  }, { timeoutMs: 5_000, what: 'the prompt version event' });
  assert.match(version.summary, 'greet');
  const budget = await waitFor(async () => (await call('/api/alerts/events?rule_id=budget')).body.data[0] ?? null, { timeoutMs: 10_000, what: 'the budget event' });
  assert.ok(budget.value >= 1 && budget.threshold === 1);
});

test('stopped: nothing fires and no history is written; a snooze takes only the listed lengths; clear_history empties it', async () => {
  const stopped = await post('/api/alertctl', { action: 'stop' });
  assert.is(stopped.body.state, 'stopped');
  assert.is((await post('/api/alerts/rules', { id: 'many', name: 'Any call', source: 'llm.requests', scope: { project: 'shop' }, condition: { type: 'gt', threshold: 0 }, window: '1h' })).status, 201);
  await new Promise((r) => setTimeout(r, 2500));
  assert.equal((await call('/api/alerts/events?rule_id=many')).body.data, [], 'no history while stopped');
  assert.is((await post('/api/alertctl', { action: 'snooze', minutes: 30 })).status, 400);
  assert.is((await post('/api/alertctl', { action: 'snooze', minutes: 15 })).body.state, 'snoozed');
  assert.is((await post('/api/alertctl', { action: 'start' })).body.state, 'on');
  await waitFor(async () => (await call('/api/alerts/events?rule_id=many')).body.data[0] ?? null, { timeoutMs: 10_000, what: 'the rule firing once alerting is on' });
  const disabled = await post('/api/alertctl', { action: 'disable_all' });
  assert.is(disabled.body.rules.enabled, 0);
  await post('/api/alertctl', { action: 'clear_history' });
  assert.equal((await call('/api/alerts/events')).body.data, []);
});

test.run();
