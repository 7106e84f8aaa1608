import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { checkModuleImports } from '../../../../sandbox/wasm/module-imports.js';
import { WasmModuleError } from '../../../../sandbox/wasm/errors.js';
import { Wasm } from '../../../../sandbox/wasm/webassembly.js';

const HEADER = [0x00, 0x61, 0x73, 0x6d, 0x01, 0x00, 0x00, 0x00];
const name = (s: string) => [s.length, ...[...s].map((c) => c.charCodeAt(0))];

/** A module importing functions `[module, name]` of type () -> (). */
function importing(...imports: [string, string][]): Promise<unknown> {
  const types = [1, 1, 0x60, 0, 0]; // section 1: one type, () -> ()
  const entries = imports.flatMap(([m, n]) => [...name(m), ...name(n), 0x00, 0]);
  const payload = [imports.length, ...entries];
  return Wasm.compile(new Uint8Array([...HEADER, types[0], 4, ...types.slice(1), 2, payload.length, ...payload]));
}

test('Extism host functions and AssemblyScript env.abort/trace/seed are accepted', async () => {
  const module = await importing(['extism:host/env', 'alloc'], ['extism:host/env', 'output_set'], ['env', 'abort'], ['env', 'seed']);
  checkModuleImports(module as never, 'policy.wasm');
});

test('anything else is refused, naming every unsupported import', async () => {
  const module = await importing(['wasi_snapshot_preview1', 'fd_write'], ['env', 'abort'], ['env', 'Date.now']);
  assert.throws(() => checkModuleImports(module as never, 'policy.wasm'), (e: Error) =>
    e instanceof WasmModuleError &&
    e.code === 'VIGIL_ERR_WASM_MODULE' &&
    e.message.startsWith('policy.wasm imports what the Vigil sandbox does not provide:') &&
    e.message.includes('wasi_snapshot_preview1.fd_write (function)') &&
    e.message.includes('env.Date.now (function)') &&
    !e.message.slice(0, e.message.indexOf('. Guests')).includes('env.abort'));
});

test.run();
