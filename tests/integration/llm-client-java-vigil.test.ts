// Issue 36: the Java client against a real `vigil run`. The README's quick start is run as written (its Main.java and
// its shell steps, with the environment it tells the reader to set, on a copy of clients/java as the reader's clone)
// against a fake OpenAI server speaking the real protocol; the conformance driver sends to the real ingest route; a
// JVM that ends without close() still delivers through the shutdown hook. Each trace is found through /api/v1/traces.
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { cpSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { FAKE, startFakeOpenAI, type FakeOpenAI } from '../support/fake-openai.js';
import { codeBlocks, mustRun, toolchainPresent } from '../support/client-toolchain.js';
import { startLlmProjectVigil, type LlmProjectVigil } from '../support/llm-project-vigil.js';
import { fromRoot } from '../support/paths.js';
import { tempDir } from '../support/tmp.js';

const test = suite('Java client against vigil run');

// Records one span and returns from main without closing the client: the shutdown hook must send it.
const HOOK_PROGRAM = `import dev.vigil.client.Vigil;

public class Hook {
    public static void main(String[] args) {
        Vigil vigil = Vigil.builder().flushInterval(java.time.Duration.ofHours(1)).build();
        vigil.trace("gpt-4o-mini").name("at-exit").tag("java-hook").close();
    }
}
`;

if (toolchainPresent('Java client against vigil run', [['javac', '-version'], ['java', '-version']], 'default-jdk-headless')) {
  const work = tempDir('vigil-java-e2e-');
  const clone = join(work.path, 'vigil');
  let v: LlmProjectVigil;
  let fake: FakeOpenAI;
  const clientEnv = (): NodeJS.ProcessEnv => ({
    VIGIL_CLONE: clone, VIGIL_URL: v.base, VIGIL_PROJECT_KEY: v.key, OPENAI_BASE_URL: fake.baseURL, OPENAI_API_KEY: 'sk-fake',
  });
  const readme = readFileSync(fromRoot('clients/java/README.md'), 'utf8');
  const [setup, steps] = codeBlocks(readme, '## Quick start', 'sh');

  test.before(async () => {
    // The reader's clone: build.sh writes its build/ next to its sources, so it runs on a copy, not on this tree.
    cpSync(fromRoot('clients/java'), join(clone, 'clients/java'), { recursive: true, filter: (src) => !/\/build$/.test(src) });
    v = await startLlmProjectVigil(work.path, 'java-app');
    fake = await startFakeOpenAI({ delayMs: 5 });
  });
  test.after(async () => {
    await v?.vigil.stop('SIGKILL');
    await fake?.close();
    work.cleanup();
  });

  test("the README's quick start runs as written, and its trace is stored", async () => {
    assert.match(setup, /export VIGIL_URL=.* VIGIL_PROJECT_KEY=/, 'the first block sets the environment the test provides');
    const [program] = codeBlocks(readme, '## Quick start', 'java');
    const dir = join(work.path, 'quickstart');
    mkdirSync(dir);
    writeFileSync(join(dir, 'Main.java'), program);
    const out = await mustRun('sh', ['-e', '-c', steps], { cwd: dir, env: clientEnv(), timeoutMs: 300_000 });
    assert.match(out, new RegExp(FAKE.answer.replace('.', '\\.')), 'the program printed the answer');

    const [trace] = await v.tracesTagged('quickstart', 1);
    assert.is(trace.model, FAKE.model, 'the model the answer names');
    assert.is(trace.provider, 'openai');
    assert.is(trace.status, 'ok');
    assert.is(trace.user_id, 'user-42');
    assert.equal(trace.tokens, { input: 21, output: 7, cache_read: 5, total: 28 });
    assert.equal(trace.input, [{ role: 'user', content: 'Say hello' }]);
    assert.equal(trace.output, { role: 'assistant', content: FAKE.answer, refusal: null });
    assert.is(trace.metadata.finish_reason, 'stop');
    assert.ok(trace.latency_ms >= 5, `latency ${trace.latency_ms}`);
  });

  test('a JVM that returns from main without close() delivers through the shutdown hook', async () => {
    const dir = join(work.path, 'hook');
    mkdirSync(dir);
    writeFileSync(join(dir, 'Hook.java'), HOOK_PROGRAM);
    await mustRun('java', ['-cp', join(clone, 'clients/java/build/vigil-client.jar'), 'Hook.java'], { cwd: dir, env: clientEnv(), timeoutMs: 120_000 });
    const [trace] = await v.tracesTagged('java-hook', 1);
    assert.is(trace.name, 'at-exit');
  });

  test('the conformance driver delivers to the real ingest route', async () => {
    const items = [1, 2, 3].map((i) => ({ model: 'gpt-4o-mini', name: `driver-${i}`, tags: ['java-driver'], tokens: { input: i, output: i } }));
    const out = await mustRun('java', ['-cp', join(clone, 'clients/java/build/classes'), 'dev.vigil.conformance.ConformanceDriver'], {
      cwd: work.path, env: { VIGIL_BASE_URL: v.base, VIGIL_PROJECT_KEY: v.key }, input: JSON.stringify({ items, options: { max_batch_items: 2 } }),
    });
    assert.equal(JSON.parse(out), { sent: 3, dropped: 0 });
    const stored = await v.tracesTagged('java-driver', 3);
    assert.equal(stored.map((t) => t.name).sort(), ['driver-1', 'driver-2', 'driver-3']);
  });
}

test.run();
