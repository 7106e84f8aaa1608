// The evaluators plugin in a real runtime (SDK harness: core, bus, store, sandbox, the llm plugin) publishes every
// stored result on `llm.eval.result`, the topic the alerts read: a probe plugin subscribes as an alert rule would,
// a trace is ingested through the public API, and the event must match the result GET /api/v1/eval-results gives.
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { randomUUID } from 'node:crypto';
import { definePlugin, type EvalResultEvent } from '@vigil/plugin-sdk';
import { startTestRuntime, type TestRuntime } from '@vigil/plugin-sdk/testing';
import { llmClient, traceItem } from '../../../support/llm-client.js';
import { waitFor } from '../../../support/net.js';

const KEY = 'bus-event-project-key-0123456789';
const received: EvalResultEvent[] = [];
let rt: TestRuntime;

const probe = definePlugin({
  name: 'eval-result-probe',
  version: '0.0.0',
  setup(ctx) {
    let unsubscribe: (() => Promise<void>) | undefined;
    return {
      start() { unsubscribe = ctx.bus.subscribe('llm.eval.result', (batch) => { received.push(...batch); }); },
      async stop() { await unsubscribe?.(); },
    };
  },
});

test.before(async () => {
  rt = await startTestRuntime({
    plugins: [probe],
    config: {
      llm: { persist: { backoff: '100ms' }, projects: [{ name: 'shop', key: KEY }] },
      evaluators: {
        rate_per_minute: 6000,
        definitions: [
          { id: 'says-paris', project: 'shop', name: 'Says Paris', type: 'custom_function',
            settings: { source: 'export default (t) => ({ score: JSON.stringify(t.output).includes("Paris") ? 1 : 0, reason: "looked" })' } },
        ],
      },
    },
  });
});
test.after(() => rt?.stop());

test('each stored result is published once on llm.eval.result, with what alert rules group by', async () => {
  const api = llmClient(rt.url);
  const items = ['Paris.', 'Lyon.'].map((content) => traceItem({ id: randomUUID(), prompt_template: { name: 'capital', raw: 'Capital of {{c}}?' }, output: { role: 'assistant', content } }));
  const res = await api.ingest(KEY, { traces: items });
  assert.is(res.status, 202);
  const ids: string[] = res.body.ids;
  await waitFor(async () => received.length >= 2, { timeoutMs: 20_000, what: 'two llm.eval.result events' });
  await new Promise((r) => setTimeout(r, 300));
  assert.is(received.length, 2, 'one event per result');

  const stored = (await api.get(KEY, '/api/v1/eval-results?eval_definition_id=says-paris')).body.data as { id: string; trace_id: string; score: number; status: string; reason: string; method: string; cost: unknown; latency_ms: number }[];
  for (const [i, traceId] of ids.entries()) {
    const event = received.find((e) => e.trace_id === traceId);
    const result = stored.find((r) => r.trace_id === traceId);
    assert.ok(event && result, `event and result for trace ${traceId}`);
    assert.equal(
      { id: event.id, score: event.score, status: event.status, reason: event.reason, method: event.method, cost: event.cost, latency_ms: event.latency_ms },
      { id: result.id, score: result.score, status: result.status, reason: result.reason, method: result.method, cost: result.cost, latency_ms: result.latency_ms },
    );
    assert.equal(
      [event.eval_definition_id, event.eval_definition_name, event.eval_type, event.template, event.version, event.score],
      ['says-paris', 'Says Paris', 'custom_function', 'capital', 1, i === 0 ? 1 : 0],
    );
    assert.type(event.project_id, 'string');
    assert.type(event.created_at, 'number');
    assert.type(event.trace_created_at, 'number');
  }
});

test.run();
