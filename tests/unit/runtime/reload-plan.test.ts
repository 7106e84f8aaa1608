import { test } from 'uvu';
import * as assert from 'uvu/assert';
import type { PluginDefinition } from '@vigil/plugin-sdk';
import { planReload } from '../../../runtime/reload-plan.js';
import type { RuntimePlan } from '../../../runtime/plan.js';

const proxy = { name: 'proxy', configKeys: ['service', 'rules'] } as PluginDefinition;
const capture = { name: 'capture' } as PluginDefinition;
const hello = { name: 'hello' } as PluginDefinition;

/** A plan as planRuntime makes it: `core` is the whole file, plugin sections included. */
function plan(file: Record<string, unknown>, entries: [PluginDefinition, unknown][]): RuntimePlan {
  const core = { data_dir: './d', shutdown_timeout: '10s', plugins: [], ...file };
  return { dir: '.', core, entries: entries.map(([def, config]) => ({ def, config })), loaded: {} } as unknown as RuntimePlan;
}
const rules = (path: string) => [{ name: 'r', match: { path } }];
const all = () => true;

test('the same file asks for nothing', () => {
  const a = plan({ rules: rules('/**') }, [[proxy, { rules: rules('/**') }], [capture, {}]]);
  const b = plan({ rules: rules('/**') }, [[proxy, { rules: rules('/**') }], [capture, {}]]);
  assert.equal(planReload(a, b, all), { reload: [], restart: [] });
});

test('a changed section goes to a plugin that can reload; plugin sections in the file are not core keys', () => {
  const a = plan({ rules: rules('/**') }, [[proxy, { rules: rules('/**') }], [capture, {}]]);
  const b = plan({ rules: rules('/api/**') }, [[proxy, { rules: rules('/api/**') }], [capture, {}]]);
  const { reload, restart } = planReload(a, b, all);
  assert.equal(restart, []);
  assert.equal(reload.map((e) => [e.def.name, e.config]), [['proxy', { rules: rules('/api/**') }]]);
});

test('a file the section reads that changed (configFiles digests) is a changed section, though its text is the same', () => {
  const withFiles = (digest: string) => {
    const p = plan({ rules: rules('/**') }, [[proxy, { rules: rules('/**') }], [capture, {}]]);
    p.entries[0].files = { '/etc/vigil/card.wasm': digest };
    return p;
  };
  assert.equal(planReload(withFiles('aa'), withFiles('aa'), all), { reload: [], restart: [] });
  const { reload, restart } = planReload(withFiles('aa'), withFiles('bb'), all);
  assert.equal(restart, []);
  assert.equal(reload.map((e) => e.def.name), ['proxy']);
  assert.equal(planReload(withFiles('aa'), withFiles('bb'), () => false).restart, ['service, rules']);
});

test('a plugin that cannot reload needs a restart, named by its sections', () => {
  const a = plan({}, [[proxy, { rules: rules('/**') }], [capture, { batch: 1 }]]);
  const b = plan({}, [[proxy, { rules: rules('/a') }], [capture, { batch: 2 }]]);
  assert.equal(planReload(a, b, () => false).restart, ['service, rules', 'capture']);
});

test('core keys, and plugins enabled or disabled, need a restart', () => {
  const a = plan({ shutdown_timeout: '10s' }, [[proxy, {}], [capture, {}]]);
  const b = plan({ shutdown_timeout: '5s', control_plane: { listen: 9 } }, [[proxy, {}], [hello, {}]]);
  assert.equal(planReload(a, b, all).restart, ['control_plane', 'shutdown_timeout', 'capture (disabled)', 'hello (enabled)']);
});

test('a third-party plugin\'s `with` is its section; the plugin list itself is a core key', () => {
  const a = plan({ plugins: [{ use: './hello', with: { greeting: 'hi' } }] }, [[hello, { greeting: 'hi' }]]);
  const b = plan({ plugins: [{ use: './hello', with: { greeting: 'yo' } }] }, [[hello, { greeting: 'yo' }]]);
  assert.equal(planReload(a, b, all).reload.map((e) => e.config), [{ greeting: 'yo' }]);
  assert.equal(planReload(a, b, all).restart, []);
  const c = plan({ plugins: [{ use: './other', with: { greeting: 'hi' } }] }, [[hello, { greeting: 'hi' }]]);
  assert.equal(planReload(a, c, all).restart, ['plugins']);
});

test.run();
