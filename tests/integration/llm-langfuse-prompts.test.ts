// Langfuse's prompt management against a real `vigil run`, with the real SDKs unchanged but for their base URL and
// secret key: the `langfuse` v3 SDK's createPrompt() / getPrompt() (text and chat, labels, versions, its cache and
// fallback) and `@langfuse/client` v5's prompt.create() / prompt.get(). What they create is the registry's, read
// back through Vigil's own API.
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { Langfuse } from 'langfuse';
import { LangfuseClient } from '@langfuse/client';
import { llmClient } from '../support/llm-client.js';
import { freePort } from '../support/net.js';
import { tempDir } from '../support/tmp.js';
import { startVigil, writeConfig, type VigilProcess } from '../support/vigil-process.js';

const KEY = 'langfuse-prompts-key-0123456789';
const V5_KEY = 'langfuse-prompts-v5-key-0123456789';
const work = tempDir('vigil-langfuse-prompts-');
let vigil: VigilProcess;
let base: string;
let api: ReturnType<typeof llmClient>;

test.before(async () => {
  const port = await freePort();
  base = `http://127.0.0.1:${port}`;
  const file = writeConfig(work.path, `data_dir: ${work.path}/data
control_plane: { listen: 127.0.0.1:${port}, token: langfuse-prompts-token }
llm:
  projects:
    - { name: legacy, key: ${KEY} }
    - { name: modern, key: ${V5_KEY} }
`);
  vigil = await startVigil(file, base, { cwd: work.path });
  api = llmClient(base);
});
test.after(async () => {
  await vigil?.stop('SIGKILL');
  work.cleanup();
});

const legacy = () => new Langfuse({ publicKey: 'pk-lf-team', secretKey: KEY, baseUrl: base, flushAt: 100 });

test('langfuse v3: createPrompt() keeps a text version with labels and config; getPrompt() fetches it by label and version, and compiles', async () => {
  const langfuse = legacy();
  const created = await langfuse.createPrompt({ name: 'welcome', prompt: 'Welcome, {{name}}!\nAsk me anything.', labels: ['production'], config: { model: 'gpt-4o-mini', temperature: 0.3 }, commitMessage: 'first' });
  assert.is(created.version, 1);
  assert.equal(created.labels, ['latest', 'production']);
  assert.equal(created.config, { model: 'gpt-4o-mini', temperature: 0.3 });
  assert.is(created.commitMessage, 'first');

  const fetched = await langfuse.getPrompt('welcome');
  assert.is(fetched.isFallback, false);
  assert.is(fetched.version, 1);
  assert.is(fetched.prompt, 'Welcome, {{name}}!\nAsk me anything.');
  assert.is(fetched.compile({ name: 'Ada' }), 'Welcome, Ada!\nAsk me anything.');

  // A second version labelled staging: production still answers v1; by version and by label each get theirs.
  const second = await langfuse.createPrompt({ name: 'welcome', prompt: 'Hi {{name}}, how can I help?', labels: ['staging'] });
  assert.is(second.version, 2);
  assert.is((await langfuse.getPrompt('welcome', undefined, { cacheTtlSeconds: 0 })).version, 1);
  assert.is((await langfuse.getPrompt('welcome', undefined, { label: 'staging' })).prompt, 'Hi {{name}}, how can I help?');
  assert.is((await langfuse.getPrompt('welcome', 1)).compile({ name: 'Bo' }), 'Welcome, Bo!\nAsk me anything.');
  assert.is((await langfuse.getPrompt('welcome', undefined, { label: 'latest' })).version, 2);

  // Promoting is a create of the same text with the label: Vigil answers the version it has and moves the label.
  const promoted = await langfuse.createPrompt({ name: 'welcome', prompt: 'Hi {{name}}, how can I help?', labels: ['production'] });
  assert.is(promoted.version, 2);
  assert.equal(promoted.labels, ['latest', 'production', 'staging']);
  assert.is((await langfuse.getPrompt('welcome', undefined, { cacheTtlSeconds: 0 })).version, 2);

  // Vigil's own API sees the same registry, and who moved the labels.
  const labels = await api.get(KEY, '/api/v1/prompts/welcome/labels');
  assert.equal(labels.body.history.map((m: { label: string; version: number; previous_version: number | null; actor: string }) => [m.label, m.previous_version, m.version, m.actor]), [
    ['production', 1, 2, 'langfuse sdk (pk-lf-team)'],
    ['staging', null, 2, 'langfuse sdk (pk-lf-team)'],
    ['production', null, 1, 'langfuse sdk (pk-lf-team)'],
  ]);
  await langfuse.shutdownAsync();
});

test('langfuse v3: chat prompts round-trip with placeholders; a prompt Vigil does not have gives the SDK\'s fallback', async () => {
  const langfuse = legacy();
  const chat = await langfuse.createPrompt({
    name: 'assistant', type: 'chat', labels: ['production'],
    prompt: [{ role: 'system', content: 'You are {{persona}}.' }, { type: 'placeholder', name: 'history' } as never, { role: 'user', content: '{{question}}' }],
  });
  assert.is(chat.version, 1);
  const fetched = await langfuse.getPrompt('assistant', undefined, { type: 'chat' });
  assert.equal(fetched.compile({ persona: 'terse', question: 'Why?' }, { history: [{ role: 'user', content: 'Hi' }, { role: 'assistant', content: 'Hello' }] }), [
    { role: 'system', content: 'You are terse.' },
    { role: 'user', content: 'Hi' },
    { role: 'assistant', content: 'Hello' },
    { role: 'user', content: 'Why?' },
  ]);
  const mine = await api.get(KEY, '/api/v1/prompts/assistant');
  assert.equal(mine.body.messages, [{ role: 'system', content: 'You are {{persona}}.' }, { type: 'placeholder', name: 'history' }, { role: 'user', content: '{{question}}' }]);

  const fallback = await langfuse.getPrompt('never-made', undefined, { fallback: 'Plain {{x}}', maxRetries: 0 });
  assert.is(fallback.isFallback, true);
  assert.is(fallback.compile({ x: 'text' }), 'Plain text');
  await langfuse.shutdownAsync();
});

test('@langfuse/client v5: prompt.create() and prompt.get() use the same API', async () => {
  const langfuse = new LangfuseClient({ publicKey: 'pk-lf-v5', secretKey: V5_KEY, baseUrl: base });
  const created = await langfuse.prompt.create({ name: 'summary', prompt: 'Summarise: {{text}}', labels: ['production'], config: { max_tokens: 200 } });
  assert.is(created.version, 1);
  const fetched = await langfuse.prompt.get('summary');
  assert.equal([fetched.version, fetched.isFallback, fetched.config], [1, false, { max_tokens: 200 }]);
  assert.is(fetched.compile({ text: 'a long story' }), 'Summarise: a long story');
  const chat = await langfuse.prompt.create({ name: 'summary-chat', type: 'chat', prompt: [{ role: 'system', content: 'Summarise {{what}}.' }], labels: ['production'] });
  assert.is(chat.type, 'chat');
  const got = await langfuse.prompt.get('summary-chat', { type: 'chat' });
  assert.equal(got.compile({ what: 'mail' }), [{ role: 'system', content: 'Summarise mail.' }]);
  // Another project's key sees none of it.
  assert.is((await api.get(KEY, '/api/v1/prompts/summary')).status, 404);
});

test('wrong secret key: 401, and the SDK falls back', async () => {
  const langfuse = new Langfuse({ publicKey: 'pk', secretKey: 'not-a-key-0123456789', baseUrl: base });
  const fallback = await langfuse.getPrompt('welcome', undefined, { fallback: 'offline text', maxRetries: 0 });
  assert.equal([fallback.isFallback, fallback.prompt], [true, 'offline text']);
  const r = await fetch(`${base}/api/public/v2/prompts/welcome`, { headers: { authorization: `Basic ${Buffer.from('pk:not-a-key-0123456789').toString('base64')}` } });
  assert.is(r.status, 401);
  await langfuse.shutdownAsync();
});

test.run();
