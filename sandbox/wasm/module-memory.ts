// Caps a module's linear memory by rewriting the limits in its memory section. `asc --maximumMemory` sets a cap
// at build time, but the sandbox loads modules built by anyone; the cap must hold for those too. WebAssembly
// enforces a declared maximum on every memory.grow, so the rewritten module cannot outgrow it.
import { WasmModuleError } from './errors.js';

/** Bytes in one WebAssembly page. */
export const WASM_PAGE_BYTES = 65_536;

const MEMORY_SECTION = 5;
const IMPORT_SECTION = 2;

interface Cursor { bytes: Uint8Array; pos: number }

function readU32(c: Cursor): number {
  let result = 0;
  let shift = 0;
  for (;;) {
    if (c.pos >= c.bytes.length) throw new WasmModuleError('wasm module is truncated (in a LEB128 number)');
    const b = c.bytes[c.pos++]!;
    result += (b & 0x7f) * 2 ** shift;
    if ((b & 0x80) === 0) return result;
    shift += 7;
    if (shift > 35) throw new WasmModuleError('wasm module has a malformed LEB128 number');
  }
}

function writeU32(value: number): number[] {
  const out: number[] = [];
  let v = value;
  do {
    let b = v & 0x7f;
    v = Math.floor(v / 128);
    if (v !== 0) b |= 0x80;
    out.push(b);
  } while (v !== 0);
  return out;
}

export interface MemoryLimits { minPages: number; maxPages: number | undefined }

/** Whether the module imports its memory (the sandbox provides none to import). */
function importsMemory(bytes: Uint8Array, start: number, end: number): boolean {
  const c: Cursor = { bytes, pos: start };
  const count = readU32(c);
  for (let i = 0; i < count && c.pos < end; i++) {
    const moduleLen = readU32(c); c.pos += moduleLen;
    const nameLen = readU32(c); c.pos += nameLen;
    const kind = bytes[c.pos++];
    if (kind === 0x00) readU32(c); // function: type index
    else if (kind === 0x01) { c.pos++; const flags = readU32(c); readU32(c); if (flags & 1) readU32(c); } // table
    else if (kind === 0x02) return true;
    else if (kind === 0x03) c.pos += 2; // global: valtype, mutability
    else throw new WasmModuleError(`wasm module has an unknown import kind ${kind}`);
  }
  return false;
}

/**
 * Returns the module with its memory maximum set to at most `maxPages`, and the limits it ends up with.
 * Throws a WasmModuleError when the module is not WebAssembly, imports its memory, uses 64-bit or shared memory,
 * or needs more pages at start than the cap allows.
 */
export function capModuleMemory(input: Uint8Array, maxPages: number): { bytes: Uint8Array; limits: MemoryLimits } {
  const bytes = input;
  if (bytes.length < 8 || bytes[0] !== 0x00 || bytes[1] !== 0x61 || bytes[2] !== 0x73 || bytes[3] !== 0x6d) {
    throw new WasmModuleError('not a WebAssembly module (missing the \\0asm header)');
  }
  if (bytes[4] !== 1 || bytes[5] !== 0 || bytes[6] !== 0 || bytes[7] !== 0) {
    throw new WasmModuleError('unsupported WebAssembly binary version (a component, or a newer format?)');
  }
  const c: Cursor = { bytes, pos: 8 };
  while (c.pos < bytes.length) {
    const sectionStart = c.pos;
    const id = bytes[c.pos++]!;
    const size = readU32(c);
    const payloadStart = c.pos;
    const payloadEnd = payloadStart + size;
    if (payloadEnd > bytes.length) throw new WasmModuleError('wasm module is truncated (a section runs past the end)');
    if (id === IMPORT_SECTION && importsMemory(bytes, payloadStart, payloadEnd)) {
      throw new WasmModuleError('the module imports its memory; build it so that it defines its own (asc does by default)');
    }
    if (id === MEMORY_SECTION) {
      const count = readU32(c);
      if (count !== 1) throw new WasmModuleError(`the module defines ${count} memories; exactly one is supported`);
      const flags = bytes[c.pos++]!;
      if (flags & ~0x01) throw new WasmModuleError('shared or 64-bit memories are not supported in the sandbox');
      const minPages = readU32(c);
      const declaredMax = flags & 0x01 ? readU32(c) : undefined;
      if (c.pos !== payloadEnd) throw new WasmModuleError('the memory section has trailing bytes');
      if (minPages > maxPages) {
        throw new WasmModuleError(
          `the module needs ${minPages} memory pages at start, above the sandbox cap of ${maxPages} pages; ` +
          'raise maxMemoryPages or shrink the module\'s static data');
      }
      const cap = declaredMax === undefined ? maxPages : Math.min(declaredMax, maxPages);
      if (cap === declaredMax) return { bytes, limits: { minPages, maxPages: cap } };
      const payload = [1, 1, ...writeU32(minPages), ...writeU32(cap)];
      const section = [MEMORY_SECTION, ...writeU32(payload.length), ...payload];
      const out = new Uint8Array(bytes.length - (payloadEnd - sectionStart) + section.length);
      out.set(bytes.subarray(0, sectionStart), 0);
      out.set(section, sectionStart);
      out.set(bytes.subarray(payloadEnd), sectionStart + section.length);
      return { bytes: out, limits: { minPages, maxPages: cap } };
    }
    c.pos = payloadEnd;
  }
  // No memory at all: nothing to cap (the guest cannot allocate in linear memory).
  return { bytes, limits: { minPages: 0, maxPages: undefined } };
}
