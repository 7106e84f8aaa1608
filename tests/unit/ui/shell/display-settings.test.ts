import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { readSettings, writeSettings } from '../../../../ui/src/shell/display-settings.js';

test('settings read back from <html> what the server wrote; unknown values fall back to the defaults', () => {
  assert.equal(readSettings({ dataset: { theme: 'dark', simpleMode: 'true', reduceEffects: 'false' } }), { theme: 'dark', simple_mode: true, reduce_effects: false });
  assert.equal(readSettings({ dataset: {} }), { theme: 'system', simple_mode: false, reduce_effects: false });
  assert.equal(readSettings({ dataset: { theme: 'neon', simpleMode: 'yes' } }), { theme: 'system', simple_mode: false, reduce_effects: false });
});

test('writeSettings and readSettings round-trip', () => {
  const root = { dataset: {} as Record<string, string> };
  const s = { theme: 'light' as const, simple_mode: true, reduce_effects: true };
  writeSettings(root, s);
  assert.equal(root.dataset, { theme: 'light', simpleMode: 'true', reduceEffects: 'true' });
  assert.equal(readSettings(root), s);
});

test.run();
