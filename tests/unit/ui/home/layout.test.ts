import { test } from 'uvu';
import * as assert from 'uvu/assert';
import {
  clampSize, galleryWidgets, hideWidget, moveBy, moveWidget, parseLayout, pruneSizes, resizeWidget, showWidget, sizeByKey,
  sizeFromDrag, spanColumns, visibleTiles, withDefaults, MAX_ENTRIES, type HomeLayout, type OfferedWidget,
} from '../../../../ui/src/home/layout.js';

const offered: OfferedWidget[] = [
  { id: 'cpu', size: { w: 1, h: 1 }, default: true },
  { id: 'mem', size: { w: 1, h: 1 }, default: true },
  { id: 'health', size: { w: 'full', h: 2 }, default: true },
  { id: 'procs', size: { w: 2, h: 2 } },
];
const ids = (l: HomeLayout) => visibleTiles(l, offered).map((t) => t.id);

test('no stored layout: the defaults in registry order, at their default sizes; the rest in the gallery', () => {
  const l = withDefaults(null, offered);
  assert.equal(visibleTiles(l, offered), [
    { id: 'cpu', size: { w: 1, h: 1 } }, { id: 'mem', size: { w: 1, h: 1 } }, { id: 'health', size: { w: 'full', h: 2 } },
  ]);
  assert.equal(galleryWidgets(l, offered).map((w) => w.id), ['procs']);
});

test('merge: the stored order wins; a new default joins at the end; a hidden default stays hidden; unknown ids keep their place', () => {
  const stored: HomeLayout = { order: ['battery', 'mem', 'procs'], hidden: ['cpu'], sizes: { mem: { w: 3, h: 2 } } };
  const l = withDefaults(stored, offered);
  assert.equal(l.order, ['battery', 'mem', 'procs', 'health']);
  assert.equal(ids(l), ['mem', 'procs', 'health'], 'battery is not offered here, cpu was removed');
  assert.equal(visibleTiles(l, offered)[0].size, { w: 3, h: 2 });
  assert.equal(galleryWidgets(l, offered).map((w) => w.id), ['cpu']);
  // The stored layout itself is not changed.
  assert.equal(stored.order, ['battery', 'mem', 'procs']);
});

test('merge stays within 120 ids, dropping ids not offered here first', () => {
  const many = Array.from({ length: MAX_ENTRIES }, (_, i) => `gone-${i}`);
  const l = withDefaults({ order: many, hidden: [], sizes: {} }, offered);
  assert.is(l.order.length, MAX_ENTRIES);
  assert.equal(ids(l), ['cpu', 'mem', 'health']);
  assert.is(l.order[0], 'gone-3');
});

test('reorder: before or after a target; by the keyboard one visible place at a time, unchanged at the ends', () => {
  const l = withDefaults(null, offered);
  assert.equal(moveWidget(l, 'health', 'cpu').order, ['health', 'cpu', 'mem']);
  assert.equal(moveWidget(l, 'cpu', 'health', true).order, ['mem', 'health', 'cpu']);
  assert.is(moveWidget(l, 'cpu', 'nope'), l);
  assert.is(moveWidget(l, 'cpu', 'cpu'), l);
  const withGone = { ...l, order: ['cpu', 'battery', 'mem', 'health'] };
  const visible = ids(withGone);
  assert.equal(moveBy(withGone, visible, 'cpu', 1).order, ['battery', 'mem', 'cpu', 'health'], 'skips what is not shown');
  assert.equal(moveBy(withGone, visible, 'health', -1).order, ['cpu', 'battery', 'health', 'mem']);
  assert.is(moveBy(withGone, visible, 'cpu', -1), withGone);
  assert.is(moveBy(withGone, visible, 'health', 1), withGone);
});

test('resize clamps to 1-6 columns or full and 1-6 rows; garbage falls back to the default', () => {
  assert.equal(clampSize({ w: 9, h: 0 }, { w: 1, h: 1 }), { w: 6, h: 1 });
  assert.equal(clampSize({ w: -3, h: 40 }, { w: 1, h: 1 }), { w: 1, h: 6 });
  assert.equal(clampSize({ w: 2.6, h: 1.4 }, { w: 1, h: 1 }), { w: 3, h: 1 });
  assert.equal(clampSize({ w: 'half', h: 'tall' }, { w: 2, h: 3 }), { w: 2, h: 3 });
  assert.equal(clampSize({ w: Number.NaN, h: Infinity }, { w: 'full', h: 2 }), { w: 'full', h: 2 });
  assert.equal(clampSize(undefined, { w: 'full', h: 2 }), { w: 'full', h: 2 });
  const l = resizeWidget(withDefaults(null, offered), 'cpu', { w: 12, h: -1 }, { w: 1, h: 1 });
  assert.equal(l.sizes.cpu, { w: 6, h: 1 });
});

test('a corner drag: whole cells of travel, within the grid; the sixth column is full width', () => {
  const cell = { width: 200, height: 120, columns: 6 };
  assert.equal(sizeFromDrag({ w: 1, h: 1 }, 210, 130, cell), { w: 2, h: 2 });
  assert.equal(sizeFromDrag({ w: 2, h: 2 }, 90, 50, cell), { w: 2, h: 2 }, 'under half a cell changes nothing');
  assert.equal(sizeFromDrag({ w: 2, h: 2 }, 5000, 5000, cell), { w: 'full', h: 6 });
  assert.equal(sizeFromDrag({ w: 3, h: 3 }, -5000, -5000, cell), { w: 1, h: 1 });
  assert.equal(sizeFromDrag({ w: 'full', h: 2 }, -410, 0, cell), { w: 4, h: 2 });
  // On a phone's two columns a tile cannot grow past the row, and "full" is the whole row.
  const phone = { width: 160, height: 120, columns: 2 };
  assert.equal(sizeFromDrag({ w: 1, h: 1 }, 1000, 0, phone), { w: 2, h: 1 });
  assert.equal(sizeFromDrag({ w: 4, h: 1 }, 0, 0, phone), { w: 4, h: 1 }, 'no horizontal travel keeps the stored width');
  assert.is(spanColumns({ w: 'full', h: 1 }, 2), 2);
  assert.is(spanColumns({ w: 5, h: 1 }, 2), 2);
  assert.is(spanColumns({ w: 3, h: 1 }, 6), 3);
});

test('the keyboard resize: width 1-6 then full, height 1-6, other keys ignored', () => {
  assert.equal(sizeByKey({ w: 6, h: 1 }, 'ArrowRight'), { w: 'full', h: 1 });
  assert.equal(sizeByKey({ w: 'full', h: 1 }, 'ArrowRight'), { w: 'full', h: 1 });
  assert.equal(sizeByKey({ w: 'full', h: 1 }, 'ArrowLeft'), { w: 6, h: 1 });
  assert.equal(sizeByKey({ w: 1, h: 1 }, 'ArrowLeft'), { w: 1, h: 1 });
  assert.equal(sizeByKey({ w: 1, h: 6 }, 'ArrowDown'), { w: 1, h: 6 });
  assert.equal(sizeByKey({ w: 1, h: 2 }, 'ArrowUp'), { w: 1, h: 1 });
  assert.is(sizeByKey({ w: 1, h: 2 }, 'Enter'), undefined);
});

test('remove and re-add: hidden, offered in the gallery, back at the end with its size; defaults do not bring it back', () => {
  let l = resizeWidget(withDefaults(null, offered), 'cpu', { w: 3, h: 2 }, { w: 1, h: 1 });
  l = hideWidget(l, 'cpu');
  assert.equal(ids(l), ['mem', 'health']);
  assert.equal(withDefaults(l, offered).order, ['mem', 'health'], 'not re-added by the merge');
  assert.equal(galleryWidgets(l, offered).map((w) => w.id), ['cpu', 'procs']);
  l = showWidget(l, 'cpu');
  assert.equal(ids(l), ['mem', 'health', 'cpu']);
  assert.equal(l.hidden, []);
  assert.equal(visibleTiles(l, offered)[2].size, { w: 3, h: 2 });
  assert.equal(pruneSizes({ order: ['a'], hidden: ['b'], sizes: { a: { w: 1, h: 1 }, b: { w: 2, h: 1 }, c: { w: 3, h: 1 } } }).sizes, { a: { w: 1, h: 1 }, b: { w: 2, h: 1 } });
});

test('validation of an imported layout: the server\'s bounds, the first problem in words; perch\'s named sizes accepted', () => {
  const good = { order: ['cpu', 'cpu', 'mem'], hidden: [], sizes: { cpu: { w: 'full', h: 2 } } };
  assert.equal(parseLayout(good), { ok: true, layout: { order: ['cpu', 'mem'], hidden: [], sizes: { cpu: { w: 'full', h: 2 } } } });
  assert.equal(parseLayout({ layout: good }).ok, true, 'the route\'s answer imports too');
  assert.equal(parseLayout({ order: ['cpu'], hidden: ['net'], sizes: { cpu: 's', net: 'l', x: 'full' } }),
    { ok: true, layout: { order: ['cpu'], hidden: ['net'], sizes: { cpu: { w: 1, h: 1 }, net: { w: 3, h: 2 }, x: { w: 'full', h: 2 } } } });
  const bad = (v: unknown) => { const r = parseLayout(v); return r.ok ? '' : r.error; };
  assert.match(bad(null), /not a layout/);
  assert.match(bad([]), /not a layout/);
  assert.match(bad({ order: 'cpu' }), /order must be a list/);
  assert.match(bad({ order: ['ok', 'not ok'] }), /order\[1\] is not a widget id/);
  assert.match(bad({ hidden: ['x'.repeat(41)] }), /hidden\[0\]/);
  assert.match(bad({ order: Array.from({ length: 121 }, (_, i) => `w${i}`) }), /121 ids; at most 120/);
  assert.match(bad({ sizes: { cpu: { w: 7, h: 1 } } }), /sizes\.cpu\.w must be 1-6/);
  assert.match(bad({ sizes: { cpu: { w: 1, h: 0 } } }), /sizes\.cpu\.h must be 1-6/);
  assert.match(bad({ sizes: { cpu: 'xl' } }), /sizes\.cpu must be/);
  assert.match(bad({ sizes: { 'a b': { w: 1, h: 1 } } }), /"a b" is not a widget id/);
  assert.match(bad({ order: [], colour: 'red' }), /unknown key "colour"/);
});

test.run();
