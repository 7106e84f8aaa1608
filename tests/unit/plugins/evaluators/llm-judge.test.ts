// llm_judge against a local OpenAI-compatible server (tests/support/fake-openai.ts) scripted for every answer a
// judge can give: a score, a text answer without the tool call, a score of 150, 429 with Retry-After, a 500, a hang.
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import OpenAI from 'openai';
import type { PersistedTrace } from '@vigil/plugin-sdk';
import { judge, type JudgeDeps } from '../../../../plugins/evaluators/llm-judge.js';
import { ProviderUnavailable } from '../../../../plugins/evaluators/errors.js';
import { SUBMIT_SCORE } from '../../../../plugins/evaluators/judge-client.js';
import type { EvalDefinition } from '../../../../plugins/evaluators/types.js';
import { FAKE, startFakeOpenAI, type FakeOpenAI } from '../../../support/fake-openai.js';

let fake: FakeOpenAI;
test.before(async () => { fake = await startFakeOpenAI({ delayMs: 0 }); });
test.after(() => fake.close());
test.before.each(() => { fake.requests.length = 0; fake.script.length = 0; });

const deps = (overrides: Partial<{ timeoutMs: number; price: { input: number; output: number } }> = {}): JudgeDeps => ({
  provider: (name) => (name === 'judge'
    ? { name, baseUrl: fake.baseURL, model: 'gpt-4o-mini', apiKey: 'sk-test-judge', timeoutMs: overrides.timeoutMs ?? 2000, ...(overrides.price ? { price: overrides.price } : {}) }
    : undefined),
  price: (model, t) => (model.startsWith('gpt-4o-mini') ? (t.input * 0.15 + t.output * 0.6) / 1e6 : null),
});

const definition = (rubric = 'Grade the answer to {{input}}. Answer: {{output}}. Tier: {{metadata.user.tier}}. Expected: {{expected}}'): EvalDefinition => ({
  id: 'helpful', project_id: 'p1', name: 'Helpful', type: 'llm_judge', sample_rate: 1, template: null, versions: null, on_missing_output: 'skip',
  settings: { provider: 'judge', rubric }, source: 'store', created_at: 0, updated_at: 0,
});

const trace: PersistedTrace = {
  id: '0190a000-0000-7000-8000-000000000001', created_at: 1, project_id: 'p1', model: 'gpt-4o', status: 'ok', latency_ms: 100, cost_usd: 0.01,
  template: null, version: null,
  trace: {
    input: [
      { role: 'system', content: 'You are a geography tutor.' },
      { role: 'user', content: 'First question: the capital of Spain?' },
      { role: 'assistant', content: 'Madrid.' },
      { role: 'user', content: 'And of France?' },
    ],
    output: { role: 'assistant', content: 'Paris.' },
    metadata: { user: { tier: 'gold' } },
  },
};

test('a score of 80 through the forced submit_score call is 0.8, with the judge\'s tokens and their cost', async () => {
  fake.script.push({ score: 80, reasoning: 'Correct and short.' });
  const out = await judge(deps(), definition(), trace, 'Paris');
  assert.equal({ status: out.status, score: out.score, reason: out.reason, method: out.method }, { status: 'ok', score: 0.8, reason: 'Correct and short.', method: 'llm_judge' });
  assert.equal([out.tokens_in, out.tokens_out], [FAKE.usage.prompt_tokens, FAKE.usage.completion_tokens]);
  assert.ok(Math.abs(out.usd! - (21 * 0.15 + 7 * 0.6) / 1e6) < 1e-15, `usd ${out.usd}`);
  const { body, headers } = fake.requests[0];
  assert.equal(body.tool_choice, { type: 'function', function: { name: 'submit_score' } });
  assert.equal(body.tools.map((t: any) => t.function.name), ['submit_score']);
  assert.is(headers.authorization, 'Bearer sk-test-judge');
  assert.is(body.model, 'gpt-4o-mini');
});

test('the judge sees the whole conversation, not only the last message, and the rubric\'s placeholders filled', async () => {
  fake.script.push({ score: 100 });
  await judge(deps(), definition(), trace, 'Paris');
  const prompt: string = fake.requests[0].body.messages.at(-1).content;
  for (const part of ['system: You are a geography tutor.', 'user: First question: the capital of Spain?', 'assistant: Madrid.', 'user: And of France?', 'assistant: Paris.', 'Tier: gold', 'Expected: Paris']) {
    assert.ok(prompt.includes(part), `the prompt lacks ${JSON.stringify(part)}:\n${prompt}`);
  }
});

test('a rubric naming neither {{input}} nor {{output}} gets the trace appended', async () => {
  fake.script.push({ score: 50 });
  await judge(deps(), definition('Is the answer polite?'), trace, '');
  const prompt: string = fake.requests[0].body.messages.at(-1).content;
  assert.match(prompt, /^Is the answer polite\?\n\n<input>\nsystem: You are a geography tutor\./);
  assert.match(prompt, /<output>\nassistant: Paris\.\n<\/output>$/);
});

test('a text answer without the tool call is a failed result with the reason, tokens still counted', async () => {
  fake.script.push({ text: 'I think it deserves a 9/10.' });
  const out = await judge(deps(), definition(), trace, '');
  assert.is(out.status, 'failed');
  assert.is(out.score, null);
  assert.match(out.reason!, /without calling submit_score: I think it deserves a 9\/10\./);
  assert.is(out.tokens_in, 21);
});

test('a score of 150 is a failed result, never a score', async () => {
  fake.script.push({ score: 150, reasoning: 'Exceptional!' });
  const out = await judge(deps(), definition(), trace, '');
  assert.equal({ status: out.status, score: out.score }, { status: 'failed', score: null });
  assert.match(out.reason!, /score 150 is outside 0\.\.100/);
  assert.equal(out.details, { kind: 'out_of_range', raw_score: 150, reasoning: 'Exceptional!' });
});

test('a score that is not a number, and arguments that are not JSON, are failed results', async () => {
  fake.script.push({ score: 'high' });
  const a = await judge(deps(), definition(), trace, '');
  assert.match(a.reason!, /no numeric score \(got "high"\)/);
  fake.script.push({ arguments: '{"score": 80, "reasoning": "cut off' });
  const b = await judge(deps(), definition(), trace, '');
  assert.equal({ status: b.status, kind: b.details?.kind }, { status: 'failed', kind: 'bad_arguments' });
  assert.match(b.reason!, /arguments are not JSON/);
});

test('429 with Retry-After throws ProviderUnavailable carrying the wait, for the queue to honour', async () => {
  fake.script.push({ status: 429, headers: { 'retry-after': '7' } });
  const err = await judge(deps(), definition(), trace, '').then(() => null, (e) => e);
  assert.instance(err, ProviderUnavailable);
  assert.is(err.retryAfterMs, 7000);
  assert.match(err.message, /answered 429/);
  assert.is(err.code, 'VIGIL_ERR_EVALUATORS_PROVIDER_UNAVAILABLE');
});

test('a 500 throws ProviderUnavailable without a wait (the queue\'s backoff applies)', async () => {
  fake.script.push({ status: 500 });
  const err = await judge(deps(), definition(), trace, '').then(() => null, (e) => e);
  assert.instance(err, ProviderUnavailable);
  assert.is(err.retryAfterMs, undefined);
});

test('a hang ends at the provider\'s timeout as ProviderUnavailable', async () => {
  fake.script.push({ hang: true });
  const started = Date.now();
  const err = await judge(deps({ timeoutMs: 300 }), definition(), trace, '').then(() => null, (e) => e);
  const took = Date.now() - started;
  assert.instance(err, ProviderUnavailable);
  assert.match(err.message, /did not answer within 300 ms/);
  assert.ok(took >= 290 && took < 2000, `gave up after ${took} ms`);
});

test('a 401 is a failed result (retrying gets the same answer); an unknown provider too', async () => {
  fake.script.push({ status: 401 });
  const out = await judge(deps(), definition(), trace, '');
  assert.is(out.status, 'failed');
  assert.match(out.reason!, /refused the request with 401/);
  const missing = await judge(deps(), { ...definition(), settings: { provider: 'other', rubric: 'x' } }, trace, '');
  assert.match(missing.reason!, /judge provider "other" is not declared/);
});

test('the provider\'s own price wins over the price table', async () => {
  fake.script.push({ score: 10 });
  const out = await judge(deps({ price: { input: 1, output: 2 } }), definition(), trace, '');
  assert.is(out.usd, (21 * 1 + 7 * 2) / 1e6);
});

test('the openai npm client reads the scripted answers as OpenAI\'s own (the fake speaks the protocol)', async () => {
  const client = new OpenAI({ baseURL: fake.baseURL, apiKey: 'sk-test', maxRetries: 0 });
  fake.script.push({ score: 42, reasoning: 'ok' }, { text: 'no tool' });
  const forced = await client.chat.completions.create({
    model: 'gpt-4o-mini', messages: [{ role: 'user', content: 'grade' }], tools: [SUBMIT_SCORE as any], tool_choice: { type: 'function', function: { name: 'submit_score' } },
  });
  const call = forced.choices[0].message.tool_calls![0] as { function: { name: string; arguments: string } };
  assert.equal([call.function.name, JSON.parse(call.function.arguments)], ['submit_score', { score: 42, reasoning: 'ok' }]);
  const text = await client.chat.completions.create({ model: 'gpt-4o-mini', messages: [{ role: 'user', content: 'grade' }] });
  assert.is(text.choices[0].message.content, 'no tool');
  fake.script.push({ status: 429, headers: { 'retry-after': '3' } });
  const err = await client.chat.completions.create({ model: 'gpt-4o-mini', messages: [{ role: 'user', content: 'grade' }] }).then(() => null, (e) => e);
  assert.is(err.status, 429);
  assert.is(err.headers.get('retry-after'), '3');
});

test.run();
