import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { ConfigValueError } from '@vigil/plugin-sdk';
import { checkWasmModules, resolveWasmPaths, wasmModuleProblem } from '../../../../gateway/govern/wasm-modules.js';
import type { RuleConfig } from '../../../../policies/schema.js';
import { fixture } from '../../../support/paths.js';
import { tempDir } from '../../../support/tmp.js';

const dir = tempDir('vigil-proxy-wasm-');
test.after(() => dir.cleanup());

const HEADER = [0x00, 0x61, 0x73, 0x6d, 0x01, 0x00, 0x00, 0x00];
/** A module importing `wasi.f`, a function the sandbox does not provide. */
const WASI_IMPORT = [...HEADER, 0x01, 0x04, 0x01, 0x60, 0x00, 0x00, 0x02, 0x0a, 0x01, 0x04, 0x77, 0x61, 0x73, 0x69, 0x01, 0x66, 0x00, 0x00];

function file(name: string, content: string | number[]): string {
  const path = join(dir.path, name);
  writeFileSync(path, typeof content === 'string' ? content : Buffer.from(content));
  return path;
}

const rule = (name: string, wasm?: string): RuleConfig => ({ name, match: { path: `/${name}` }, ...(wasm === undefined ? {} : { wasm }) });

test('a built policy module passes', () => {
  assert.is(wasmModuleProblem(fixture('wasm', 'echo.wasm')), undefined);
});

test('missing, a folder, not WebAssembly, unsupported imports, no decide: each says what is wrong', () => {
  mkdirSync(join(dir.path, 'folder.wasm'));
  const cases: [string, RegExp][] = [
    [join(dir.path, 'missing.wasm'), /missing\.wasm does not exist; build it with `vigil policy build POLICY\.ts` \(paths are relative to the config file\)/],
    [join(dir.path, 'folder.wasm'), /folder\.wasm is not a file/],
    [file('text.wasm', 'export function decide() {}'), /text\.wasm is not a usable WebAssembly module/],
    [file('wasi.wasm', WASI_IMPORT), /wasi\.wasm imports what the Vigil sandbox does not provide: wasi\.f \(function\)/],
    [file('empty.wasm', HEADER), /empty\.wasm does not export `decide`/],
  ];
  for (const [path, pattern] of cases) assert.match(wasmModuleProblem(path) ?? 'no problem', pattern);
});

test('checkWasmModules throws a ConfigValueError at the first rule whose module is unusable', () => {
  const ok = fixture('wasm', 'echo.wasm');
  const rules = [rule('a'), rule('b', ok), rule('c', 'nope.wasm')];
  const seen: string[] = [];
  try {
    checkWasmModules(rules, (p) => { seen.push(p); return p === 'nope.wasm' ? join(dir.path, p) : p; });
    assert.unreachable('should have thrown');
  } catch (err) {
    assert.instance(err, ConfigValueError);
    assert.equal((err as ConfigValueError).keyPath, [2, 'wasm']);
    assert.match((err as Error).message, /nope\.wasm does not exist/);
  }
  assert.equal(seen, [ok, 'nope.wasm'], 'only rules with a module are resolved');
  assert.not.throws(() => checkWasmModules([rule('a'), rule('b', ok), rule('c', ok)], (p) => p));
});

test('resolveWasmPaths resolves each module path and leaves other rules as they are', () => {
  const plain = rule('a');
  const out = resolveWasmPaths([plain, rule('b', 'x/p.wasm')], (p) => `/base/${p}`);
  assert.is(out[0], plain);
  assert.is(out[1].wasm, '/base/x/p.wasm');
});

test.run();
