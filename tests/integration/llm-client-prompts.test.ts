// The Node client's getPrompt() against a real `vigil run`: a prompt fetched by label, cached (stale-while-revalidate,
// revalidated with If-None-Match), linked to the traces of the calls made with it (the real openai client, wrapped,
// calling a fake OpenAI server); then Vigil is killed: the cached copy keeps being answered, a prompt never fetched
// gets its fallback (marked), and one with neither rejects with PROMPT_UNAVAILABLE; Vigil back, the next refresh
// brings the label's new version.
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { createServer, request, type Server } from 'node:http';
import OpenAI from 'openai';
import { createClient, type VigilClient, type VigilClientError } from '@vigil/llm-client';
import { startFakeOpenAI, type FakeOpenAI } from '../support/fake-openai.js';
import { llmClient } from '../support/llm-client.js';
import { freePort, waitFor } from '../support/net.js';
import { tempDir } from '../support/tmp.js';
import { startVigil, writeConfig, type VigilProcess } from '../support/vigil-process.js';

const KEY = 'client-prompts-key-0123456789';
const work = tempDir('vigil-client-prompts-');
let file = '';
let base = '';
let vigil: VigilProcess;
let fake: FakeOpenAI;
let api: ReturnType<typeof llmClient>;
let client: VigilClient;
const errors: VigilClientError[] = [];
/** Requests that reached Vigil's prompt route through the counting relay, with their status. */
const seen: { path: string; ifNoneMatch: string | undefined; status: number }[] = [];
let relay: Server;

test.before(async () => {
  const port = await freePort();
  base = `http://127.0.0.1:${port}`;
  file = writeConfig(work.path, `data_dir: ${work.path}/data
control_plane: { listen: 127.0.0.1:${port}, token: client-prompts-token }
llm:
  projects:
    - { name: app, key: ${KEY} }
`);
  vigil = await startVigil(file, base, { cwd: work.path });
  api = llmClient(base);
  fake = await startFakeOpenAI({ delayMs: 2 });
  // A relay in front of Vigil that records each prompt request: what the cache asks, and when.
  relay = createServer((req, res) => {
    const up = request(`${base}${req.url}`, { method: req.method, headers: req.headers }, (answer) => {
      if (req.url!.startsWith('/api/v1/prompts/')) seen.push({ path: req.url!, ifNoneMatch: req.headers['if-none-match'] as string | undefined, status: answer.statusCode! });
      res.writeHead(answer.statusCode!, answer.headers);
      answer.pipe(res);
    });
    up.on('error', () => { res.writeHead(502); res.end(); });
    req.pipe(up);
  });
  await new Promise<void>((r) => relay.listen(0, '127.0.0.1', r));
  const address = relay.address() as { port: number };
  client = createClient({ url: `http://127.0.0.1:${address.port}`, projectKey: KEY, flushIntervalMs: 50, onError: (e) => errors.push(e) });
});
test.after(async () => {
  await client?.shutdown({ timeoutMs: 500 });
  await vigil?.stop('SIGKILL');
  await fake?.close();
  relay?.close();
  work.cleanup();
});

const create = async (prompt: string, labels: string[]) => {
  const r = await api.send('/api/v1/prompts', KEY, { method: 'POST', body: JSON.stringify({ name: 'support', prompt, labels }), headers: { 'content-type': 'application/json' } });
  assert.ok(r.status === 201 || r.status === 200, JSON.stringify(r.body));
  return r.body.prompt.version as number;
};

test('getPrompt by label: compiled, cached, revalidated with If-None-Match, and the traces of its calls count to its version', async () => {
  const v1 = await create('You help customers of {{shop}}.\nAnswer in one sentence.', ['production']);
  const prompt = await client.getPrompt('support', { cacheTtlMs: 60_000 });
  assert.equal([prompt.version, prompt.isFallback, prompt.labels], [v1, false, ['latest', 'production']]);
  assert.is(prompt.compile({ shop: 'Acme' }), 'You help customers of Acme.\nAnswer in one sentence.');
  assert.is(seen.length, 1);
  assert.is(await client.getPrompt('support', { cacheTtlMs: 60_000 }), prompt, 'a fresh copy is answered without a request');
  assert.is(seen.length, 1);

  // The link: calls made inside withPrompt(prompt.template(vars)) are stored with the template's version.
  const openai = client.wrapOpenAI(new OpenAI({ baseURL: fake.baseURL, apiKey: 'sk-fake', maxRetries: 0 }));
  await client.withPrompt(prompt.template({ shop: 'Acme' }), () => openai.chat.completions.create({
    model: 'gpt-4o-mini', messages: [{ role: 'system', content: prompt.compile({ shop: 'Acme' }) as string }, { role: 'user', content: 'Where is my parcel?' }],
  }));
  assert.ok(await client.flush());
  const traces = await waitFor(async () => {
    const r = await api.get(KEY, '/api/v1/traces?template=support');
    return r.body.data.length ? r.body.data : null;
  }, { what: 'the call stored' });
  assert.equal([traces[0].prompt_template.name, traces[0].prompt_template.version, traces[0].prompt_template.variables], ['support', v1, { shop: 'Acme' }]);
  const versions = (await api.get(KEY, '/api/v1/prompt-templates')).body.data[0].versions;
  assert.equal(versions.map((v: { version: number; requests: number }) => [v.version, v.requests]), [[v1, 1]], 'no new version was detected');

  // With a TTL of 1 ms the copy is stale: it is answered at once and refreshed behind it.
  await new Promise((r) => setTimeout(r, 5));
  const stale = await client.getPrompt('support', { cacheTtlMs: 1 });
  assert.is(stale, prompt, 'the stale copy is answered at once');
  await waitFor(() => (seen.length === 2 ? true : null), { what: 'the background refresh' });
  assert.equal([seen[1].status, typeof seen[1].ifNoneMatch], [304, 'string'], 'an unchanged prompt costs a 304');

  // The label moves: the next refresh brings the new version.
  const v2 = await create('You help customers of {{shop}}.\nAnswer in two sentences.', ['production']);
  await new Promise((r) => setTimeout(r, 5));
  assert.is((await client.getPrompt('support', { cacheTtlMs: 1 })).version, v1, 'still the copy, while it refreshes');
  const moved = await waitFor(async () => {
    const p = await client.getPrompt('support', { cacheTtlMs: 60_000 });
    return p.version === v2 ? p : null;
  }, { what: 'the refreshed copy' });
  assert.is(moved!.compile({ shop: 'Acme' }), 'You help customers of Acme.\nAnswer in two sentences.');
  assert.is(errors.length, 0, errors.map((e) => e.message).join('; '));
});

test('Vigil down: the cached copy keeps answering; an uncached prompt gets its fallback (marked); with neither, getPrompt rejects', async () => {
  await create('Greet {{name}}.', ['staging']);
  const cached = await client.getPrompt('support', { label: 'staging', cacheTtlMs: 1 });
  assert.is(cached.isFallback, false);
  await vigil.stop('SIGKILL');

  const during = await client.getPrompt('support', { label: 'staging', cacheTtlMs: 1 });
  assert.is(during, cached, 'the copy is answered while Vigil is away');
  assert.is((await client.getPrompt('support', { label: 'staging', cacheTtlMs: 0 })).version, cached.version, 'TTL 0 asks, and falls back on the copy');
  await waitFor(() => (errors.some((e) => e.code === 'VIGIL_ERR_CLIENT_PROMPT_UNAVAILABLE') ? true : null), { what: 'the failed refresh reported' });

  const fallback = await client.getPrompt('onboarding', { fallback: 'Welcome, {{name}}!', timeoutMs: 1000 });
  assert.equal([fallback.isFallback, fallback.version, fallback.compile({ name: 'Ada' })], [true, null, 'Welcome, Ada!']);
  const chat = await client.getPrompt('onboarding-chat', { fallback: [{ role: 'system', content: 'Be {{tone}}.' }] });
  assert.equal([chat.isFallback, chat.type, chat.compile({ tone: 'kind' })], [true, 'chat', [{ role: 'system', content: 'Be kind.' }]]);

  try {
    await client.getPrompt('onboarding', { label: 'canary' });
    assert.unreachable('no copy and no fallback');
  } catch (err) {
    assert.is((err as VigilClientError).code, 'VIGIL_ERR_CLIENT_PROMPT_UNAVAILABLE');
    assert.match((err as Error).message, /answered 502/, 'the relay answers for the dead server');
  }
  // Straight at the dead port: nothing answers at all.
  const direct = createClient({ url: base, projectKey: KEY, onError: () => {} });
  try {
    await direct.getPrompt('support');
    assert.unreachable('nothing listens');
  } catch (err) {
    assert.is((err as VigilClientError).code, 'VIGIL_ERR_CLIENT_PROMPT_UNAVAILABLE');
    assert.match((err as Error).message, /could not be reached at http:\/\/127\.0\.0\.1/);
  }
  assert.is((await direct.getPrompt('support', { fallback: 'Offline.' })).isFallback, true);
  await direct.shutdown({ timeoutMs: 100 });

  vigil = await startVigil(file, base, { cwd: work.path });
  const back = await client.getPrompt('support', { label: 'staging', cacheTtlMs: 0 });
  assert.equal([back.isFallback, back.version], [false, cached.version]);
  // A label that does not exist is a 404: rejected when nothing is cached, named in the error.
  try {
    await client.getPrompt('support', { label: 'canary' });
    assert.unreachable('no such label');
  } catch (err) {
    assert.is((err as VigilClientError).status, 404);
    assert.match((err as Error).message, /VIGIL_ERR_LLM_PROMPT_LABEL_NOT_FOUND/);
  }
});

test.run();
