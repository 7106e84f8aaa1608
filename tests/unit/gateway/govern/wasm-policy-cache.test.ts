import { test } from 'uvu';
import * as assert from 'uvu/assert';
import type { WasmPolicy, WasmPolicyOptions } from '../../../../policies/wasm-policy.js';
import { WasmModuleError } from '../../../../sandbox/wasm/errors.js';
import {
  LOAD_RETRY_MS, MAX_MODULES, POLICY_CALL_TIMEOUT_MS, WasmPolicyCache,
} from '../../../../gateway/govern/wasm-policy-cache.js';
import { fixture } from '../../../support/paths.js';

/** A loader that records what it was asked for and hands out policies that record being closed. */
function loader(fail: (module: string) => boolean = () => false) {
  const loads: WasmPolicyOptions[] = [];
  const closed: string[] = [];
  const load = async (options: WasmPolicyOptions): Promise<WasmPolicy> => {
    loads.push(options);
    const module = options.module as string;
    if (fail(module)) throw new WasmModuleError(`cannot read ${module}`);
    return { decide: async () => [], decideSettled: async () => [], close: async () => { closed.push(module); } };
  };
  return { load, loads, closed };
}

test('one load per module, with the lane\'s call limit unless told otherwise', async () => {
  const l = loader();
  const cache = new WasmPolicyCache({ maxMemoryPages: 32 }, l.load);
  const [a1, a2] = await Promise.all([cache.get('/a.wasm'), cache.get('/a.wasm')]);
  assert.is(a1, a2);
  await cache.get('/b.wasm');
  assert.equal(l.loads.map((o) => [o.module, o.callTimeoutMs, o.maxMemoryPages]), [['/a.wasm', POLICY_CALL_TIMEOUT_MS, 32], ['/b.wasm', POLICY_CALL_TIMEOUT_MS, 32]]);
  assert.is(cache.size, 2);
  const custom = loader();
  await new WasmPolicyCache({ callTimeoutMs: 1000 }, custom.load).get('/c.wasm');
  assert.is(custom.loads[0].callTimeoutMs, 1000);
});

test('a module held under another digest (rebuilt, then reloaded) is closed and loaded again; without one it is kept', async () => {
  const l = loader();
  const cache = new WasmPolicyCache({}, l.load);
  const first = await cache.get('/a.wasm', 'digest-1');
  assert.is(await cache.get('/a.wasm', 'digest-1'), first);
  assert.is(await cache.get('/a.wasm'), first);
  const second = await cache.get('/a.wasm', 'digest-2');
  assert.is.not(second, first);
  await Promise.resolve();
  assert.equal(l.closed, ['/a.wasm']);
  assert.is(await cache.get('/a.wasm', 'digest-2'), second);
  assert.is(l.loads.length, 2);
  assert.is(cache.size, 1);
});

test('guest failures reported by the sandbox are counted by reason until taken', async () => {
  const l = loader();
  const cache = new WasmPolicyCache({}, l.load);
  await cache.get('/a.wasm');
  const onFailure = l.loads[0].onFailure!;
  onFailure('trap', undefined as never);
  onFailure('trap', undefined as never);
  onFailure('timeout', undefined as never);
  cache.count('unavailable');
  assert.equal(cache.takeFailures(), { trap: 2, timeout: 1, unavailable: 1 });
  assert.equal(cache.takeFailures(), {});
});

test('a module that fails to load is not retried until LOAD_RETRY_MS has passed', async () => {
  let now = 1_000;
  let broken = true;
  const l = loader(() => broken);
  const cache = new WasmPolicyCache({}, l.load, () => now);
  assert.not.ok(await cache.get('/a.wasm').then(() => true, () => false));
  now += LOAD_RETRY_MS - 1;
  assert.not.ok(await cache.get('/a.wasm').then(() => true, () => false));
  assert.is(l.loads.length, 1);
  broken = false;
  now += 1;
  assert.ok(await cache.get('/a.wasm'));
  assert.is(l.loads.length, 2);
});

test('beyond MAX_MODULES the least recently used module is closed', async () => {
  const l = loader();
  const cache = new WasmPolicyCache({}, l.load);
  for (let i = 0; i < MAX_MODULES; i++) await cache.get(`/m${i}.wasm`);
  await cache.get('/m0.wasm'); // used again: m1 is now the oldest
  await cache.get('/new.wasm');
  await new Promise((r) => setImmediate(r));
  assert.equal(l.closed, ['/m1.wasm']);
  assert.is(cache.size, MAX_MODULES);
});

test('close stops every loaded policy, and later gets reject', async () => {
  const l = loader((m) => m === '/bad.wasm');
  const cache = new WasmPolicyCache({}, l.load);
  await cache.get('/a.wasm');
  await cache.get('/b.wasm');
  await cache.get('/bad.wasm').catch(() => {});
  await cache.close();
  assert.equal(l.closed.sort(), ['/a.wasm', '/b.wasm']);
  await cache.close();
  assert.not.ok(await cache.get('/a.wasm').then(() => true, () => false));
});

test('the default loader loads a real module into a sandbox, and close stops it', async () => {
  const cache = new WasmPolicyCache({ callTimeoutMs: 5000 });
  try {
    const policy = await cache.get(fixture('wasm', 'echo.wasm'));
    const [decision] = await policy.decide([{ method: 'GET', path: '/x', headers: {}, query: {}, status: 200, labels: {}, matched_rules: [] }]);
    assert.equal(decision.labels?.route, 'GET /x → ✓');
  } finally {
    await cache.close();
  }
  const failing = new WasmPolicyCache();
  assert.not.ok(await failing.get(fixture('wasm', 'missing.wasm')).then(() => true, () => false));
  await failing.close();
});

test.run();
