import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { definePlugin, type PluginDefinition } from '@vigil/plugin-sdk';
import { enabledBuiltins, orderPlugins } from '../../../../runtime/plugins/order.js';

const p = (name: string, extra: Partial<PluginDefinition> = {}) => definePlugin({ name, version: '1', setup: () => {}, ...extra });

test('providers come before the plugins that need them; config order otherwise', () => {
  const proxy = p('proxy', { needs: ['capture'] });
  const capture = p('capture', { needs: ['redaction', 'store'], optional: ['exporters'] });
  const redaction = p('redaction', { provides: ['redaction'] });
  const exporters = p('exporters');
  const other = p('other');
  const names = orderPlugins([other, proxy, capture, redaction, exporters]).map((x) => x.name);
  assert.equal(names, ['other', 'redaction', 'exporters', 'capture', 'proxy']);
});

test('a missing dependency names the plugin and the service', () => {
  assert.throws(() => orderPlugins([p('a', { needs: ['ghost'] })]), /plugin a needs "ghost"/);
});

test('core services in needs are not plugin dependencies', () => {
  assert.equal(orderPlugins([p('a', { needs: ['store', 'http', 'jobs', 'workers'] })]).map((x) => x.name), ['a']);
});

test('cycles are reported with their path', () => {
  assert.throws(() => orderPlugins([p('a', { needs: ['b'] }), p('b', { needs: ['a'] })]), /cycle: a -> b -> a/);
});

test('two plugins providing one service is an error', () => {
  assert.throws(() => orderPlugins([p('a', { provides: ['x'] }), p('b', { provides: ['x'] })]), /both provide "x"/);
});

test('built-ins are enabled by their config keys and by what enabled plugins need', () => {
  const proxy = p('proxy', { configKeys: ['service', 'rules'], needs: ['capture'] });
  const capture = p('capture', { needs: ['redaction'] });
  const redaction = p('redaction', { provides: ['redaction'] });
  const exporters = p('exporters');
  const builtins = [redaction, exporters, capture, proxy];
  assert.equal(enabledBuiltins(builtins, new Set(['rules']), []).map((x) => x.name), ['redaction', 'capture', 'proxy']);
  assert.equal(enabledBuiltins(builtins, new Set(['exporters']), []).map((x) => x.name), ['exporters']);
  assert.equal(enabledBuiltins(builtins, new Set(), [p('third', { needs: ['redaction'] })]).map((x) => x.name), ['redaction']);
  assert.equal(enabledBuiltins(builtins, new Set(['control_plane']), []), []);
});

test.run();
