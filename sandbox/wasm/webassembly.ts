// Typed access to the WebAssembly global. The project's TypeScript lib is ES2023 without DOM, which is where the
// WebAssembly namespace is declared; this declares only what the sandbox uses, without adding a global.

/** A compiled module (opaque here; structured-cloneable to worker threads). */
export interface WasmModule { readonly __wasmModule?: never }

export interface WasmMemory { readonly buffer: ArrayBuffer; grow(pages: number): number }

export interface WasmImportDescriptor { module: string; name: string; kind: string }
export interface WasmExportDescriptor { name: string; kind: string }

export type WasmExports = Record<string, unknown>;

interface WasmApi {
  compile(bytes: Uint8Array): Promise<WasmModule>;
  Module: {
    new (bytes: Uint8Array): WasmModule;
    imports(module: WasmModule): WasmImportDescriptor[];
    exports(module: WasmModule): WasmExportDescriptor[];
  };
  Memory: abstract new (...args: never[]) => WasmMemory;
  RuntimeError: abstract new (...args: never[]) => Error;
}

export const Wasm = (globalThis as unknown as { WebAssembly: WasmApi }).WebAssembly;
