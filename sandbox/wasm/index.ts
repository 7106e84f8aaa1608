export { createWasmSandbox, DEFAULT_CALL_TIMEOUT_MS, DEFAULT_MAX_MEMORY_PAGES } from './sandbox.js';
export type { WasmSandbox, WasmSandboxOptions } from './sandbox.js';
export {
  WasmCallError, WasmModuleError, WasmSandboxUnavailableError, WasmBuildError, WasmSandboxErrors,
  SANDBOX_FAILURE_REASONS, sandboxFailureReason,
} from './errors.js';
export type { SandboxFailureReason } from './errors.js';
export { capModuleMemory, WASM_PAGE_BYTES } from './module-memory.js';
export { hostAllowed } from './host-allow-list.js';
