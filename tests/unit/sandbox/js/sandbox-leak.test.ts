// 1,000 calls in a row must leave the child's isolate heap and its isolated-vm handles where they were.
// (The child's own heap is not asserted: without a forced collection it shows IPC garbage, not leaks; handles that
// the child would leak on its side show up in the isolate's reference count.)
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { createJsSandbox } from '../../../../sandbox/js/index.js';
import type { JsProcessStats } from '../../../../sandbox/js/types.js';
import { expectValue } from './expect-result.js';

const MB = 1024 * 1024;

test('1,000 calls leak neither isolate heap nor handles', async () => {
  // One isolate, so every call lands on the isolate that is measured. With 32 MB, a context or an input kept per
  // call (over 100 KB each here) would exhaust the isolate long before call 1,000.
  const sandbox = await createJsSandbox({ processes: 1, isolatesPerProcess: 1, memoryLimitMb: 32 });
  try {
    // isolated-vm's ArrayBuffer allocator runs a full collection before it refuses an allocation over the limit:
    // a refused allocation is the one way to get a collected heap, so live objects are measured, not garbage.
    const collect = await sandbox.load('export default () => { try { new ArrayBuffer(2 ** 31); } catch { return "collected"; } return "allocated"; }');
    const statsAfterFullGc = async (): Promise<JsProcessStats> => {
      assert.is(expectValue(await collect.call(null)), 'collected');
      const [stats] = await sandbox.stats();
      return stats;
    };
    const fn = await sandbox.load(`export default function (input) {
      const words = input.text.split(' ');
      globalThis.kept = (globalThis.kept ?? []).concat(words);
      console.log('words', words.length);
      return { count: words.length, first: words[0], kept: globalThis.kept.length };
    }`);
    // About 20 KB of JSON per input, over 100 KB once parsed and split in the isolate.
    const input = { text: Array.from({ length: 2500 }, (_, i) => `word${i}`).join(' ') };
    for (let i = 0; i < 50; i++) expectValue(await fn.call(input));
    const before = await statsAfterFullGc();

    for (let i = 0; i < 1000; i++) {
      const value = expectValue(await fn.call(input)) as { count: number; kept: number };
      assert.is(value.kept, 2500, 'globals do not carry over between calls');
    }
    const after = await statsAfterFullGc();

    const iso = (s: JsProcessStats) => s.isolates[0];
    assert.is(after.pid, before.pid, 'no restart during the run');
    assert.ok(after.calls - before.calls >= 1000);
    assert.ok(iso(after).references <= iso(before).references + 2, `isolated-vm handles ${iso(before).references} -> ${iso(after).references}`);
    const heapGrowth = iso(after).usedHeapBytes - iso(before).usedHeapBytes;
    assert.ok(heapGrowth < 1 * MB, `isolate heap grew by ${(heapGrowth / MB).toFixed(2)} MB`);
    assert.is(sandbox.restarts, 0);
  } finally {
    await sandbox.close();
  }
});

test.run();
