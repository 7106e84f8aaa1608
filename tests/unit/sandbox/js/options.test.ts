import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { resolveJsSandboxOptions, jsSandboxDefaults } from '../../../../sandbox/js/options.js';
import { JsSandboxError } from '../../../../sandbox/js/errors.js';

test('defaults: 1 process, 2 isolates, 250 ms, 64 MB, 1 MiB of output', () => {
  const o = resolveJsSandboxOptions();
  assert.is(o.processes, 1);
  assert.is(o.isolatesPerProcess, 2);
  assert.is(o.timeoutMs, 250);
  assert.is(o.memoryLimitMb, 64);
  assert.is(o.maxOutputBytes, 1024 * 1024);
  assert.is(o.maxOutputDepth, 256);
  assert.is(o.graceMs, jsSandboxDefaults.graceMs);
  assert.is(o.maxQueue, 1000);
  assert.type(o.onFailure, 'function');
  assert.type(o.onRestart, 'function');
  assert.type(o.onRetry, 'function');
});

test('given values win over defaults', () => {
  const onFailure = (): void => {};
  const o = resolveJsSandboxOptions({ processes: 3, isolatesPerProcess: 1, timeoutMs: 1000, memoryLimitMb: 16, maxOutputBytes: 100, graceMs: 0, maxQueue: 5, onFailure });
  assert.equal([o.processes, o.isolatesPerProcess, o.timeoutMs, o.memoryLimitMb, o.maxOutputBytes, o.graceMs, o.maxQueue], [3, 1, 1000, 16, 100, 0, 5]);
  assert.is(o.onFailure, onFailure);
});

const bad: Array<[string, Record<string, unknown>]> = [
  ['processes 0', { processes: 0 }],
  ['fractional isolates', { isolatesPerProcess: 1.5 }],
  ['negative timeout', { timeoutMs: -1 }],
  ['timeout as a string', { timeoutMs: '250ms' }],
  ['memory under isolated-vm minimum', { memoryLimitMb: 4 }],
  ['NaN output limit', { maxOutputBytes: Number.NaN }],
  ['negative queue', { maxQueue: -1 }],
  ['onFailure not a function', { onFailure: 'log' }],
  ['onRestart not a function', { onRestart: 42 }],
  ['onRetry not a function', { onRetry: true }],
  ['output depth past what the host can serialise', { maxOutputDepth: 5000 }],
  ['output depth 0', { maxOutputDepth: 0 }],
];
for (const [name, options] of bad) {
  test(`rejects ${name} with VIGIL_ERR_SANDBOX_OPTIONS naming the option`, () => {
    try {
      resolveJsSandboxOptions(options as never);
      assert.unreachable('should have thrown');
    } catch (err) {
      assert.instance(err, JsSandboxError);
      assert.is((err as JsSandboxError).code, 'VIGIL_ERR_SANDBOX_OPTIONS');
      assert.ok((err as Error).message.includes(Object.keys(options)[0]), (err as Error).message);
    }
  });
}

test.run();
