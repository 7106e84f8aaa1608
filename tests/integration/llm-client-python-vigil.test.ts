// The Python client (clients/python) end to end: installed with pip from the source tree into a fresh directory (so
// pyproject.toml, the package list and py.typed are what a user gets), the README's quick start run as written against
// a real `vigil run` with a project made by `vigil project create`, and the traces found through `/api/v1/traces`
// with the project key. The openai snippets run on the stand-in of the openai package (clients/python/tests/
// openai_standin.py, importable as `openai`: the real package cannot be installed here) calling the fake OpenAI server.
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { spawn } from 'node:child_process';
import { copyFileSync, cpSync, existsSync, mkdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { FAKE, startFakeOpenAI, type FakeOpenAI } from '../support/fake-openai.js';
import { PYTHON } from '../support/conformance/drivers.js';
import { freePort, waitFor } from '../support/net.js';
import { fromRoot } from '../support/paths.js';
import { tempDir } from '../support/tmp.js';
import { runVigil, startVigil, writeConfig, type VigilProcess } from '../support/vigil-process.js';

type Json = Record<string, any>;

const test = suite('python client against vigil run');
const work = tempDir('vigil-py-client-');
let base = '';
let key = '';
let vigil: VigilProcess;
let fake: FakeOpenAI;
const site = join(work.path, 'site');
const shim = join(work.path, 'shim');

function run(cmd: string, args: string[], env: Record<string, string> = {}, input?: string): Promise<{ code: number | null; stdout: string; stderr: string }> {
  return new Promise((resolve) => {
    const child = spawn(cmd, args, { cwd: work.path, env: { ...process.env, PYTHONDONTWRITEBYTECODE: '1', ...env }, stdio: ['pipe', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (d) => { stdout += d; });
    child.stderr.on('data', (d) => { stderr += d; });
    const killer = setTimeout(() => child.kill('SIGKILL'), 120_000);
    child.on('close', (code) => { clearTimeout(killer); resolve({ code, stdout, stderr }); });
    child.stdin.end(input ?? '');
  });
}

/** The ```python blocks of the README section headed `heading`. */
function readmeBlocks(heading: string): string[] {
  const text = readFileSync(fromRoot('clients/python/README.md'), 'utf8');
  const start = text.indexOf(`\n## ${heading}\n`);
  assert.ok(start >= 0, `README section "${heading}"`);
  const end = text.indexOf('\n## ', start + 4);
  const section = text.slice(start, end < 0 ? undefined : end);
  return [...section.matchAll(/```python\n([\s\S]*?)```/g)].map((m) => m[1]);
}

/** Runs Python code as the user's program: the installed package, and the openai stand-in as `openai`. */
const runPython = (code: string, env: Record<string, string> = {}) => run(PYTHON, ['-'], {
  PYTHONPATH: `${site}:${shim}`, VIGIL_URL: base, VIGIL_PROJECT_KEY: key, OPENAI_BASE_URL: fake.baseURL, OPENAI_API_KEY: 'sk-fake', ...env,
}, code);

const api = async (path: string): Promise<Json> => {
  const res = await fetch(`${base}${path}`, { headers: { 'x-service-project-key': key } });
  assert.is(res.status, 200, `${path}: ${res.status}`);
  return res.json() as Promise<Json>;
};

const traces = async (query: string, count: number): Promise<Json[]> => (await waitFor(async () => {
  const page = await api(`/api/v1/traces?${query}&limit=200`);
  return page.data.length >= count ? page.data as Json[] : undefined;
}, { timeoutMs: 15_000, what: `${count} trace(s) for ${query}` }))!;

test.before(async () => {
  const port = await freePort();
  base = `http://127.0.0.1:${port}`;
  const file = writeConfig(work.path, `data_dir: ${work.path}/data\ncontrol_plane: { listen: 127.0.0.1:${port}, token: py-client-token }\nllm: {}\n`);
  const created = await runVigil(['project', 'create', 'py-app', '-config', file], { cwd: work.path });
  assert.is(created.code, 0, created.stderr);
  key = created.stdout.trim().split('\n').at(-1)!;
  vigil = await startVigil(file, base, { cwd: work.path });
  fake = await startFakeOpenAI({ delayMs: 2 });
  // pip builds from a copy: building in the tree would leave build/ and *.egg-info behind.
  const source = join(work.path, 'source');
  cpSync(fromRoot('clients/python'), source, { recursive: true, filter: (p) => !/__pycache__|\/build$|egg-info/.test(p) });
  const pip = await run(PYTHON, ['-m', 'pip', 'install', '--quiet', '--no-build-isolation', '--no-deps', '--no-index', '--target', site, source]);
  assert.is(pip.code, 0, `pip install: ${pip.stdout}${pip.stderr}`);
  mkdirSync(shim);
  copyFileSync(fromRoot('clients/python/tests/openai_standin.py'), join(shim, 'openai.py'));
});

test.after(async () => {
  await vigil?.stop('SIGKILL');
  await fake?.close();
  work.cleanup();
});

test('pip installs the package with its type marker', () => {
  assert.ok(existsSync(join(site, 'vigil_llm', 'py.typed')), 'py.typed is installed');
  assert.ok(existsSync(join(site, 'vigil_llm', 'trace_item.py')));
  assert.ok(existsSync(join(site, 'vigil_llm-0.1.0.dist-info')));
});

test('the quick start runs as written and its trace is stored, read back through /api/v1/traces', async () => {
  const [quick] = readmeBlocks('Quick start');
  const out = await runPython(quick);
  assert.is(out.code, 0, out.stderr);
  assert.is(out.stderr, '', 'no warning: the trace was delivered at exit');
  const [trace] = await traces('tag=quickstart', 1);
  assert.is(trace.model, 'gpt-4o-mini');
  assert.is(trace.name, 'support-reply');
  assert.is(trace.user_id, 'user-42');
  assert.equal([trace.input, trace.output, trace.latency_ms], ['Where is my order?', 'On its way.', 840]);
  assert.equal(trace.tokens, { input: 12, output: 4 });
  assert.ok(trace.cost_usd > 0 && trace.cost_estimated === true, `priced from the table: ${trace.cost_usd}`);
});

test('the README\'s openai snippet runs as written and the call is stored with tokens, messages and answer', async () => {
  const [snippet] = readmeBlocks('Use it with openai');
  const out = await runPython(snippet);
  assert.is(out.code, 0, out.stderr);
  assert.is(out.stdout.trim(), FAKE.answer);
  const [trace] = await traces('model=gpt-4o-mini-2024-07-18', 1);
  assert.is(trace.provider, 'openai');
  assert.is(trace.name, 'openai.chat.completions');
  assert.equal(trace.tokens, { input: 21, output: 7, cache_read: 5, total: 28 });
  assert.equal(trace.input, [{ role: 'user', content: 'Say hi' }]);
  assert.equal(trace.output, { role: 'assistant', content: FAKE.answer, refusal: null });
});

test('async and streamed calls in a scope with a prompt template: stored whole, the template versioned by the server', async () => {
  const out = await runPython(`
import asyncio
from openai import AsyncOpenAI
from vigil_llm import Vigil

vigil = Vigil()
client = vigil.wrap_openai(AsyncOpenAI())
TEMPLATE = "You answer questions about {shop}.\\nBe brief."

async def main():
    async with vigil.trace("shop-bot", session_id="s-9", tags=["py-async"], prompt_template={"name": "shop-bot", "raw": TEMPLATE, "variables": {"shop": "Acme"}}):
        stream = await client.chat.completions.create(model="gpt-4o-mini", messages=[{"role": "user", "content": "Open on Sunday?"}],
                                                      stream=True, stream_options={"include_usage": True})
        async for chunk in stream:
            pass
        await client.embeddings.create(model="text-embedding-3-small", input="Open on Sunday?")
    await client.close()

asyncio.run(main())
vigil.close()
print(vigil.stats()["sent"])
`);
  assert.is(out.code, 0, out.stderr);
  assert.is(out.stdout.trim(), '2');
  const stored = await traces('tag=py-async', 2);
  const streamed = stored.find((t) => t.metadata?.stream)!;
  assert.is(streamed.output.content, FAKE.streamed.join(''));
  assert.equal([streamed.tokens.input, streamed.tokens.output], [FAKE.streamUsage.prompt_tokens, FAKE.streamUsage.completion_tokens]);
  assert.equal([streamed.name, streamed.session_id, streamed.prompt_template.name, streamed.prompt_template.version], ['shop-bot', 's-9', 'shop-bot', 1]);
  const embedding = stored.find((t) => t.model === FAKE.embeddingModel)!;
  assert.equal(embedding.output, { embeddings: 1, dimensions: 3 });
});

test('a wrong key: the batch is refused with 401, dropped and counted, and the program still exits 0', async () => {
  const out = await runPython(`
from vigil_llm import Vigil
vigil = Vigil(project_key="vk_${'x'.repeat(43)}", on_error=lambda e: print(e.code, e.status))
vigil.record({"model": "m", "tags": ["py-wrong-key"]})
vigil.close()
print(vigil.stats()["dropped"])
`);
  assert.is(out.code, 0, out.stderr);
  assert.equal(out.stdout.trim().split('\n'), ['VIGIL_ERR_CLIENT_AUTH 401', '1']);
  assert.equal((await api('/api/v1/traces?tag=py-wrong-key')).data, []);
});

test.run();
