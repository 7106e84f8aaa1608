// Which widgets the grid offers (ui/src/home/offered-widgets.ts), and what every registered widget must satisfy for
// a stored layout to name it.
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { areas, systemPages } from '../../../../ui/src/areas/index.js';
import type { Area } from '../../../../ui/src/areas/types.js';
import { resolveRoute } from '../../../../ui/src/shell/routes.js';
import { GRID_COLUMNS, GRID_ROWS, MAX_ENTRIES } from '../../../../ui/src/home/layout.js';
import { gridIsHome } from '../../../../ui/src/home/grid-is-home.js';
import { matchesQuery, needsCaps, offeredWidgets } from '../../../../ui/src/home/offered-widgets.js';

const all = () => true;
const ids = (list: { id: string }[]) => list.map((w) => w.id);

test('every widget has an id a layout may store, unique across areas, a size inside the grid, and loads lazily', () => {
  const widgets = areas.flatMap((a) => a.widgets ?? []);
  assert.ok(widgets.length > 10);
  assert.ok(widgets.length <= MAX_ENTRIES, 'a layout can name every widget');
  assert.equal([...new Set(ids(widgets))], ids(widgets));
  for (const w of widgets) {
    assert.match(w.id, /^[\w-]{1,40}$/);
    assert.ok(w.size.w === 'full' || (Number.isInteger(w.size.w) && w.size.w >= 1 && w.size.w <= GRID_COLUMNS), w.id);
    assert.ok(Number.isInteger(w.size.h) && w.size.h >= 1 && w.size.h <= GRID_ROWS, w.id);
    assert.ok(w.title.trim() && w.description.trim(), `${w.id}: a title and a description for the gallery`);
    assert.type(w.load, 'function');
    // The title's link leads to a page of the shell, not "not found".
    if (w.path) assert.is(resolveRoute(w.path.split('?')[0], areas, systemPages, all).kind, 'page', `${w.id}: ${w.path}`);
  }
});

test('the default host widgets are the issue\'s list, and gateway and LLM offer theirs', () => {
  const host = areas.find((a) => a.id === 'host')!;
  assert.equal(ids((host.widgets ?? []).filter((w) => w.default)), ['cpu', 'mem', 'net', 'temp', 'battery', 'uptime', 'core', 'disk', 'health', 'critlogs', 'alerts', 'fleet']);
  assert.equal(ids(areas.find((a) => a.id === 'gateway')!.widgets ?? []), ['gateway-requests', 'gateway-errors']);
  assert.equal(ids(areas.find((a) => a.id === 'llm')!.widgets ?? []), ['llm-cost', 'llm-eval-score']);
});

test('only configured areas; a widget whose plugin is off or whose capability is absent is not offered', () => {
  const hostOnly = (a: Area) => a.id === 'host';
  const base = ids(offeredWidgets(areas, { configured: hostOnly, plugins: new Set(['probes']), caps: { battery: false } }));
  assert.not.ok(base.includes('battery'), 'no battery');
  assert.not.ok(base.includes('fleet'), 'the fleet plugin is off');
  assert.not.ok(base.includes('alerts'), 'the alerts plugin is off');
  assert.not.ok(base.some((id) => id.startsWith('gateway') || id.startsWith('llm')), 'areas that are off');
  assert.ok(base.includes('cpu'));
  const full = ids(offeredWidgets(areas, { configured: hostOnly, plugins: new Set(['probes', 'fleet', 'alerts']), caps: { battery: true } }));
  for (const id of ['battery', 'fleet', 'alerts']) assert.ok(full.includes(id), id);
  const unknownCaps = ids(offeredWidgets(areas, { configured: hostOnly, plugins: new Set(), caps: undefined }));
  assert.not.ok(unknownCaps.includes('battery'), 'a capability not known yet is not assumed');
});

test('the host area leads when asked; otherwise the registry order', () => {
  const facts = { configured: all, plugins: new Set<string>(), caps: {} };
  assert.is(offeredWidgets(areas, facts)[0].area.id, areas[0].id);
  assert.is(offeredWidgets(areas, facts, 'host')[0].id, 'cpu');
});

test('caps are asked for only when a configured area has a widget that needs one', () => {
  assert.ok(needsCaps(areas, (a) => a.id === 'host'));
  assert.not.ok(needsCaps(areas, (a) => a.id === 'gateway'));
});

test('the gallery search: every word, in the title, description, keywords or area', () => {
  const widgets = offeredWidgets(areas, { configured: all, plugins: new Set(['fleet', 'alerts']), caps: { battery: true } });
  const find = (q: string) => ids(widgets.filter((w) => matchesQuery(w, q)));
  assert.equal(find('uptime'), ['uptime']);
  assert.equal(find('BOOT hostname'), ['uptime']);
  assert.ok(find('gateway').includes('gateway-errors'));
  assert.ok(find('ram').includes('mem'));
  assert.equal(find('nothing-like-this'), []);
  assert.is(find('').length, widgets.length);
});

test('the grid is home with the host monitor on; otherwise the first area\'s own home stays', () => {
  assert.ok(gridIsHome(areas, (a) => a.id === 'host'));
  assert.ok(gridIsHome(areas, all));
  assert.not.ok(gridIsHome(areas, (a) => a.id === 'gateway' || a.id === 'llm'));
  assert.not.ok(gridIsHome(areas, () => false));
});

test('the containers tile is offered with the containers plugin on and an engine found, not otherwise', () => {
  const hostOnly = (a: Area) => a.id === 'host';
  const offered = (plugins: string[], containers: string[]) => ids(offeredWidgets(areas, { configured: hostOnly, plugins: new Set(plugins), caps: { containers } })).includes('containers');
  assert.is(offered(['probes', 'containers'], ['docker']), true);
  assert.is(offered(['probes', 'containers'], []), false, 'no engine found');
  assert.is(offered(['probes'], ['docker']), false, 'the plugin is off');
});

test.run();
