import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { createWasmSandbox, type WasmSandbox } from '../../../../sandbox/wasm/index.js';
import { WasmCallError, WasmModuleError } from '../../../../sandbox/wasm/errors.js';
import { fixture } from '../../../support/paths.js';

const text = (bytes: Uint8Array) => new TextDecoder('utf-8', { fatal: true }).decode(bytes);
let echo: WasmSandbox;
const failures: string[] = [];

test.before(async () => {
  echo = await createWasmSandbox({ module: fixture('wasm', 'echo.wasm'), callTimeoutMs: 5000, onFailure: (r) => failures.push(r) });
});
test.after(async () => {
  await echo.close();
});

test('non-ASCII text survives the round trip in both directions', async () => {
  const input = 'Grüße, 東京, emoji 🎉, RTL שלום';
  assert.is(text(await echo.call('echo', input)), `${input} · ünïcødé ✓ 🚀`);
  // Bytes in, bytes out, byte for byte.
  const bytes = new TextEncoder().encode('naïve café');
  assert.equal([...await echo.call('echo_bytes', bytes)], [...bytes]);
});

test('as-pdk Host.outputString with non-ASCII text is the known trap: it fails the call, not the sandbox', async () => {
  assert.is(text(await echo.call('echo_output_string', 'plain ascii')), 'plain ascii');
  const err = await echo.call('echo_output_string', 'héllo wörld').then(() => null, (e: unknown) => e);
  assert.instance(err, WasmCallError);
  assert.is((err as WasmCallError).reason, 'trap');
  assert.is(text(await echo.call('echo', 'still here')), 'still here · ünïcødé ✓ 🚀');
});

test('more than 20,000 calls on one instance (the 1.0.x block leak would fail call 16,384)', async () => {
  const before = echo.restarts;
  const calls = 20_500;
  for (let i = 0; i < calls; i++) {
    const out = await echo.call('echo_bytes', `call ${i}`);
    if (i % 1000 === 0 || i >= 16_380) assert.is(text(out), `call ${i}`);
  }
  assert.is(echo.restarts, before, 'no instance was replaced along the way');
  assert.equal(failures, ['trap'], 'only the deliberate outputString trap failed');
});

test('a string input and a Uint8Array input are the same bytes to the guest', async () => {
  const view = new Uint8Array([0, 0x68, 0x69, 0]).subarray(1, 3); // "hi" inside a larger buffer
  assert.is(text(await echo.call('echo_bytes', view)), 'hi');
  assert.is(text(await echo.call('echo_bytes', 'hi')), 'hi');
  assert.is((await echo.call('echo_bytes', '')).length, 0);
});

test('the caller keeps its input: the sandbox copies before transferring', async () => {
  const input = new TextEncoder().encode('keep me');
  await echo.call('echo_bytes', input);
  assert.is(new TextDecoder().decode(input), 'keep me');
});

test('calls queue beyond the instances and run in order; a full queue rejects with VIGIL_ERR_WASM_BUSY', async () => {
  const small = await createWasmSandbox({ module: fixture('wasm', 'echo.wasm'), maxQueue: 3, callTimeoutMs: 5000 });
  try {
    const results = await Promise.allSettled(Array.from({ length: 6 }, (_, i) => small.call('echo_bytes', String(i))));
    const ok = results.filter((r) => r.status === 'fulfilled').map((r) => text((r as PromiseFulfilledResult<Uint8Array>).value));
    const rejected = results.filter((r) => r.status === 'rejected').map((r) => (r as PromiseRejectedResult).reason.code);
    assert.equal(ok, ['0', '1', '2', '3']); // one running + three queued
    assert.equal(rejected, ['VIGIL_ERR_WASM_BUSY', 'VIGIL_ERR_WASM_BUSY']);
  } finally {
    await small.close();
  }
});

test('several instances serve calls in parallel threads', async () => {
  const pool = await createWasmSandbox({ module: fixture('wasm', 'loop.wasm'), instances: 2, callTimeoutMs: 300 });
  try {
    // One instance is stuck until its timeout; the other keeps answering meanwhile.
    const stuck = pool.call('decide', '').catch((e: WasmCallError) => e.reason);
    const answers = await Promise.all([pool.call('ping', ''), pool.call('ping', '')]);
    assert.equal(answers.map((a) => a.length), [0, 0]);
    assert.is(await stuck, 'timeout');
  } finally {
    await pool.close();
  }
});

test('close rejects queued calls, later calls reject with VIGIL_ERR_WASM_CLOSED, and close is idempotent', async () => {
  const s = await createWasmSandbox({ module: fixture('wasm', 'loop.wasm'), callTimeoutMs: 10_000 });
  const running = s.call('decide', '').catch((e: { code: string }) => e.code);
  const queued = s.call('ping', '').catch((e: { code: string }) => e.code);
  await s.close();
  await s.close();
  assert.is(await queued, 'VIGIL_ERR_WASM_CLOSED');
  assert.is(await running, 'VIGIL_ERR_WASM_CLOSED', 'the running call is rejected with its worker, not left pending');
  const err = await s.call('ping', '').catch((e: { code: string }) => e.code);
  assert.is(err, 'VIGIL_ERR_WASM_CLOSED');
});

test('bad modules are refused at load with a reason', async () => {
  const load = (module: string | Uint8Array) => createWasmSandbox({ module }).then(() => null, (e: unknown) => e);
  const missing = await load('/nonexistent/policy.wasm');
  assert.instance(missing, WasmModuleError);
  assert.match((missing as Error).message, /cannot read the wasm module/);
  const notWasm = await load(new TextEncoder().encode('not wasm at all'));
  assert.instance(notWasm, WasmModuleError);
  assert.match((notWasm as Error).message, /not a WebAssembly module/);
  const truncated = await load(new Uint8Array([0, 0x61, 0x73, 0x6d, 1, 0, 0, 0, 1, 0x7f]));
  assert.instance(truncated, WasmModuleError);
});

test('a module that traps while starting is refused at load, and no worker is left behind', async () => {
  const err = await createWasmSandbox({ module: fixture('wasm', 'bad-start.wasm') }).then(() => null, (e: unknown) => e);
  assert.instance(err, WasmModuleError);
  assert.match((err as Error).message, /the wasm module failed to start: abort in the module's top-level code/);
});

test('options are checked', async () => {
  const pages = await createWasmSandbox({ module: fixture('wasm', 'echo.wasm'), maxMemoryPages: 0 }).catch((e: Error) => e);
  assert.instance(pages, RangeError);
  const err = await createWasmSandbox({ module: fixture('wasm', 'echo.wasm'), callTimeoutMs: -1 }).catch((e: Error) => e);
  assert.instance(err, RangeError);
});

test.run();
