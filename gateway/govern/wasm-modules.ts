// The WASM policy modules that rules name (`wasm: ./card-numbers.wasm`): resolved against the config file for the
// telemetry lane, and checked when the config is, so a missing or broken module stops `vigil run` / `vigil
// validate` with the rule's line (exit 2) instead of failing every batch later.
import { readFileSync, statSync } from 'node:fs';
import { ConfigValueError } from '@vigil/plugin-sdk';
import type { RuleConfig } from '../../policies/schema.js';
import { capModuleMemory } from '../../sandbox/wasm/module-memory.js';
import { checkModuleImports } from '../../sandbox/wasm/module-imports.js';
import { DEFAULT_MAX_MEMORY_PAGES } from '../../sandbox/wasm/sandbox.js';
import { Wasm, type WasmModule } from '../../sandbox/wasm/webassembly.js';

/** The policy ABI's entry point (policies/wasm-policy.ts calls it). */
const ENTRY = 'decide';

/** The rules with each `wasm` path resolved; rules without one are returned as they are. */
export function resolveWasmPaths(rules: readonly RuleConfig[], resolvePath: (path: string) => string): RuleConfig[] {
  return rules.map((rule) => (rule.wasm === undefined ? rule : { ...rule, wasm: resolvePath(rule.wasm) }));
}

/** The module files the rules name, each once, resolved. */
export function wasmFiles(rules: readonly RuleConfig[], resolvePath: (path: string) => string): string[] {
  return [...new Set(rules.flatMap((rule) => (rule.wasm === undefined ? [] : [resolvePath(rule.wasm)])))];
}

/**
 * Why the module at `file` cannot serve as a policy, or undefined when it can: the same checks the sandbox makes
 * when it loads a module (memory capped, compiled, imports it provides), plus the `decide` export.
 */
export function wasmModuleProblem(file: string): string | undefined {
  let bytes: Uint8Array;
  try {
    if (!statSync(file).isFile()) return `${file} is not a file`;
    bytes = readFileSync(file);
  } catch (err) {
    const code = (err as { code?: string }).code;
    return code === 'ENOENT'
      ? `${file} does not exist; build it with \`vigil policy build POLICY.ts\` (paths are relative to the config file)`
      : `cannot read ${file}: ${(err as Error).message}`;
  }
  let module: WasmModule;
  try {
    module = new Wasm.Module(capModuleMemory(bytes, DEFAULT_MAX_MEMORY_PAGES).bytes);
    checkModuleImports(module, file);
  } catch (err) {
    const message = (err as Error).message;
    return message.startsWith(file) ? message : `${file} is not a usable WebAssembly module: ${message}`;
  }
  if (!Wasm.Module.exports(module).some((e) => e.name === ENTRY && e.kind === 'function')) {
    return `${file} does not export \`${ENTRY}\`, so it is not a policy module (see \`vigil policy build\`)`;
  }
  return undefined;
}

/** Throws a ConfigValueError at `[i, 'wasm']` (inside the `rules` section) for the first rule whose module cannot be used. */
export function checkWasmModules(rules: readonly RuleConfig[], resolvePath: (path: string) => string): void {
  // Several rules may name one module: check each file once.
  const checked = new Map<string, string | undefined>();
  rules.forEach((rule, i) => {
    if (rule.wasm === undefined) return;
    const file = resolvePath(rule.wasm);
    if (!checked.has(file)) checked.set(file, wasmModuleProblem(file));
    const problem = checked.get(file);
    if (problem !== undefined) throw new ConfigValueError([i, 'wasm'], problem);
  });
}
