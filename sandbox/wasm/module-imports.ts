import { WasmModuleError } from './errors.js';
import { Wasm, type WasmModule } from './webassembly.js';

/** AssemblyScript's default `env` imports, which the sandbox provides (abort keeps its message in the trap). */
const ENV_IMPORTS = new Set(['abort', 'trace', 'seed']);

/**
 * Rejects a module that imports anything the sandbox does not provide, naming each import, instead of letting
 * instantiation fail later with a bare LinkError.
 */
export function checkModuleImports(module: WasmModule, where: string): void {
  const unsupported: string[] = [];
  for (const entry of Wasm.Module.imports(module)) {
    if (entry.module === 'extism:host/env' && entry.kind === 'function') continue;
    if (entry.module === 'env' && entry.kind === 'function' && ENV_IMPORTS.has(entry.name)) continue;
    unsupported.push(`${entry.module}.${entry.name} (${entry.kind})`);
  }
  if (unsupported.length > 0) {
    throw new WasmModuleError(
      `${where} imports what the Vigil sandbox does not provide: ${unsupported.join(', ')}. ` +
      'Guests get Extism\'s host functions and AssemblyScript\'s env.abort/trace/seed only (no WASI).');
  }
}
