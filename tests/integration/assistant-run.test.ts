// The assistant in a real `vigil run`, against loopback servers that speak an OpenAI-compatible API (SSE) and Ollama's
// (NDJSON) over real HTTP, chunks cut across frames and arriving over time: answers stream through to the client; a
// provider that hangs is reported and its request closed; a turn the client cancels closes the upstream socket;
// secrets in what the user sends are masked before they leave; proposals arrive validated; the API key comes back from
// no route and is not in the store in plain text; each turn is audited with provider and model, not its content.
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { freePort, waitFor } from '../support/net.js';
import { FAKE_ANSWER, startStreamingChatServer, type StreamingChatServer } from '../support/streaming-chat-servers.js';
import { tempDir } from '../support/tmp.js';
import { startVigil, writeConfig, type VigilProcess } from '../support/vigil-process.js';

const TOKEN = 'assistant-run-dashboard-token-01';
const SECRET = 'sk-provider-key-that-must-never-come-back-5e1b';
const AWS = 'AKIAIOSFODNN7EXAMPLE';
const work = tempDir('vigil-assistant-');
let vigil: VigilProcess;
let fake: StreamingChatServer;
let base = '';
const seen: string[] = [];

const api = async (path: string, init: RequestInit = {}) => {
  const res = await fetch(`${base}${path}`, { ...init, headers: { authorization: `Bearer ${TOKEN}`, 'content-type': 'application/json', ...init.headers } });
  const text = await res.text();
  seen.push(text);
  let body: any;
  try { body = text ? JSON.parse(text) : undefined; } catch { body = undefined; }
  return { status: res.status, text, body, headers: res.headers };
};
const post = (path: string, body: unknown) => api(path, { method: 'POST', body: JSON.stringify(body) });
const configure = (body: Record<string, unknown>) => post('/api/llmconfig', body);

/** The events of a streamed answer, read to its end. */
function eventsOf(text: string): { event: string; data: any }[] {
  return text.split('\n\n').filter(Boolean).map((frame) => {
    const event = /^event: (.*)$/m.exec(frame)?.[1] ?? 'message';
    return { event, data: JSON.parse(/^data: (.*)$/m.exec(frame)![1]) };
  });
}
const answerOf = (events: { event: string; data: any }[]) => events.filter((e) => e.event === 'delta').map((e) => e.data.text).join('');
const doneOf = (events: { event: string; data: any }[]) => events.find((e) => e.event === 'done')!.data;
const ask = async (question: string, context?: unknown[]) => {
  const res = await post('/api/ai', { messages: [{ role: 'user', content: question }], ...(context ? { context } : {}) });
  assert.is(res.status, 200, res.text);
  assert.match(res.headers.get('content-type') ?? '', /text\/event-stream/);
  return eventsOf(res.text);
};

test.before(async () => {
  fake = await startStreamingChatServer();
  const port = await freePort();
  base = `http://127.0.0.1:${port}`;
  vigil = await startVigil(writeConfig(work.path, `data_dir: ${work.path}/data
control_plane: { listen: 127.0.0.1:${port}, token: ${TOKEN} }
assistant: { first_token_timeout: 2s, total_timeout: 60s, max_answer_bytes: 2048 }
`), base, { cwd: work.path });
});

test.after(async () => {
  await vigil?.stop('SIGKILL');
  await fake?.close();
  work.cleanup();
});

test('unconfigured: the settings say so, and a turn is refused with what to do', async () => {
  const view = await api('/api/llm');
  assert.is(view.status, 200, view.text);
  assert.is(view.body.configured, false);
  assert.is(view.body.can_configure, true);
  assert.is(view.body.limits.first_token_timeout_ms, 2000);
  const turn = await post('/api/ai', { messages: [{ role: 'user', content: 'hi' }] });
  assert.is(turn.status, 409);
  assert.is(turn.body.error.code, 'VIGIL_ERR_ASSISTANT_NOT_CONFIGURED');
});

test('bad settings are refused with a clear message', async () => {
  for (const [body, words] of [
    [{ provider: 'openai', base_url: 'ftp://x.example/v1', model: 'm' }, /http or https/],
    [{ provider: 'openai', base_url: `${fake.url}/v1` }, /needs `model`/],
    [{ provider: 'cli', model: 'm' }, /needs `command`/],
    [{ provider: 'ollama', model: 'm', api_key: 'k' }, /no API key/],
    [{ provider: 'openai', model: 'm', base_url: 'https://user:pw@x.example' }, /user or password/],
  ] as const) {
    const res = await configure(body);
    assert.is(res.status, 400, res.text);
    assert.match(res.body.error.message, words);
  }
  const unknown = await configure({ provider: 'openai', model: 'm', temperature: 2 });
  assert.is(unknown.status, 400);
});

test('an OpenAI-compatible provider: saved with its key (never returned), tested, and its answer streams through', async () => {
  const saved = await configure({ provider: 'openai', base_url: `${fake.url}/v1`, model: 'gpt-test', api_key: SECRET });
  assert.is(saved.status, 200, saved.text);
  assert.is(saved.body.key_set, true);
  assert.not.ok(saved.text.includes(SECRET));
  const check = await post('/api/llmtest', {});
  assert.is(check.status, 200, check.text);
  assert.is(check.body.ok, true, check.text);
  assert.is(check.body.answer, FAKE_ANSWER);
  const events = await ask('Why is the disk full?');
  assert.is(events[0].event, 'start');
  assert.equal(events[0].data, { provider: 'openai', model: 'gpt-test', masked: 0 });
  assert.ok(events.filter((e) => e.event === 'delta').length >= 3, 'the answer came in pieces');
  assert.is(answerOf(events), FAKE_ANSWER);
  assert.equal(doneOf(events), { outcome: 'done', message: null, bytes: Buffer.byteLength(FAKE_ANSWER) });
  const sent = fake.requests.at(-1)!;
  assert.is(sent.headers.authorization, `Bearer ${SECRET}`);
  assert.is(sent.body.stream, true);
  assert.is(sent.body.messages.at(-1).content, 'Why is the disk full?');
});

test('secrets in the question and the context are masked before they leave; the context reaches the provider', async () => {
  const events = await ask(`my key is ${AWS}, is that bad?`, [
    { kind: 'logs', title: 'Log excerpt', content: `sshd: Accepted publickey\napp: Authorization: Bearer abcdefghijklmnopqrstuvwxyz0123456789 sent` },
  ]);
  assert.is(events[0].data.masked, 2);
  const sent = JSON.stringify(fake.requests.at(-1)!.body);
  assert.not.ok(sent.includes(AWS), 'the AWS key left the host');
  assert.not.ok(sent.includes('abcdefghijklmnopqrstuvwxyz0123456789'), 'the bearer token left the host');
  assert.ok(sent.includes('[REDACTED]'));
  assert.ok(sent.includes('sshd: Accepted publickey'), 'the context was sent');
});

test('a proposal arrives as a validated card; an unknown action stays text', async () => {
  await configure({ provider: 'openai', base_url: `${fake.url}/v1`, model: 'propose' });
  const events = await ask('nginx is down');
  const proposals = events.filter((e) => e.event === 'proposal').map((e) => e.data);
  assert.is(proposals.length, 1);
  assert.is(proposals[0].action, 'restart_unit');
  assert.is(proposals[0].target, 'nginx.service');
  assert.is(proposals[0].path, '/host/services?q=nginx.service');
  assert.match(answerOf(events), /rm_rf/);
});

test('a provider that hangs is reported within its first-token timeout, and its request is closed', async () => {
  await configure({ provider: 'openai', base_url: `${fake.url}/v1`, model: 'hang' });
  const closedBefore = fake.closedEarly;
  const events = await ask('are you there?');
  const done = doneOf(events);
  assert.is(done.outcome, 'failed');
  assert.is(done.message, `no answer from ${fake.url}/v1/chat/completions in 2 s`);
  await waitFor(() => fake.closedEarly > closedBefore, { what: 'the hung request to be closed' });
});

test('a turn the client cancels aborts the upstream request: the provider sees its socket close', async () => {
  await configure({ provider: 'openai', base_url: `${fake.url}/v1`, model: 'slow' });
  const closedBefore = fake.closedEarly;
  const cancel = new AbortController();
  const res = await fetch(`${base}/api/ai`, {
    method: 'POST', signal: cancel.signal, headers: { authorization: `Bearer ${TOKEN}`, 'content-type': 'application/json' },
    body: JSON.stringify({ messages: [{ role: 'user', content: 'count' }] }),
  });
  const reader = res.body!.getReader();
  let text = '';
  while (!text.includes('event: delta')) text += new TextDecoder().decode((await reader.read()).value);
  cancel.abort();
  await waitFor(() => fake.closedEarly > closedBefore, { what: 'the upstream socket to close' });
  await waitFor(() => fake.open === 0, { what: 'no upstream request left open' });
});

test('an answer past max_answer_bytes is cut and the upstream request aborted; an error mid-stream ends the turn with it', async () => {
  await configure({ provider: 'openai', base_url: `${fake.url}/v1`, model: 'slow' });
  const closedBefore = fake.closedEarly;
  const cut = await ask('count to a thousand');
  assert.is(doneOf(cut).outcome, 'cut');
  assert.is(doneOf(cut).message, 'the answer passed 2048 bytes and was cut there');
  assert.ok(Buffer.byteLength(answerOf(cut)) <= 2048);
  await waitFor(() => fake.closedEarly > closedBefore, { what: 'the cut request to be closed' });
  await configure({ provider: 'openai', base_url: `${fake.url}/v1`, model: 'fail' });
  const failed = await ask('hello');
  assert.is(doneOf(failed).outcome, 'failed');
  assert.is(doneOf(failed).message, 'the provider failed mid-answer: model overloaded');
  assert.is(answerOf(failed), 'Part ');
});

test('the key is in the store only sealed, and no answer ever held it', async () => {
  await configure({ provider: 'openai', base_url: `${fake.url}/v1`, model: 'gpt-test' });
  assert.is((await api('/api/llm')).body.key_set, true, 'a change of model keeps the key');
  const stored = ['vigil.db', 'vigil.db-wal'].map((f) => join(work.path, 'data', f)).filter(existsSync).map((f) => readFileSync(f));
  assert.ok(stored.length > 0);
  for (const bytes of stored) assert.is(bytes.indexOf(SECRET), -1, 'the key is in the store in plain text');
  for (const text of seen) assert.not.ok(text.includes(SECRET), 'an answer held the key');
});

test('an Ollama server: NDJSON streamed through, the health report too, and the key forgotten', async () => {
  const saved = await configure({ provider: 'ollama', base_url: fake.url, model: 'llama-test' });
  assert.is(saved.status, 200, saved.text);
  assert.is(saved.body.key_set, false);
  const events = await ask('hello');
  assert.is(answerOf(events), FAKE_ANSWER);
  assert.is(doneOf(events).outcome, 'done');
  assert.is(fake.requests.at(-1)!.path, '/api/chat');
  const report = await post('/api/health', { score: 70, verdict: 'Needs attention', findings: [{ severity: 'warning', title: 'Disk / is 88 % full', detail: 'Clean the package cache.' }] });
  assert.is(report.status, 200, report.text);
  assert.is(answerOf(eventsOf(report.text)), FAKE_ANSWER);
  const prompt = fake.requests.at(-1)!.body.messages.at(-1).content as string;
  assert.match(prompt, /70\/100/);
  assert.match(prompt, /\[warning\] Disk \/ is 88 % full/);
});

test('a local command: argv without a shell, the prompt on stdin, stdout streamed', async () => {
  const saved = await configure({ provider: 'cli', command: ['/usr/bin/python3', '-c', 'import sys; d = sys.stdin.read(); print("read", "User:" in d, flush=True); print("done")'] });
  assert.is(saved.status, 200, saved.text);
  const events = await ask('hi');
  assert.is(answerOf(events), 'read True\ndone\n');
  assert.is(doneOf(events).outcome, 'done');
  await configure({ provider: 'cli', command: ['/nonexistent/llm'] });
  assert.match(doneOf(await ask('hi')).message, /not installed/);
});

test('each turn is audited with its provider and model, never its content', async () => {
  const entries = await waitFor(async () => {
    const page = await api('/api/audit?limit=200');
    const turns = (page.body.entries as { action: string; detail: string | null }[]).filter((e) => e.action === 'POST /api/ai');
    return turns.length >= 8 ? turns : null;
  }, { what: 'the turns in the audit log' }) as { action: string; detail: string | null }[];
  const detail = entries.map((e) => e.detail ?? '').join('\n');
  assert.match(detail, /provider openai, model gpt-test/);
  assert.match(detail, /content not logged/);
  assert.not.ok(detail.includes('Why is the disk full'));
  assert.not.ok(detail.includes(AWS));
});

test.run();
