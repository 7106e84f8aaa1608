// Evals of traces whose messages come on OTLP logs (@opentelemetry/instrumentation-openai), on a real `vigil run`:
// whichever of span and logs arrives first, the eval result reflects the messages. A trace stored from its span
// alone waits `evaluators.messages_grace` for them; messages that come later still replace the result, and a trace
// whose messages never come is evaluated once (skipped: it has no output).
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { spanItemId } from '../../plugins/llm/otlp/item-id.js';
import { llmClient, type Json } from '../support/llm-client.js';
import { logsBody, SPAN, spanBody } from '../support/otlp-genai-json.js';
import { freePort, waitFor } from '../support/net.js';
import { tempDir } from '../support/tmp.js';
import { startVigil, writeConfig, type VigilProcess } from '../support/vigil-process.js';

const TOKEN = 'otlp-evals-token';
const KEY = 'otlp-evals-key-0123456789';
const GRACE_MS = 2_000;
const work = tempDir('vigil-llm-otlp-evals-');
let vigil: VigilProcess;
let api: ReturnType<typeof llmClient>;
let base: string;

test.before(async () => {
  const port = await freePort();
  base = `http://127.0.0.1:${port}`;
  const file = writeConfig(work.path, `data_dir: ${work.path}/data
control_plane: { listen: 127.0.0.1:${port}, token: ${TOKEN} }
llm:
  persist: { backoff: 100ms }
  projects:
    - { name: otel, key: ${KEY} }
evaluators:
  rate_per_minute: 6000
  messages_grace: ${GRACE_MS}ms
  definitions:
    - id: answered
      project: otel
      name: Answered
      type: custom_function
      settings:
        source: |
          export default (trace) => ({
            score: Array.isArray(trace.output) && trace.output.length > 0 ? 1 : 0,
            reason: JSON.stringify([trace.input, trace.output]),
          })
`);
  vigil = await startVigil(file, base, { cwd: work.path });
  api = llmClient(base);
});

test.after(async () => {
  await vigil?.stop('SIGKILL');
  work.cleanup();
});

let traceCounter = 0;
const newTraceId = () => `5cf92f3577b34da6a3ce929d0e0e${String(1000 + ++traceCounter).padStart(4, '0')}`;
const post = (path: string, body: string) => api.send(path, KEY, { method: 'POST', headers: { 'content-type': 'application/json' }, body });
const results = async (traceId: string): Promise<Json[]> =>
  (await api.get(KEY, `/api/v1/eval-results?eval_definition_id=answered&trace_id=${spanItemId(traceId, SPAN)}`)).body.data;
const resultWhen = (traceId: string, done: (r: Json) => boolean, what: string) =>
  waitFor(async () => (await results(traceId)).find(done) ?? null, { what, timeoutMs: 15_000 }) as Promise<Json>;
const storedSpan = (traceId: string) => api.waitForTraces(KEY, [spanItemId(traceId, SPAN)]);

/** Evals this process has run (every outcome), from /metrics. */
async function evalsRun(): Promise<number> {
  const text = await (await fetch(`${base}/metrics`, { headers: { authorization: `Bearer ${TOKEN}` } })).text();
  return text.split('\n').filter((l) => l.startsWith('vigil_evaluators_results_total{')).reduce((sum, l) => sum + Number(l.split(' ').at(-1)), 0);
}
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

test('logs before the span: the eval sees the messages, and runs once', async () => {
  const before = await evalsRun();
  const traceId = newTraceId();
  assert.is((await post('/v1/otlp/logs', logsBody(traceId))).status, 200);
  await sleep(300);
  assert.is((await post('/v1/otlp/traces', spanBody(traceId))).status, 200);
  const r = await resultWhen(traceId, () => true, 'the eval result');
  assert.equal([r.score, r.status], [1, 'ok'], r.reason);
  assert.match(r.reason, /capital of France/);
  await sleep(GRACE_MS + 500);
  assert.is((await results(traceId)).length, 1);
  assert.is(await evalsRun() - before, 1, 'no second eval');
});

test('span before logs, the logs within the grace: one eval, of the trace with its messages', async () => {
  const before = await evalsRun();
  const traceId = newTraceId();
  assert.is((await post('/v1/otlp/traces', spanBody(traceId))).status, 200);
  await storedSpan(traceId);
  await sleep(300);
  assert.is((await results(traceId)).length, 0, 'the eval waits for the messages');
  assert.is((await post('/v1/otlp/logs', logsBody(traceId))).status, 200);
  const r = await resultWhen(traceId, () => true, 'the eval result');
  assert.equal([r.score, r.status], [1, 'ok'], r.reason);
  assert.match(r.reason, /Paris\./);
  await sleep(1000);
  assert.is(await evalsRun() - before, 1, 'evaluated once: the messages did not add an eval');
});

test('messages that never come: evaluated once after the grace; messages later still: the result is replaced', async () => {
  const before = await evalsRun();
  const traceId = newTraceId();
  assert.is((await post('/v1/otlp/traces', spanBody(traceId))).status, 200);
  await storedSpan(traceId);
  const first = await resultWhen(traceId, () => true, 'the eval after the grace');
  // Without its messages the trace has no output: skipped (on_missing_output: skip), not scored 0.
  assert.equal([first.score, first.status, first.reason], [null, 'skipped', 'no output']);
  await sleep(1000);
  assert.is(await evalsRun() - before, 1, 'once');
  assert.is((await post('/v1/otlp/logs', logsBody(traceId))).status, 200);
  const second = await resultWhen(traceId, (r) => r.score === 1, 'the result replaced');
  assert.match(second.reason, /Paris\./);
  assert.is((await results(traceId)).length, 1, 'one result per (definition, trace)');
  assert.is(await evalsRun() - before, 2);
});

test.run();
