// `vigil mock --llm` against a local server speaking OpenAI's chat completions (tests/support/fake-openai.ts), over an
// OpenAPI 3.0 document (tests/fixtures/mock/weather-3.0.json): a valid reply is served as the example, an invalid one
// falls back to the generator, a 503 is retried, all at start and once per operation; and the 3.0 dialect (nullable,
// readOnly ids) works for stateful collections too. Every answer is validated against the spec.
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { startFakeOpenAI, type FakeOpenAI, type ScriptedAnswer } from '../support/fake-openai.js';
import { startMockProcess, specClient, type MockProcess } from '../support/mock-process.js';
import { fixture } from '../support/paths.js';

const SPEC = fixture('mock/weather-3.0.json');
const KEY = 'sk-mock-test-key';
const llm = suite('vigil mock --llm');
const client = specClient(SPEC);
let fake: FakeOpenAI;
let server: MockProcess;
const statusAttempts: number[] = [];

const FORECAST = {
  city: 'Lisbon',
  days: [{ date: '2025-06-01', high_c: 27, low_c: 18, condition: 'sunny', wind_kph: 12 }, { date: '2025-06-02', high_c: 24, low_c: 17, condition: 'cloudy' }],
  alert: null,
  updated_at: '2025-06-01T06:00:00Z',
};

/** Answers by the operation the prompt names. */
function answer(body: any): ScriptedAnswer | undefined {
  const prompt: string = body.messages?.at(-1)?.content ?? '';
  if (prompt.includes('GET /cities/{city}/forecast')) return { text: JSON.stringify({ value: FORECAST }) };
  if (prompt.includes('GET /stations')) return { text: JSON.stringify({ value: [{ id: 'not-a-uuid', name: 'Cabo da Roca' }] }) };
  if (prompt.includes('GET /status')) {
    statusAttempts.push(Date.now());
    return statusAttempts.length === 1
      ? { status: 503, headers: { 'retry-after-ms': '50' }, body: { error: { message: 'overloaded', type: 'server_error' } } }
      : { text: '```json\n{"value": {"ok": true, "version": "2.0.0-fake"}}\n```' };
  }
  return undefined;
}

llm.before(async () => {
  fake = await startFakeOpenAI({ delayMs: 5, chat: answer });
  server = await startMockProcess(SPEC, ['--llm', '--llm-base-url', fake.baseURL, '--llm-model', 'gpt-4o-mini', '--seed', '5'], {
    env: { VIGIL_MOCK_LLM_API_KEY: KEY, OPENAI_API_KEY: '' },
  });
});
llm.after(async () => { await server?.stop('SIGTERM'); await fake?.close(); });

llm('asks once per operation at start, with the key, the model, JSON mode and the schema', () => {
  const chats = fake.requests.filter((r) => r.path === '/v1/chat/completions');
  assert.is(chats.length, 4, 'forecast, stations, status twice (a 503 first); the stateful notes are not asked for');
  for (const r of chats) {
    assert.is(r.headers.authorization, `Bearer ${KEY}`);
    assert.is(r.body.model, 'gpt-4o-mini');
    assert.equal(r.body.response_format, { type: 'json_object' });
    assert.is(r.body.seed, 5);
  }
  const forecast = chats.find((r) => r.body.messages.at(-1).content.includes('forecast'))!;
  assert.match(forecast.body.messages.at(-1).content, '"condition"');
  assert.ok(statusAttempts.length === 2 && statusAttempts[1] - statusAttempts[0] >= 45, 'the 503 was retried after its retry-after-ms');
  assert.match(server.stderr(), 'llm: 2 of 3 examples from the model, 1 fell back to the generator');
  assert.match(server.stderr(), /GET \/stations 200: fell back to the generator: does not match the schema: .*uuid/);
});

llm("the model's valid reply is the answer; the invalid one fell back to seeded data; nothing more is asked", async () => {
  const before = fake.requests.length;
  const forecast = await client.call(server.url, 'GET', '/cities/Lisbon/forecast', '/cities/{city}/forecast');
  assert.is(forecast.mode, 'llm');
  assert.equal(forecast.body, FORECAST);
  const status = await client.call(server.url, 'GET', '/status', '/status');
  assert.is(status.mode, 'llm');
  assert.equal(status.body, { ok: true, version: '2.0.0-fake' });
  const stations = await client.call(server.url, 'GET', '/stations', '/stations');
  assert.is(stations.mode, 'generated');
  assert.ok(stations.body.length >= 1);
  for (let i = 0; i < 3; i++) await client.call(server.url, 'GET', '/cities/Porto/forecast', '/cities/{city}/forecast');
  assert.is(fake.requests.length, before, 'the request path never calls the model');
});

llm('3.0 documents: readOnly ids are not required in a POST, nullable values are accepted, the list envelope counts', async () => {
  const created = await client.call(server.url, 'POST', '/notes', '/notes', { text: 'Bring an umbrella', author_email: null });
  assert.is(created.status, 201);
  assert.is(created.mode, 'stateful');
  assert.is(created.body.text, 'Bring an umbrella');
  assert.match(created.body.id, /^[0-9a-f-]{36}$/);
  const list = await client.call(server.url, 'GET', '/notes', '/notes');
  assert.equal(list.body.items.map((n: any) => n.id), [created.body.id]);
  assert.is(list.body.count, 1);
  assert.equal((await client.call(server.url, 'GET', `/notes/${created.body.id}`, '/notes/{noteId}')).body, created.body);
  const missing = await client.call(server.url, 'GET', '/notes/00000000-0000-4000-8000-000000000000', '/notes/{noteId}');
  assert.is(missing.status, 404);
  assert.is(missing.body.status, 404);
  const invalid = await client.call(server.url, 'POST', '/notes', '/notes', { text: '' });
  assert.is(invalid.status, 400, 'the spec declares 400 for invalid input, so 400 it is');
  assert.match(invalid.body.title, 'does not match');
});

llm('a model that cannot be reached falls back for every operation, and the mock still serves', async () => {
  const p = await startMockProcess(SPEC, ['--llm', '--llm-base-url', 'http://127.0.0.1:9/v1', '--quiet'], { env: { VIGIL_MOCK_LLM_API_KEY: KEY } });
  try {
    assert.match(p.stderr(), 'llm: 0 of 3 examples from the model, 3 fell back to the generator');
    assert.match(p.stderr(), 'unreachable');
    const forecast = await client.call(p.url, 'GET', '/cities/Oslo/forecast', '/cities/{city}/forecast');
    assert.is(forecast.mode, 'generated');
    assert.is(forecast.body.city, 'Oslo');
  } finally {
    await p.stop('SIGTERM');
  }
});

llm.run();
