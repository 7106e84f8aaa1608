import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { createWasmSandbox, sandboxFailureReason, type WasmSandbox } from '../../../../sandbox/wasm/index.js';
import { WasmCallError } from '../../../../sandbox/wasm/errors.js';
import { fixture } from '../../../support/paths.js';

const text = (bytes: Uint8Array) => new TextDecoder().decode(bytes);

async function failure(sandbox: WasmSandbox, fn: string, input = ''): Promise<WasmCallError> {
  const outcome = await sandbox.call(fn, input).then(() => null, (e: unknown) => e);
  assert.instance(outcome, WasmCallError, `${fn} should fail`);
  return outcome as WasmCallError;
}

function counting() {
  const seen: string[] = [];
  return { seen, onFailure: (reason: string, err: WasmCallError) => { assert.is(err.reason, reason); seen.push(reason); } };
}

test('an infinite loop times out at the limit, the worker is replaced, and the next call is served', async () => {
  const c = counting();
  const sandbox = await createWasmSandbox({ module: fixture('wasm', 'loop.wasm'), callTimeoutMs: 100, onFailure: c.onFailure });
  try {
    const err = await failure(sandbox, 'decide');
    assert.is(err.reason, 'timeout');
    assert.is(err.code, 'VIGIL_ERR_WASM_TIMEOUT');
    assert.match(err.message, /exceeded its 100 ms limit/);
    assert.is((await sandbox.call('ping', '')).length, 0);
    assert.is(sandbox.restarts, 1);
    // Twice more: replacement is repeatable, and calls queued behind a stuck call run on the new worker.
    const queued = [failure(sandbox, 'decide'), sandbox.call('ping', ''), failure(sandbox, 'decide'), sandbox.call('ping', '')];
    const [a, b, c2, d] = await Promise.all(queued);
    assert.is((a as WasmCallError).reason, 'timeout');
    assert.is((c2 as WasmCallError).reason, 'timeout');
    assert.is((b as Uint8Array).length + (d as Uint8Array).length, 0);
    assert.equal(c.seen, ['timeout', 'timeout', 'timeout']);
    assert.is(sandbox.restarts, 3);
  } finally {
    await sandbox.close();
  }
});

test('unbounded growth of guest memory fails the call with reason memory; the next call is served', async () => {
  const c = counting();
  const sandbox = await createWasmSandbox({ module: fixture('wasm', 'grow.wasm'), callTimeoutMs: 5000, onFailure: c.onFailure });
  try {
    const err = await failure(sandbox, 'decide');
    assert.is(err.reason, 'memory');
    assert.match(err.message, /guest memory at 32 of 32 pages/);
    assert.is(text(await sandbox.call('ping', '')), 'pong');
    // The replacement starts empty: the hoard of the failed instance is gone, so it fails the same way again.
    assert.is((await failure(sandbox, 'decide')).reason, 'memory');
    assert.equal(c.seen, ['memory', 'memory']);
  } finally {
    await sandbox.close();
  }
});

test('a cap lower than the module\'s own is enforced by rewriting the module', async () => {
  const sandbox = await createWasmSandbox({ module: fixture('wasm', 'grow.wasm'), maxMemoryPages: 8, callTimeoutMs: 5000 });
  try {
    const err = await failure(sandbox, 'decide');
    assert.is(err.reason, 'memory');
    assert.match(err.message, /of 8 pages/);
  } finally {
    await sandbox.close();
  }
});

test('unbounded allocation of host memory (Extism blocks) is refused per call', async () => {
  const sandbox = await createWasmSandbox({ module: fixture('wasm', 'grow.wasm'), maxHostBytes: 4 << 20, callTimeoutMs: 5000 });
  try {
    const err = await failure(sandbox, 'host_alloc');
    assert.is(err.reason, 'memory');
    assert.match(err.message, /more than 4194304 bytes of host memory/);
    assert.is(text(await sandbox.call('ping', '')), 'pong');
  } finally {
    await sandbox.close();
  }
});

test('traps fail the call with their message, the instance is replaced, and the next call is served', async () => {
  const c = counting();
  const sandbox = await createWasmSandbox({ module: fixture('wasm', 'trap.wasm'), callTimeoutMs: 5000, onFailure: c.onFailure });
  try {
    const thrown = await failure(sandbox, 'decide');
    assert.is(thrown.reason, 'trap');
    assert.is(thrown.code, 'VIGIL_ERR_WASM_TRAP');
    assert.match(thrown.message, /policy bug: ünexpected view \(.*trap\.ts:\d+:\d+\)/);
    assert.is(text(await sandbox.call('ping', '')), 'pong');
    assert.match((await failure(sandbox, 'unreachable_now')).message, /unreachable/);
    assert.is(text(await sandbox.call('ping', '')), 'pong');
    assert.match((await failure(sandbox, 'recurse')).message, /call stack/);
    assert.is(text(await sandbox.call('ping', '')), 'pong');
    assert.match((await failure(sandbox, 'no_such_export')).message, /no_such_export/);
    assert.equal(c.seen, ['trap', 'trap', 'trap', 'trap']);
    assert.is(sandboxFailureReason(thrown), 'trap');
    assert.is(sandboxFailureReason(new Error('x')), undefined);
  } finally {
    await sandbox.close();
  }
});

test('guest log lines reach onLog, bounded per call', async () => {
  const lines: string[] = [];
  const sandbox = await createWasmSandbox({
    module: fixture('wasm', 'echo.wasm'),
    onLog: (level, message) => lines.push(`${level}:${message}`),
  });
  try {
    await sandbox.call('log_lines', '2');
    assert.equal(lines, ['warn:line 0 ✓', 'warn:line 1 ✓']);
    lines.length = 0;
    await sandbox.call('log_lines', '500');
    assert.is(lines.length, 20);
    assert.is(lines[19], 'warn:line 19 ✓');
    lines.length = 0;
    await sandbox.call('log_block', '100000');
    assert.is(lines.length, 1);
    assert.is(lines[0].length, 'warn:'.length + 4096, 'a long line is cut');
  } finally {
    await sandbox.close();
  }
});

test('a throwing onFailure hook does not break the sandbox', async () => {
  const sandbox = await createWasmSandbox({
    module: fixture('wasm', 'trap.wasm'), callTimeoutMs: 5000, onFailure: () => { throw new Error('counter broke'); },
  });
  try {
    assert.is((await failure(sandbox, 'decide')).reason, 'trap');
    assert.is(text(await sandbox.call('ping', '')), 'pong');
  } finally {
    await sandbox.close();
  }
});

test.run();
