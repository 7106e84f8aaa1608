import { test } from 'uvu';
import * as assert from 'uvu/assert';
import {
  addTab, closePane, closeTab, emptyLayout, renewPane, MAX_PANES_PER_TAB, MAX_TABS, selectTab, splitActive, zoom, FONT_SIZES,
} from '../../../../../../ui/src/areas/host/terminal/tab-layout.js';

test('tabs open active, split up to the bound, and close to their neighbour', () => {
  let l = addTab(emptyLayout(), '/srv');
  const first = l.active;
  assert.is(l.tabs[0].panes[0].cwd, '/srv');
  l = addTab(l);
  const second = l.active;
  assert.is.not(second, first);
  l = splitActive(l, 'column');
  assert.is(l.tabs[1].panes.length, 2);
  assert.is(l.tabs[1].direction, 'column');
  for (let i = 0; i < 5; i++) l = splitActive(l, 'row');
  assert.is(l.tabs[1].panes.length, MAX_PANES_PER_TAB);
  l = closeTab(l, second);
  assert.is(l.active, first, 'the tab before it');
  l = closeTab(l, first);
  assert.equal(l, { tabs: [], active: '' });
});

test('closing the last pane closes the tab; selecting an unknown tab changes nothing', () => {
  let l = addTab(addTab(emptyLayout()));
  const [a, b] = l.tabs;
  l = selectTab(l, a.id);
  l = closePane(l, a.panes[0].id);
  assert.equal(l.tabs.map((t) => t.id), [b.id]);
  assert.is(l.active, b.id);
  assert.is(selectTab(l, 'nope'), l);
});

test('a reopened pane gets a new id (a new shell) in the same place and folder', () => {
  let l = splitActive(addTab(emptyLayout(), '/srv'), 'row', '/tmp');
  const [a, b] = l.tabs[0].panes;
  l = renewPane(l, b.id);
  assert.is(l.tabs[0].panes[0], a);
  assert.is.not(l.tabs[0].panes[1].id, b.id);
  assert.is(l.tabs[0].panes[1].cwd, '/tmp');
});

test('at most MAX_TABS tabs', () => {
  let l = emptyLayout();
  for (let i = 0; i < MAX_TABS + 3; i++) l = addTab(l);
  assert.is(l.tabs.length, MAX_TABS);
});

test('zoom steps through the sizes and holds at the ends', () => {
  assert.is(zoom(14, 1), 15);
  assert.is(zoom(14, -1), 13);
  assert.is(zoom(17, 1), 18, 'an odd size snaps to the next');
  assert.is(zoom(17, -1), 16);
  assert.is(zoom(FONT_SIZES[FONT_SIZES.length - 1], 1), FONT_SIZES[FONT_SIZES.length - 1]);
  assert.is(zoom(FONT_SIZES[0], -1), FONT_SIZES[0]);
});

test.run();
