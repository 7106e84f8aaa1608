import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { areas, systemPages } from '../../../../ui/src/areas/index.js';
import type { Area, PaletteCommand } from '../../../../ui/src/areas/types.js';
import { paletteItems } from '../../../../ui/src/shell/palette-items.js';
import { shortcutGroups } from '../../../../ui/src/shell/shortcuts.js';

const shellCommands: PaletteCommand[] = [
  { id: 'shell.theme', title: 'Switch to the dark theme', run: () => {} },
  { id: 'shell.dev', title: 'A developer action', developer: true, run: () => {} },
];
const only = (...ids: string[]) => (a: Area) => ids.includes(a.id);

test('configured areas offer their listed pages and commands; areas that are off offer their setup page', () => {
  const items = paletteItems(areas, systemPages, { configured: only('gateway'), simpleMode: false, shellCommands });
  const titles = items.map((i) => `${i.group}:${i.title}`);
  for (const t of ['Pages:Overview', 'Pages:Requests', 'Pages:API', 'Pages:Settings', 'Pages:About', 'Pages:LLM', 'Pages:Host',
    'Actions:Download the billing export (CSV, last 7 days)', 'Actions:Switch to the dark theme', 'Actions:A developer action']) {
    assert.ok(titles.includes(t), t);
  }
  assert.not.ok(titles.includes('Pages:Request'), 'detail pages are reached from their list');
  const llm = items.find((i) => i.title === 'LLM')!;
  assert.equal(llm.action, { kind: 'navigate', path: '/llm' });
  assert.is(llm.hint, 'not set up');
  assert.is(items.find((i) => i.title === 'Host')!.hint, 'not set up');
});

test('Simple mode leaves developer pages and commands out; an area that is off offers none of its commands', () => {
  const simple = paletteItems(areas, systemPages, { configured: only('gateway'), simpleMode: true, shellCommands }).map((i) => i.title);
  assert.not.ok(simple.includes('API'));
  assert.not.ok(simple.includes('Policy'));
  assert.not.ok(simple.includes('A developer action'));
  assert.ok(simple.includes('Overview'));
  const off = paletteItems(areas, systemPages, { configured: only(), simpleMode: false, shellCommands }).map((i) => i.title);
  assert.not.ok(off.some((t) => t.startsWith('Download the billing')));
  assert.ok(off.includes('Gateway'));
});

test('the shortcut sheet lists navigation only to pages on offer', () => {
  const on = shortcutGroups(areas, systemPages, only('gateway'), false);
  assert.ok(on.navigation.some((s) => s.keys === 'g o' && s.path === '/gateway'));
  assert.ok(on.navigation.some((s) => s.keys === 'g a'));
  assert.ok(on.general.some((s) => s.keys === 'Mod K'));
  assert.ok(on.general.some((s) => s.keys === '?'));
  const simple = shortcutGroups(areas, systemPages, only('gateway'), true);
  assert.not.ok(simple.navigation.some((s) => s.keys === 'g a'), 'developer pages are out in Simple mode');
  const off = shortcutGroups(areas, systemPages, only(), false);
  assert.equal(off.navigation.map((s) => s.keys).sort(), ['g i', 'g n', 'g s'], 'with no area set up, only the system pages (Alerts, Settings, About)');
});

test.run();
