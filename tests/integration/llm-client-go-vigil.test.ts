// Issue 36: the Go client against a real `vigil run`. The README's quick start is run as written (its main.go and its
// shell steps, with the environment it tells the reader to set) against a fake OpenAI server speaking the real
// protocol; a streamed chat completion goes through the recording Transport; the conformance driver sends to the real
// ingest route. Each trace is then found through the public API, /api/v1/traces, with the project's key.
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { FAKE, startFakeOpenAI, type FakeOpenAI } from '../support/fake-openai.js';
import { codeBlocks, goSandbox, mustRun, toolchainPresent } from '../support/client-toolchain.js';
import { startLlmProjectVigil, type LlmProjectVigil } from '../support/llm-project-vigil.js';
import { fromRoot, repoRoot } from '../support/paths.js';
import { tempDir } from '../support/tmp.js';

const test = suite('Go client against vigil run');

const STREAM_PROGRAM = `package main

import (
	"bufio"
	"context"
	"fmt"
	"net/http"
	"os"
	"strings"

	"github.com/vigil-dev/vigil/clients/go/vigil"
)

func main() {
	client := vigil.New(vigil.Options{})
	defer client.Close()
	hc := &http.Client{Transport: client.Transport(nil)}
	ctx := vigil.WithAttributes(context.Background(), vigil.Attributes{SessionID: "session-7", Tags: []string{"go-stream"}})
	body := \`{"model":"gpt-4o-mini","stream":true,"stream_options":{"include_usage":true},"messages":[{"role":"user","content":"Capital of France?"}]}\`
	req, _ := http.NewRequestWithContext(ctx, "POST", os.Getenv("OPENAI_BASE_URL")+"/chat/completions", strings.NewReader(body))
	req.Header.Set("Content-Type", "application/json")
	res, err := hc.Do(req)
	if err != nil {
		panic(err)
	}
	lines := bufio.NewScanner(res.Body)
	chunks := 0
	for lines.Scan() {
		if strings.HasPrefix(lines.Text(), "data: {") {
			chunks++
		}
	}
	res.Body.Close()
	fmt.Println(chunks)
}
`;

if (toolchainPresent('Go client against vigil run', [['go', 'version']], 'golang-go')) {
  const work = tempDir('vigil-go-e2e-');
  const go = goSandbox();
  let v: LlmProjectVigil;
  let fake: FakeOpenAI;
  const clientEnv = (): NodeJS.ProcessEnv => ({
    ...go.env, VIGIL_CLONE: repoRoot, VIGIL_URL: v.base, VIGIL_PROJECT_KEY: v.key, OPENAI_BASE_URL: fake.baseURL, OPENAI_API_KEY: 'sk-fake',
  });

  test.before(async () => {
    v = await startLlmProjectVigil(work.path, 'go-app');
    fake = await startFakeOpenAI({ delayMs: 5 });
  });
  test.after(async () => {
    await v?.vigil.stop('SIGKILL');
    await fake?.close();
    go.cleanup();
    work.cleanup();
  });

  /** A module in `dir` with `main.go`, set up by the README's shell steps: the quick start's own commands. */
  const readme = readFileSync(fromRoot('clients/go/README.md'), 'utf8');
  const [setup, steps] = codeBlocks(readme, '## Quick start', 'sh');

  test("the README's quick start runs as written, and both its traces are stored", async () => {
    assert.match(setup, /export VIGIL_URL=.* VIGIL_PROJECT_KEY=/, 'the first block sets the environment the test provides');
    const [program] = codeBlocks(readme, '## Quick start', 'go');
    const dir = join(work.path, 'quickstart');
    mkdirSync(dir);
    writeFileSync(join(dir, 'main.go'), program);
    const out = await mustRun('sh', ['-e', '-c', steps], { cwd: dir, env: clientEnv(), timeoutMs: 300_000 });
    assert.match(out, new RegExp(FAKE.answer.replace('.', '\\.')), 'the program printed the answer');

    const stored = await v.tracesTagged('quickstart', 2);
    const chat = stored.find((t) => t.name === 'openai.chat.completions')!;
    assert.is(chat.model, FAKE.model);
    assert.is(chat.provider, 'openai');
    assert.is(chat.status, 'ok');
    assert.is(chat.user_id, 'user-42');
    assert.equal(chat.tokens, { input: 21, output: 7, cache_read: 5, total: 28 });
    assert.equal(chat.input, [{ role: 'user', content: 'Say hello' }]);
    assert.equal(chat.output, { role: 'assistant', content: FAKE.answer, refusal: null });
    assert.is(chat.metadata.finish_reason, 'stop');
    assert.ok(chat.latency_ms >= 5, `latency ${chat.latency_ms}`);
    const manual = stored.find((t) => t.model === 'claude-3-5-sonnet')!;
    assert.equal([manual.latency_ms, manual.tokens.input, manual.tokens.output, manual.output], [840, 1200, 310, 'A summary']);
  });

  test('a streamed chat completion through the Transport is stored with its text, usage and first-chunk time', async () => {
    const dir = join(work.path, 'stream');
    mkdirSync(dir);
    writeFileSync(join(dir, 'main.go'), STREAM_PROGRAM);
    const out = await mustRun('sh', ['-e', '-c', steps.replace('hello-vigil', 'stream-app')], { cwd: dir, env: clientEnv(), timeoutMs: 300_000 });
    assert.is(out.trim(), String(FAKE.streamed.length + 3), 'the application read every chunk');
    const [trace] = await v.tracesTagged('go-stream', 1);
    assert.is(trace.output.content, FAKE.streamed.join(''));
    assert.equal([trace.tokens.input, trace.tokens.output, trace.tokens.total], [19, 3, 22]);
    assert.is(trace.session_id, 'session-7');
    assert.is(trace.metadata.stream, true);
    assert.type(trace.metadata.time_to_first_chunk_ms, 'number');
    assert.is(trace.metadata.stream_left_early, undefined);
  });

  test('the conformance driver delivers to the real ingest route', async () => {
    const bin = join(work.path, 'driver');
    await mustRun('go', ['build', '-o', bin, './cmd/conformance-driver'], { cwd: fromRoot('clients/go'), env: go.env });
    const items = [1, 2, 3].map((i) => ({ model: 'gpt-4o-mini', name: `driver-${i}`, tags: ['go-driver'], tokens: { input: i, output: i } }));
    const out = await mustRun(bin, [], {
      cwd: work.path, env: { VIGIL_BASE_URL: v.base, VIGIL_PROJECT_KEY: v.key }, input: JSON.stringify({ items, options: { max_batch_items: 2 } }),
    });
    assert.equal(JSON.parse(out), { sent: 3, dropped: 0 });
    const stored = await v.tracesTagged('go-driver', 3);
    assert.equal(stored.map((t) => t.name).sort(), ['driver-1', 'driver-2', 'driver-3']);
  });
}

test.run();
