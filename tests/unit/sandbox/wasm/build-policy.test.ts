import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { buildPolicy, ascArguments } from '../../../../sandbox/wasm/build-policy.js';
import { WasmBuildError } from '../../../../sandbox/wasm/errors.js';
import { capModuleMemory } from '../../../../sandbox/wasm/module-memory.js';
import { Wasm } from '../../../../sandbox/wasm/webassembly.js';
import { createWasmSandbox } from '../../../../sandbox/wasm/index.js';
import { fixture } from '../../../support/paths.js';
import { tempDir } from '../../../support/tmp.js';

const dir = tempDir('vigil-build-policy-');
test.after(() => dir.cleanup());

async function source(name: string, text: string): Promise<string> {
  const file = join(dir.path, name);
  await writeFile(file, text);
  return file;
}

async function buildError(file: string, options = {}): Promise<WasmBuildError> {
  const err = await buildPolicy(file, options).then(() => null, (e: unknown) => e);
  assert.instance(err, WasmBuildError);
  assert.is((err as WasmBuildError).code, 'VIGIL_ERR_WASM_BUILD');
  return err as WasmBuildError;
}

test('builds a policy with its memory capped, the staging export and the collector', async () => {
  const out = await buildPolicy(fixture('wasm', 'echo.ts'), { outFile: join(dir.path, 'echo.wasm'), maxMemoryPages: 40 });
  assert.is(out, join(dir.path, 'echo.wasm'));
  const bytes = await readFile(out);
  assert.equal(capModuleMemory(bytes, 65_536).limits.maxPages, 40);
  const exports = Wasm.Module.exports(await Wasm.compile(bytes)).map((e) => e.name);
  for (const name of ['decide', 'echo', 'vigil_stage_input', '__collect']) assert.ok(exports.includes(name), name);
  // And it runs in the sandbox.
  const sandbox = await createWasmSandbox({ module: out });
  try {
    assert.is(new TextDecoder().decode(await sandbox.call('echo', 'ok')), 'ok · ünïcødé ✓ 🚀');
  } finally {
    await sandbox.close();
  }
});

test('the default output path is next to the source', async () => {
  const file = await source('tiny.ts', 'export function decide(): i32 { return 0; }\n');
  assert.is(await buildPolicy(file, { optimize: false }), join(dir.path, 'tiny.wasm'));
});

test('asc diagnostics are reported with the file and line', async () => {
  const file = await source('broken.ts', 'export function decide(): i32 {\n  return "not a number";\n}\n');
  const err = await buildError(file);
  assert.match(err.message, /asc could not compile/);
  assert.match(err.diagnostics, /broken\.ts/);
  assert.match(err.diagnostics, /TS2322|not assignable/);
});

test('a policy without `decide` is refused', async () => {
  const file = await source('nodecide.ts', 'export function decision(): i32 { return 0; }\n');
  const err = await buildError(file);
  assert.match(err.message, /must export `decide`/);
});

test('a policy importing what the sandbox lacks is refused at build time', async () => {
  const file = await source('wasi.ts', [
    '@external("wasi_snapshot_preview1", "proc_exit") declare function proc_exit(code: i32): void;',
    'export function decide(): i32 { proc_exit(1); return 0; }',
  ].join('\n'));
  const err = await buildError(file);
  assert.match(err.message, /wasi_snapshot_preview1\.proc_exit/);
});

test('bad arguments are refused before asc runs', async () => {
  assert.match((await buildError(join(dir.path, 'missing.ts'))).message, /no such file/);
  assert.match((await buildError(join(dir.path, 'policy.js'))).message, /AssemblyScript \.ts file/);
  const file = await source('ok.ts', 'export function decide(): i32 { return 0; }\n');
  assert.match((await buildError(file, { maxMemoryPages: 0 })).message, /maxMemoryPages/);
});

test('asc is told the runtime, the memory cap and the module search path', () => {
  const args = ascArguments('/p/policy.ts', '/tmp/x/vigil-exports.ts', '/p/policy.wasm', { maxMemoryPages: 12 });
  const after = (flag: string) => args[args.indexOf(flag) + 1];
  assert.is(after('--runtime'), 'minimal');
  assert.ok(args.includes('--exportRuntime'));
  assert.is(after('--maximumMemory'), '12');
  assert.ok(args.includes('--optimize'));
  assert.match(after('--path'), /node_modules$/);
  assert.not.ok(ascArguments('/p/a.ts', '/e.ts', '/p/a.wasm', { optimize: false }).includes('--optimize'));
});

test.run();
