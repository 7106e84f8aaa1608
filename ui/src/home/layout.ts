// The home grid's layout as data, and every change the grid makes to it: pure functions over perch's home.json shape
// (`{order, hidden, sizes}`), the same the server stores (GET/POST /api/homelayout). Nothing here touches the DOM.
import type { HomeLayout, WidgetSize } from '../data/api.gen.js';

export type { HomeLayout, WidgetSize };

export const GRID_COLUMNS = 6;
export const GRID_ROWS = 6;
/** Ids per list, and sizes, as the server bounds them. */
export const MAX_ENTRIES = 120;
const WIDGET_ID = /^[\w-]{1,40}$/;

/** What the grid needs of a widget definition. */
export interface OfferedWidget {
  id: string;
  size: WidgetSize;
  default?: boolean;
}

export interface Tile {
  id: string;
  size: WidgetSize;
}

const clampInt = (n: number, lo: number, hi: number) => Math.min(hi, Math.max(lo, Math.round(n)));

/** A size inside the grid's bounds: widths 1-6 or full, heights 1-6; anything unreadable is `fallback`. */
export function clampSize(size: { w?: unknown; h?: unknown } | undefined, fallback: WidgetSize): WidgetSize {
  const w = size?.w === 'full' ? 'full' : typeof size?.w === 'number' && Number.isFinite(size.w) ? clampInt(size.w, 1, GRID_COLUMNS) : fallback.w;
  const h = typeof size?.h === 'number' && Number.isFinite(size.h) ? clampInt(size.h, 1, GRID_ROWS) : fallback.h;
  return { w, h };
}

/**
 * The stored layout with the defaults merged in: a default widget the layout neither places nor hides (a new area
 * turned on, a widget a later version adds) joins at the end. Ids of widgets not offered here stay in the order,
 * so a layout imported from a machine with a battery keeps the battery's place for when one is present.
 */
export function withDefaults(stored: HomeLayout | null, offered: readonly OfferedWidget[]): HomeLayout {
  const base = stored ?? { order: [], hidden: [], sizes: {} };
  const known = new Set([...base.order, ...base.hidden]);
  const order = [...base.order, ...offered.filter((w) => w.default && !known.has(w.id)).map((w) => w.id)];
  return { order: boundOrder(order, offered), hidden: [...base.hidden], sizes: { ...base.sizes } };
}

/** At most MAX_ENTRIES ids: the ones not offered here go first when there are too many. */
function boundOrder(order: string[], offered: readonly OfferedWidget[]): string[] {
  if (order.length <= MAX_ENTRIES) return order;
  const here = new Set(offered.map((w) => w.id));
  let extra = order.length - MAX_ENTRIES;
  const kept = order.filter((id) => here.has(id) || extra-- <= 0);
  return kept.slice(0, MAX_ENTRIES);
}

/** The tiles the grid shows, in order: placed, offered here, not hidden; each at its stored or default size. */
export function visibleTiles(layout: HomeLayout, offered: readonly OfferedWidget[]): Tile[] {
  const byId = new Map(offered.map((w) => [w.id, w]));
  const hidden = new Set(layout.hidden);
  const seen = new Set<string>();
  const tiles: Tile[] = [];
  for (const id of layout.order) {
    const widget = byId.get(id);
    if (!widget || hidden.has(id) || seen.has(id)) continue;
    seen.add(id);
    tiles.push({ id, size: clampSize(layout.sizes[id], widget.size) });
  }
  return tiles;
}

/** Widgets offered here and not on the grid: what the gallery lists. */
export function galleryWidgets<W extends OfferedWidget>(layout: HomeLayout, offered: readonly W[]): W[] {
  const shown = new Set(visibleTiles(layout, offered).map((t) => t.id));
  return offered.filter((w) => !shown.has(w.id));
}

/** `id` moved to just before (or after) `target`, both ids of the order; unchanged when either is missing. */
export function moveWidget(layout: HomeLayout, id: string, target: string, after = false): HomeLayout {
  if (id === target || !layout.order.includes(id) || !layout.order.includes(target)) return layout;
  const order = layout.order.filter((x) => x !== id);
  order.splice(order.indexOf(target) + (after ? 1 : 0), 0, id);
  return { ...layout, order };
}

/**
 * `id` moved `delta` places among the visible tiles (the keyboard's way to reorder: one place per arrow press);
 * unchanged at either end.
 */
export function moveBy(layout: HomeLayout, visible: readonly string[], id: string, delta: number): HomeLayout {
  const from = visible.indexOf(id);
  const to = from + delta;
  if (from < 0 || delta === 0 || to < 0 || to >= visible.length) return layout;
  return moveWidget(layout, id, visible[to], delta > 0);
}

export function resizeWidget(layout: HomeLayout, id: string, size: WidgetSize, fallback: WidgetSize): HomeLayout {
  return { ...layout, sizes: { ...layout.sizes, [id]: clampSize(size, fallback) } };
}

/** Off the grid, remembered as removed so the defaults do not bring it back; its size is kept for its return. */
export function hideWidget(layout: HomeLayout, id: string): HomeLayout {
  return { ...layout, order: layout.order.filter((x) => x !== id), hidden: [...layout.hidden.filter((x) => x !== id), id].slice(-MAX_ENTRIES) };
}

/** Back on the grid from the gallery, at the end. */
export function showWidget(layout: HomeLayout, id: string): HomeLayout {
  const order = [...layout.order.filter((x) => x !== id), id];
  return { ...layout, order: order.slice(-MAX_ENTRIES), hidden: layout.hidden.filter((x) => x !== id) };
}

/** perch's named sizes (home.json), accepted on import. */
const NAMED_SIZES: Record<string, WidgetSize> = { s: { w: 1, h: 1 }, m: { w: 2, h: 2 }, l: { w: 3, h: 2 }, full: { w: 'full', h: 2 } };

export type ParsedLayout = { ok: true; layout: HomeLayout } | { ok: false; error: string };

/**
 * A layout from outside (an imported file, the browser's cached copy), checked as the server checks it, with the
 * first problem in words. A file exported by perch (sizes named s, m, l, full) is accepted too.
 */
export function parseLayout(value: unknown): ParsedLayout {
  const v = value && typeof value === 'object' && 'layout' in value ? (value as { layout: unknown }).layout : value;
  if (!v || typeof v !== 'object' || Array.isArray(v)) return { ok: false, error: 'not a layout: expected an object with order, hidden and sizes' };
  const o = v as Record<string, unknown>;
  const extra = Object.keys(o).filter((k) => k !== 'order' && k !== 'hidden' && k !== 'sizes');
  if (extra.length) return { ok: false, error: `unknown key "${extra[0]}": a layout has order, hidden and sizes` };
  const lists: Record<'order' | 'hidden', string[]> = { order: [], hidden: [] };
  for (const key of ['order', 'hidden'] as const) {
    const list = o[key] ?? [];
    if (!Array.isArray(list)) return { ok: false, error: `${key} must be a list of widget ids` };
    if (list.length > MAX_ENTRIES) return { ok: false, error: `${key} has ${list.length} ids; at most ${MAX_ENTRIES}` };
    for (const [i, id] of list.entries()) {
      if (typeof id !== 'string' || !WIDGET_ID.test(id)) return { ok: false, error: `${key}[${i}] is not a widget id (1-40 letters, digits, _ or -)` };
    }
    lists[key] = [...new Set(list as string[])];
  }
  const sizes: Record<string, WidgetSize> = {};
  const given = o.sizes ?? {};
  if (!given || typeof given !== 'object' || Array.isArray(given)) return { ok: false, error: 'sizes must be an object of widget id to size' };
  const entries = Object.entries(given as Record<string, unknown>);
  if (entries.length > MAX_ENTRIES) return { ok: false, error: `sizes has ${entries.length} entries; at most ${MAX_ENTRIES}` };
  for (const [id, size] of entries) {
    if (!WIDGET_ID.test(id)) return { ok: false, error: `sizes: "${id.slice(0, 50)}" is not a widget id` };
    const named = typeof size === 'string' ? NAMED_SIZES[size] : undefined;
    const s = named ?? size;
    if (!s || typeof s !== 'object') return { ok: false, error: `sizes.${id} must be {w, h} or one of s, m, l, full` };
    const { w, h } = s as { w?: unknown; h?: unknown };
    if (!(w === 'full' || (Number.isInteger(w) && (w as number) >= 1 && (w as number) <= GRID_COLUMNS))) return { ok: false, error: `sizes.${id}.w must be 1-${GRID_COLUMNS} columns or "full"` };
    if (!(Number.isInteger(h) && (h as number) >= 1 && (h as number) <= GRID_ROWS)) return { ok: false, error: `sizes.${id}.h must be 1-${GRID_ROWS} rows` };
    sizes[id] = { w: w as WidgetSize['w'], h: h as number };
  }
  return { ok: true, layout: { order: lists.order, hidden: lists.hidden, sizes } };
}

/** Sizes only for widgets the layout names, so saved layouts do not grow with every widget ever resized. */
export function pruneSizes(layout: HomeLayout): HomeLayout {
  const named = new Set([...layout.order, ...layout.hidden]);
  return { ...layout, sizes: Object.fromEntries(Object.entries(layout.sizes).filter(([id]) => named.has(id)).slice(0, MAX_ENTRIES)) };
}

/** Columns a tile spans on a grid of `columns` (fewer on a phone): a wider tile takes the whole row. */
export function spanColumns(size: WidgetSize, columns: number): number {
  return size.w === 'full' ? columns : Math.min(size.w, columns);
}

/**
 * The size a corner drag ends at: the start size plus the pointer's travel in whole cells, within the grid's
 * columns; reaching the sixth column makes the tile full-width (the same on a wide screen, the whole row on a phone).
 */
export function sizeFromDrag(start: WidgetSize, dx: number, dy: number, cell: { width: number; height: number; columns: number }): WidgetSize {
  const h = clampInt(start.h + Math.round(dy / cell.height), 1, GRID_ROWS);
  const steps = Math.round(dx / cell.width);
  if (steps === 0) return { w: start.w, h };
  const w = clampInt(spanColumns(start, cell.columns) + steps, 1, cell.columns);
  return { w: w >= GRID_COLUMNS ? 'full' : w, h };
}

const WIDTHS: readonly WidgetSize['w'][] = [1, 2, 3, 4, 5, 6, 'full'];

/** The keyboard's resize: one step of width (1-6, then full) or height (1-6) per arrow press. */
export function sizeByKey(size: WidgetSize, key: string): WidgetSize | undefined {
  const wi = WIDTHS.indexOf(size.w);
  switch (key) {
    case 'ArrowRight': return { w: WIDTHS[Math.min(WIDTHS.length - 1, wi + 1)], h: size.h };
    case 'ArrowLeft': return { w: WIDTHS[Math.max(0, wi - 1)], h: size.h };
    case 'ArrowDown': return { w: size.w, h: Math.min(GRID_ROWS, size.h + 1) };
    case 'ArrowUp': return { w: size.w, h: Math.max(1, size.h - 1) };
    default: return undefined;
  }
}
