import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { capModuleMemory } from '../../../../sandbox/wasm/module-memory.js';
import { WasmModuleError } from '../../../../sandbox/wasm/errors.js';
import { Wasm, type WasmMemory } from '../../../../sandbox/wasm/webassembly.js';

const HEADER = [0x00, 0x61, 0x73, 0x6d, 0x01, 0x00, 0x00, 0x00];
const section = (id: number, payload: number[]) => [id, payload.length, ...payload];
const name = (s: string) => [s.length, ...[...s].map((c) => c.charCodeAt(0))];
const exportMemory = section(7, [1, ...name('memory'), 0x02, 0]);

/** A module that defines one memory (optionally with a maximum) and exports it. */
function moduleWithMemory(min: number, max?: number, flags?: number): Uint8Array {
  const limits = max === undefined ? [flags ?? 0x00, min] : [flags ?? 0x01, min, max];
  return new Uint8Array([...HEADER, ...section(5, [1, ...limits]), ...exportMemory]);
}

async function memoryOf(bytes: Uint8Array): Promise<WasmMemory> {
  const instance = await (globalThis as unknown as {
    WebAssembly: { instantiate(m: unknown): Promise<{ exports: { memory: WasmMemory } }> };
  }).WebAssembly.instantiate(await Wasm.compile(bytes));
  return instance.exports.memory;
}

function growsTo(memory: WasmMemory, pages: number): boolean {
  try {
    memory.grow(pages - memory.buffer.byteLength / 65536);
    return true;
  } catch {
    return false;
  }
}

test('a memory without a maximum gets the cap, and WebAssembly enforces it', async () => {
  const { bytes, limits } = capModuleMemory(moduleWithMemory(1), 4);
  assert.equal(limits, { minPages: 1, maxPages: 4 });
  const memory = await memoryOf(bytes);
  assert.ok(growsTo(memory, 4));
  assert.not.ok(growsTo(memory, 5));
});

test('a maximum above the cap is lowered; sections after the memory section survive', async () => {
  const { bytes, limits } = capModuleMemory(moduleWithMemory(2, 100), 3);
  assert.equal(limits, { minPages: 2, maxPages: 3 });
  const memory = await memoryOf(bytes);
  assert.is(memory.buffer.byteLength, 2 * 65536);
  assert.not.ok(growsTo(memory, 4));
});

test('a maximum below the cap is kept, and the bytes are returned untouched', () => {
  const input = moduleWithMemory(1, 2);
  const { bytes, limits } = capModuleMemory(input, 256);
  assert.is(bytes, input);
  assert.equal(limits, { minPages: 1, maxPages: 2 });
});

test('multi-byte LEB128 page counts are read and written', async () => {
  // min 200 needs two LEB bytes; cap 300 too.
  const payload = [1, 0x00, 0xc8, 0x01];
  const input = new Uint8Array([...HEADER, ...section(5, payload), ...exportMemory]);
  const { bytes, limits } = capModuleMemory(input, 300);
  assert.equal(limits, { minPages: 200, maxPages: 300 });
  const memory = await memoryOf(bytes);
  assert.is(memory.buffer.byteLength, 200 * 65536);
});

test('a module that needs more pages at start than the cap is refused', () => {
  assert.throws(() => capModuleMemory(moduleWithMemory(10), 4), (e: Error) =>
    e instanceof WasmModuleError && /needs 10 memory pages at start, above the sandbox cap of 4/.test(e.message));
});

test('imported, shared and multiple memories are refused', () => {
  const imported = new Uint8Array([...HEADER, ...section(2, [1, ...name('env'), ...name('memory'), 0x02, 0x00, 1])]);
  assert.throws(() => capModuleMemory(imported, 4), /imports its memory/);
  assert.throws(() => capModuleMemory(moduleWithMemory(1, 2, 0x03), 4), /shared or 64-bit/);
  const two = new Uint8Array([...HEADER, ...section(5, [2, 0, 1, 0, 1])]);
  assert.throws(() => capModuleMemory(two, 4), /defines 2 memories/);
});

test('malformed input is refused with a WasmModuleError', () => {
  const refused = (bytes: number[], pattern: RegExp) =>
    assert.throws(() => capModuleMemory(new Uint8Array(bytes), 4), (e: Error) => e instanceof WasmModuleError && pattern.test(e.message));
  refused([1, 2, 3], /missing the \\0asm header/);
  refused([0x00, 0x61, 0x73, 0x6d, 0x0d, 0x00, 0x01, 0x00], /unsupported WebAssembly binary version/);
  refused([...HEADER, 5, 10, 1], /runs past the end/);
  refused([...HEADER, 5, 0x80], /truncated/);
});

test('a module without memory passes unchanged', () => {
  const input = new Uint8Array([...HEADER]);
  const { bytes, limits } = capModuleMemory(input, 4);
  assert.is(bytes, input);
  assert.equal(limits, { minPages: 0, maxPages: undefined });
});

test.run();
