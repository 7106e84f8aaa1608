// The prompt registry on a real `vigil run`, on SQLite and PostgreSQL: a create of a text seen in traffic answers the
// detected version (same hash, same number); labels attach, move and leave, each move recorded with who made it;
// applications fetch by label or number with an ETag and get 304 until a label moves; bad input is refused with
// the catalogue's codes; the gate compares the version a label names against a candidate, over HTTP and with
// `vigil gate --baseline-label`.
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { llmClient, traceItem, type Json } from '../support/llm-client.js';
import { freePort } from '../support/net.js';
import { freshPostgresSchema, postgresAvailable } from '../support/postgres.js';
import { tempDir } from '../support/tmp.js';
import { runVigil, startVigil, writeConfig, type VigilProcess } from '../support/vigil-process.js';

const TOKEN = 'llm-prompt-registry-token';
const KEY = 'prompt-registry-key-0123456789';
const OTHER = 'prompt-registry-other-0123456789';

interface Ctx {
  work: ReturnType<typeof tempDir>;
  vigil: VigilProcess;
  base: string;
  api: ReturnType<typeof llmClient>;
  drop?: () => Promise<void>;
}

const json = (body: unknown): RequestInit => ({ body: JSON.stringify(body), headers: { 'content-type': 'application/json' } });
const post = (ctx: Ctx, path: string, body: unknown, key = KEY) => ctx.api.send(path, key, { method: 'POST', ...json(body) });
const put = (ctx: Ctx, path: string, body: unknown, key = KEY) => ctx.api.send(path, key, { method: 'PUT', ...json(body) });
const del = (ctx: Ctx, path: string, key = KEY) => ctx.api.send(path, key, { method: 'DELETE' });
const fetchPrompt = (ctx: Ctx, path: string, headers: Record<string, string> = {}) => ctx.api.send(path, KEY, { headers });

/** Ingests `count` calls of the template text `raw` (errors for the first `errors`) and waits until they are stored. */
async function ingest(ctx: Ctx, name: string, raw: string, count: number, errors = 0, latency = 100): Promise<Json[]> {
  const traces = Array.from({ length: count }, (_, i) => traceItem({
    id: crypto.randomUUID(), prompt_template: { name, raw }, latency_ms: latency, ...(i < errors ? { status: 'error', error: 'boom' } : {}),
  }));
  const r = await ctx.api.ingest(KEY, { traces });
  assert.is(r.status, 202, JSON.stringify(r.body));
  return ctx.api.waitForTraces(KEY, traces.map((t) => t.id as string));
}

function define(backend: 'sqlite' | 'postgres') {
  const test = suite<Ctx>(`llm prompt registry (${backend})`);

  test.before(async (ctx) => {
    ctx.work = tempDir('vigil-prompt-registry-');
    let storage = '';
    if (backend === 'postgres') {
      const schema = await freshPostgresSchema('llm_prompt_registry');
      ctx.drop = () => schema.drop();
      storage = `storage: { url: "${schema.url}" }\n`;
    }
    const port = await freePort();
    ctx.base = `http://127.0.0.1:${port}`;
    const file = writeConfig(ctx.work.path, `data_dir: ${ctx.work.path}/data
${storage}control_plane: { listen: 127.0.0.1:${port}, token: ${TOKEN} }
llm:
  projects:
    - { name: support, key: ${KEY} }
    - { name: other, key: ${OTHER} }
`);
    ctx.vigil = await startVigil(file, ctx.base, { cwd: ctx.work.path });
    ctx.api = llmClient(ctx.base);
  });

  test.after(async (ctx) => {
    await ctx.vigil?.stop('SIGKILL');
    await ctx.drop?.();
    ctx.work.cleanup();
  });

  test('a create of a text seen in traffic answers the detected version: same number, same hash; a new text is the next number', async (ctx) => {
    const [detected] = await ingest(ctx, 'greeter', 'Hello {{name}}.\nBe brief.', 1);
    assert.is(detected.prompt_template.version, 1);
    // CRLF and trailing spaces normalise away, as for detected templates.
    let r = await post(ctx, '/api/v1/prompts', { name: 'greeter', prompt: '\r\nHello {{name}}.   \r\nBe brief.\r\n\r\n' });
    assert.is(r.status, 200, JSON.stringify(r.body));
    assert.is(r.body.created, false);
    assert.is(r.body.prompt.version, 1);
    assert.is(r.body.prompt.hash, detected.prompt_template.hash);
    assert.is(r.body.prompt.text, 'Hello {{name}}.\nBe brief.');
    assert.is(r.body.prompt.type, 'text');
    assert.is(r.body.prompt.created_by, 'detected; described by project key');

    r = await post(ctx, '/api/v1/prompts', { name: 'greeter', prompt: 'Hello {{name}}.\nBe warm.', config: { temperature: 0.2 }, labels: ['staging'], commit_message: 'warmer' });
    assert.is(r.status, 201, JSON.stringify(r.body));
    assert.equal([r.body.created, r.body.prompt.version, r.body.prompt.labels, r.body.prompt.config, r.body.prompt.commit_message],
      [true, 2, ['latest', 'staging'], { temperature: 0.2 }, 'warmer']);
    // Sent again: the same version, nothing made, and the traffic that uses it lands on it.
    r = await post(ctx, '/api/v1/prompts', { name: 'greeter', prompt: 'Hello {{name}}.\nBe warm.' });
    assert.equal([r.status, r.body.created, r.body.prompt.version], [200, false, 2]);
    const [later] = await ingest(ctx, 'greeter', 'Hello {{name}}.\nBe warm.\n', 1);
    assert.is(later.prompt_template.version, 2);
    // The detected list shows the created version like any other.
    const list = await ctx.api.get(KEY, '/api/v1/prompt-templates');
    assert.equal(list.body.data.find((t: Json) => t.name === 'greeter').versions.map((v: Json) => v.version), [1, 2]);
    // Another config for the same text is refused: a version is its text, its config fixed when given.
    r = await post(ctx, '/api/v1/prompts', { name: 'greeter', prompt: 'Hello {{name}}.\nBe warm.', config: { temperature: 0.9 } });
    assert.is(r.status, 409);
    assert.is(r.body.error.code, 'VIGIL_ERR_LLM_PROMPT_CONFLICT');
  });

  test('labels: attach, fetch with an ETag, 304 until a label moves, move back, remove; the history says which version, when and who', async (ctx) => {
    await post(ctx, '/api/v1/prompts', { name: 'labelled', prompt: 'First text.' });
    await post(ctx, '/api/v1/prompts', { name: 'labelled', prompt: 'Second text.' });
    let r = await fetchPrompt(ctx, '/api/v1/prompts/labelled');
    assert.is(r.status, 404, 'no production label yet');
    assert.is(r.body.error.code, 'VIGIL_ERR_LLM_PROMPT_LABEL_NOT_FOUND');

    r = await put(ctx, '/api/v1/prompts/labelled/labels/production', { version: 1 });
    assert.equal(r.body, { name: 'labelled', label: 'production', version: 1, previous_version: null, changed: true });
    r = await fetchPrompt(ctx, '/api/v1/prompts/labelled?label=production');
    assert.equal([r.status, r.body.version, r.body.text, r.body.labels], [200, 1, 'First text.', ['production']]);
    const etag = r.headers.get('etag')!;
    assert.match(etag, /^"[A-Za-z0-9_-]{27}"$/);
    assert.is(r.headers.get('cache-control'), 'private, no-cache');
    const defaulted = await fetchPrompt(ctx, '/api/v1/prompts/labelled');
    assert.is(defaulted.headers.get('etag'), etag, 'no label is production');
    r = await fetchPrompt(ctx, '/api/v1/prompts/labelled?label=production', { 'if-none-match': etag });
    assert.is(r.status, 304);
    assert.is(r.body, '');
    r = await fetchPrompt(ctx, '/api/v1/prompts/labelled?label=production', { 'if-none-match': `"other", W/${etag}` });
    assert.is(r.status, 304, 'a list and the weak form match too');

    // The dashboard moves it: the answer changes, and so does the ETag.
    r = await ctx.api.dashboard(TOKEN, '/api/llm/projects/support/prompts/labelled/labels/production', { method: 'PUT', body: JSON.stringify({ version: 2 }) });
    assert.equal(r.body, { name: 'labelled', label: 'production', version: 2, previous_version: 1, changed: true });
    r = await fetchPrompt(ctx, '/api/v1/prompts/labelled?label=production', { 'if-none-match': etag });
    assert.equal([r.status, r.body.version, r.body.labels], [200, 2, ['latest', 'production']]);
    assert.ok(r.headers.get('etag') !== etag);
    r = await put(ctx, '/api/v1/prompts/labelled/labels/production', { version: 2 });
    assert.is(r.body.changed, false, 'a label already there is not a move');
    r = await put(ctx, '/api/v1/prompts/labelled/labels/production', { version: 1 });
    assert.equal([r.body.version, r.body.previous_version], [1, 2]);
    r = await fetchPrompt(ctx, '/api/v1/prompts/labelled?label=production', { 'if-none-match': etag });
    assert.is(r.status, 304, 'back on version 1: the first answer again');

    // A new newest version takes `latest`, which changes the answer of the version it left.
    r = await fetchPrompt(ctx, '/api/v1/prompts/labelled?version=2');
    const v2tag = r.headers.get('etag')!;
    await post(ctx, '/api/v1/prompts', { name: 'labelled', prompt: 'Third text.' });
    r = await fetchPrompt(ctx, '/api/v1/prompts/labelled?version=2', { 'if-none-match': v2tag });
    assert.equal([r.status, r.body.labels], [200, []]);
    r = await fetchPrompt(ctx, '/api/v1/prompts/labelled?label=latest');
    assert.is(r.body.version, 3);

    r = await del(ctx, '/api/v1/prompts/labelled/labels/production');
    assert.equal(r.body, { name: 'labelled', label: 'production', version: null, previous_version: 1, changed: true });
    assert.is((await fetchPrompt(ctx, '/api/v1/prompts/labelled?label=production')).status, 404);
    assert.is((await del(ctx, '/api/v1/prompts/labelled/labels/production')).status, 404);

    const labels = await ctx.api.dashboard(TOKEN, '/api/llm/projects/support/prompts/labelled/labels');
    assert.is(labels.status, 200, JSON.stringify(labels.body));
    assert.is(labels.body.newest, 3);
    assert.equal(labels.body.labels, []);
    assert.equal(labels.body.history.map((m: Json) => [m.label, m.previous_version, m.version, m.actor]), [
      ['production', 1, null, 'project key'],
      ['production', 2, 1, 'project key'],
      ['production', 1, 2, 'dashboard (token)'],
      ['production', null, 1, 'project key'],
    ]);
    for (const m of labels.body.history) assert.ok(Date.now() - Date.parse(m.at) < 120_000, m.at);
    assert.equal((await ctx.api.get(KEY, '/api/v1/prompts/labelled/labels')).body, labels.body, 'the public twin answers the same');
  });

  test('chat prompts keep their messages; the dashboard creates as itself; each project sees its own prompts only', async (ctx) => {
    const messages = [{ role: 'system', content: 'You are {{persona}}.' }, { type: 'placeholder', name: 'history' }, { role: 'user', content: '{{question}}' }];
    let r = await ctx.api.dashboard(TOKEN, '/api/llm/projects/support/prompts', { method: 'POST', body: JSON.stringify({ name: 'chatty', type: 'chat', prompt: messages, labels: ['production'] }) });
    assert.is(r.status, 201, JSON.stringify(r.body));
    assert.is(r.body.prompt.created_by, 'dashboard (token)');
    r = await fetchPrompt(ctx, '/api/v1/prompts/chatty');
    assert.equal([r.body.type, r.body.messages], ['chat', messages]);
    assert.equal(JSON.parse(r.body.text), messages);
    assert.is((await ctx.api.send('/api/v1/prompts/chatty', OTHER)).status, 404, 'another project\'s key sees nothing');
    assert.is((await ctx.api.dashboard(TOKEN, '/api/llm/projects/nope/prompts/chatty')).status, 404);
  });

  test('bad input: labels outside the pattern, `latest`, label and version together, unknown versions, oversize text, empty text, no key', async (ctx) => {
    await post(ctx, '/api/v1/prompts', { name: 'strict', prompt: 'Only text.' });
    const expect = async (res: Promise<{ status: number; body: any }>, status: number, code: string) => {
      const r = await res;
      assert.is(r.status, status, JSON.stringify(r.body));
      assert.is(r.body.error.code, code);
    };
    await expect(put(ctx, '/api/v1/prompts/strict/labels/Prod%20One', { version: 1 }), 400, 'VIGIL_ERR_LLM_PROMPT_LABEL');
    await expect(put(ctx, '/api/v1/prompts/strict/labels/latest', { version: 1 }), 400, 'VIGIL_ERR_LLM_PROMPT_LABEL');
    await expect(put(ctx, '/api/v1/prompts/strict/labels/production', { version: 7 }), 404, 'VIGIL_ERR_LLM_VERSION_NOT_FOUND');
    await expect(fetchPrompt(ctx, '/api/v1/prompts/strict?label=production&version=1'), 400, 'VIGIL_ERR_LLM_PROMPT_INVALID');
    await expect(fetchPrompt(ctx, '/api/v1/prompts/absent?version=1'), 404, 'VIGIL_ERR_LLM_VERSION_NOT_FOUND');
    await expect(post(ctx, '/api/v1/prompts', { name: 'strict', prompt: 'x'.repeat(32_769) }), 413, 'VIGIL_ERR_LLM_PROMPT_TOO_LARGE');
    await expect(post(ctx, '/api/v1/prompts', { name: 'strict', prompt: ' \n \r\n' }), 400, 'VIGIL_ERR_LLM_PROMPT_INVALID');
    await expect(post(ctx, '/api/v1/prompts', { name: 'strict', type: 'chat', prompt: [{ role: 'user' }] }), 400, 'VIGIL_ERR_LLM_PROMPT_INVALID');
    await expect(post(ctx, '/api/v1/prompts', { name: 'strict', prompt: 'ok', labels: ['latest'] }), 400, 'VIGIL_ERR_LLM_PROMPT_LABEL');
    assert.is((await ctx.api.send('/api/v1/prompts/strict?version=1', undefined)).status, 401);
    assert.is((await post(ctx, '/api/v1/prompts', { name: 'strict', prompt: 'ok', extra: 1 })).status, 400, 'unknown keys are refused');
    // The refused creates made nothing.
    assert.is((await fetchPrompt(ctx, '/api/v1/prompts/strict?label=latest')).body.version, 1);
  });

  test('a created text is kept redacted by the project\'s detectors (its hash is of the text as sent); chat messages stay JSON', async (ctx) => {
    let r = await post(ctx, '/api/v1/prompts', { name: 'secretive', prompt: 'Escalate to ops@example.com when stuck.' });
    assert.is(r.status, 201, JSON.stringify(r.body));
    assert.not.match(r.body.prompt.text, /ops@example\.com/);
    assert.match(r.body.prompt.text, /^Escalate to .+ when stuck\.$/);
    const { createHash } = await import('node:crypto');
    assert.is(r.body.prompt.hash, createHash('sha256').update('Escalate to ops@example.com when stuck.').digest('hex'));
    r = await post(ctx, '/api/v1/prompts', { name: 'secretive-chat', type: 'chat', prompt: [{ role: 'system', content: 'Mail ops@example.com.' }] });
    assert.is(r.status, 201, JSON.stringify(r.body));
    assert.is(r.body.prompt.messages.length, 1);
    assert.not.match(JSON.stringify(r.body.prompt), /ops@example\.com/);
  });

  test('the gate compares the version a label names against a candidate, over HTTP and with vigil gate --baseline-label', async (ctx) => {
    await ingest(ctx, 'gated', 'Answer politely.', 10, 0, 100);
    await ingest(ctx, 'gated', 'Answer tersely.', 10, 5, 100);
    await ingest(ctx, 'gated', 'Answer tersely, in French.', 10, 0, 100);
    await put(ctx, '/api/v1/prompts/gated/labels/production', { version: 1 });
    await put(ctx, '/api/v1/prompts/gated/labels/staging', { version: 2 });
    let r = await ctx.api.get(KEY, '/api/v1/gate?template=gated&baseline_label=production&candidate_label=staging&min_samples=5');
    assert.is(r.status, 200, JSON.stringify(r.body));
    assert.equal([r.body.baseline.version, r.body.candidate.version, r.body.pass], [1, 2, false]);
    r = await ctx.api.get(KEY, '/api/v1/gate?template=gated&baseline_label=production&min_samples=5');
    assert.equal([r.body.baseline.version, r.body.candidate.version, r.body.pass], [1, 3, true]);
    r = await ctx.api.get(KEY, '/api/v1/gate?template=gated&baseline_label=canary');
    assert.is(r.status, 400);
    assert.match(r.body.error.message, /no version labelled "canary"/);

    const cli = (args: string[]) => runVigil(['gate', '--url', ctx.base, '--key', KEY, '--template', 'gated', '--min-samples', '5', ...args], { cwd: ctx.work.path });
    let out = await cli(['--baseline-label', 'production', '--candidate-label', 'staging']);
    assert.is(out.code, 1, out.stderr + out.stdout);
    assert.match(out.stdout, /v2 \(candidate, 10 calls\) vs v1 \(baseline, 10 calls\): FAIL/);
    out = await cli(['--baseline-label', 'production']);
    assert.is(out.code, 0, out.stderr + out.stdout);
    assert.match(out.stdout, /v3 \(candidate, 10 calls\) vs v1 \(baseline, 10 calls\): PASS/);
  });

  return test;
}

const withPostgres = await postgresAvailable('llm-prompt-registry');
define('sqlite').run();
if (withPostgres) define('postgres').run();
