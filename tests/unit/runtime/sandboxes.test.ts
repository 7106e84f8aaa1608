import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { definePlugin, type Sandboxes, type SandboxCallResult } from '@vigil/plugin-sdk';
import { startTestRuntime } from '@vigil/plugin-sdk/testing';

test('a plugin that needs the sandbox runs user functions in it; a runaway costs one call and is counted', async () => {
  let sandboxes!: Sandboxes;
  const plugin = definePlugin({ name: 'evals', version: '1', needs: ['sandbox'], setup: (ctx) => { sandboxes = ctx.sandboxes; } });
  const rt = await startTestRuntime({ plugins: [plugin] });
  try {
    const double = await sandboxes.loadFunction('export default (input) => ({ doubled: input.n * 2 })', 'double.js');
    const first = (await double.call({ n: 21 })) as Extract<SandboxCallResult, { ok: true }>;
    assert.is(first.ok, true);
    assert.equal(first.value, { doubled: 42 });
    const loop = await sandboxes.loadFunction('export default () => { for (;;) {} }', 'loop.js');
    const r = (await loop.call({})) as Extract<SandboxCallResult, { ok: false }>;
    assert.is(r.ok, false);
    assert.is(r.error.reason, 'timeout');
    const after = (await double.call({ n: 1 })) as Extract<SandboxCallResult, { ok: true }>;
    assert.equal(after.value, { doubled: 2 });
    assert.match(await rt.metrics(), /vigil_sandbox_failures_total\{sandbox="js",reason="timeout"\} 1/);
  } finally {
    await rt.stop();
  }
});

test('the sandbox is off limits without needs: sandbox', async () => {
  let message = '';
  const plugin = definePlugin({ name: 'nosandbox', version: '1', setup: (ctx) => { try { void ctx.sandboxes; } catch (e) { message = (e as Error).message; } } });
  const rt = await startTestRuntime({ plugins: [plugin] });
  await rt.stop();
  assert.match(message, /without listing "sandbox" in needs/);
});

test.run();
