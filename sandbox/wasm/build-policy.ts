// `vigil policy build`: compiles an AssemblyScript policy to a WASM module the sandbox accepts.
import { createRequire } from 'node:module';
import { access, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { basename, dirname, extname, join, resolve } from 'node:path';
import { WasmBuildError, WasmModuleError } from './errors.js';
import { checkModuleImports } from './module-imports.js';
import { DEFAULT_MAX_MEMORY_PAGES } from './sandbox.js';
import { Wasm, type WasmModule } from './webassembly.js';

export interface BuildPolicyOptions {
  /** Output path; default: the source path with `.wasm`. */
  outFile?: string;
  /** `--maximumMemory` in 64 KiB pages. Default 256 (16 MiB), the sandbox's default cap. */
  maxMemoryPages?: number;
  /** `--optimize`. Default true. */
  optimize?: boolean;
  /** Exports the module must have. Default `['decide']` (the policy ABI). */
  requiredExports?: string[];
}

const require = createRequire(import.meta.url);

/** The node_modules folder that holds assemblyscript, @extism/as-pdk and @vigil/plugin-sdk (its assembly/). */
function nodeModulesDir(): string {
  return dirname(dirname(require.resolve('assemblyscript/package.json')));
}

/**
 * The asc command line for a policy. Why each flag:
 * - `--runtime minimal --exportRuntime`: a policy instance lives across calls, so its heap must be collected, but
 *   the incremental collector costs ~40% of a batch; the minimal runtime collects only when the host calls the
 *   exported `__collect`, which the sandbox does between calls, when no guest frame holds a reference.
 * - `--maximumMemory`: caps linear memory in the module itself (the sandbox also caps it on load).
 * - a second entry file exporting `vigil_stage_input`, so the host can copy the input into guest memory in one go.
 */
export function ascArguments(source: string, stagingEntry: string, outFile: string, options: BuildPolicyOptions): string[] {
  return [
    source, stagingEntry,
    '--outFile', outFile,
    '--runtime', 'minimal', '--exportRuntime',
    '--maximumMemory', String(options.maxMemoryPages ?? DEFAULT_MAX_MEMORY_PAGES),
    ...(options.optimize === false ? [] : ['--optimize']),
    '--noColors',
    '--path', nodeModulesDir(),
  ];
}

/**
 * Compiles `file` (an AssemblyScript policy) and checks the result against the policy ABI: the required exports
 * exist and nothing is imported that the sandbox does not provide. Resolves with the output path; rejects with a
 * WasmBuildError that carries asc's diagnostics.
 */
export async function buildPolicy(file: string, options: BuildPolicyOptions = {}): Promise<string> {
  const source = resolve(file);
  if (extname(source) !== '.ts') throw new WasmBuildError(`${file}: a policy source is an AssemblyScript .ts file`);
  try {
    await access(source);
  } catch {
    throw new WasmBuildError(`${file}: no such file`);
  }
  const pages = options.maxMemoryPages ?? DEFAULT_MAX_MEMORY_PAGES;
  if (!Number.isInteger(pages) || pages < 1 || pages > 65_536) {
    throw new WasmBuildError(`maxMemoryPages must be an integer from 1 to 65536, got ${pages}`);
  }
  const outFile = resolve(options.outFile ?? join(dirname(source), `${basename(source, '.ts')}.wasm`));
  const scratch = await mkdtemp(join(tmpdir(), 'vigil-policy-build-'));
  try {
    // Resolved as a package import, so it shares the SDK module instance the policy imports (a path import
    // would compile a second copy of the SDK with its own globals).
    const stagingEntry = join(scratch, 'vigil-exports.ts');
    await writeFile(stagingEntry, 'export { vigil_stage_input } from "@vigil/plugin-sdk/assembly/exports";\n');
    const { default: asc } = await import('assemblyscript/asc');
    const result = await asc.main(ascArguments(source, stagingEntry, outFile, { ...options, maxMemoryPages: pages }));
    if (result.error) {
      throw new WasmBuildError(`asc could not compile ${file}:`, result.stderr.toString().trim() || result.error.message);
    }
  } finally {
    await rm(scratch, { recursive: true, force: true });
  }
  await checkBuiltPolicy(outFile, options.requiredExports ?? ['decide']);
  return outFile;
}

async function checkBuiltPolicy(outFile: string, requiredExports: string[]): Promise<void> {
  let module: WasmModule;
  try {
    module = await Wasm.compile(await readFile(outFile));
  } catch (err) {
    throw new WasmBuildError(`${outFile}: asc produced an unusable module: ${(err as Error).message}`);
  }
  const functions = new Set(Wasm.Module.exports(module).filter((e) => e.kind === 'function').map((e) => e.name));
  const missing = requiredExports.filter((name) => !functions.has(name));
  if (missing.length > 0) {
    throw new WasmBuildError(
      `${outFile}: the policy must export ${missing.map((m) => `\`${m}\``).join(', ')} ` +
      '(e.g. `export function decide(): i32 { return runPolicy(decideOne); }`)');
  }
  try {
    checkModuleImports(module, outFile);
  } catch (err) {
    if (err instanceof WasmModuleError) throw new WasmBuildError(err.message);
    throw err;
  }
}
