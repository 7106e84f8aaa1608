// The home grid: the tiles on a CSS grid of 6 columns (fewer on a narrow screen) and rows of a fixed height, with
// reordering and resizing by pointer (mouse, touch, pen) and by keyboard. A drag changes a draft that the grid
// shows as it goes; the layout is saved once, when the pointer is released.
import { useEffect, useMemo, useRef, useState } from 'preact/hooks';
import { announce } from '../shell/announcer.js';
import {
  hideWidget, moveBy, moveWidget, resizeWidget, sizeByKey, sizeFromDrag, spanColumns, visibleTiles, type HomeLayout, type WidgetSize,
} from './layout.js';
import type { OfferedDefinition } from './offered-widgets.js';
import { saveLayout } from './layout-store.js';
import { describeSize, WidgetTile, type TileHandlers } from './widget-tile.js';

/** Columns for the grid's width: 6 on a desktop, down to 2 on a phone. */
export function columnsFor(width: number): number {
  return width >= 900 ? 6 : width >= 640 ? 4 : width >= 440 ? 3 : 2;
}

function useColumns(grid: { current: HTMLElement | null }): number {
  const [columns, setColumns] = useState(6);
  useEffect(() => {
    const el = grid.current;
    if (!el) return;
    const update = () => setColumns(columnsFor(el.clientWidth));
    update();
    const observer = new ResizeObserver(update);
    observer.observe(el);
    return () => observer.disconnect();
  }, []);
  return columns;
}

interface Drag {
  kind: 'move' | 'resize';
  id: string;
  x: number;
  y: number;
  start: WidgetSize;
  handle: HTMLElement;
  cleanup(): void;
}

export function HomeGrid({ layout, offered, editing }: { layout: HomeLayout; offered: readonly OfferedDefinition[]; editing: boolean }) {
  const [draft, setDraft] = useState<HomeLayout | undefined>(undefined);
  const draftRef = useRef<HomeLayout | undefined>(undefined);
  const drag = useRef<Drag | undefined>(undefined);
  const grid = useRef<HTMLUListElement>(null);
  const columns = useColumns(grid);
  const shown = draft ?? layout;
  const tiles = visibleTiles(shown, offered);
  const byId = useMemo(() => new Map(offered.map((w) => [w.id, w])), [offered]);
  const fallback = (id: string): WidgetSize => byId.get(id)?.size ?? { w: 1, h: 1 };

  const setDraftBoth = (next: HomeLayout | undefined) => {
    draftRef.current = next;
    setDraft(next);
  };
  useEffect(() => () => drag.current?.cleanup(), []);
  // A layout saved elsewhere (another tab, an import) replaces an unfinished drag's base.
  useEffect(() => { if (!drag.current) setDraftBoth(undefined); }, [layout]);

  const focusHandle = (id: string, which: 'move' | 'resize') => requestAnimationFrame(() => {
    grid.current?.querySelector<HTMLElement>(`[data-widget-id="${id}"] .widget-${which}`)?.focus();
  });

  /** The tile under the pointer, other than the one dragged, and whether the pointer is past its middle. */
  const dropTarget = (x: number, y: number, id: string): { id: string; after: boolean } | undefined => {
    for (const el of grid.current?.querySelectorAll<HTMLElement>('[data-widget-id]') ?? []) {
      const r = el.getBoundingClientRect();
      if (el.dataset.widgetId === id || x < r.left || x > r.right || y < r.top || y > r.bottom) continue;
      return { id: el.dataset.widgetId!, after: x > r.left + r.width / 2 };
    }
    return undefined;
  };

  const cell = () => {
    const el = grid.current!;
    const style = getComputedStyle(el);
    const gap = parseFloat(style.columnGap) || 0;
    const rowGap = parseFloat(style.rowGap) || 0;
    const row = parseFloat(style.gridAutoRows) || 112;
    return { width: (el.clientWidth - gap * (columns - 1)) / columns + gap, height: row + rowGap, columns };
  };

  const begin = (e: PointerEvent, id: string, kind: Drag['kind']) => {
    if (e.button !== 0 || drag.current) return;
    e.preventDefault();
    const handle = e.currentTarget as HTMLElement;
    handle.setPointerCapture(e.pointerId);
    const start = visibleTiles(layout, offered).find((t) => t.id === id)?.size ?? fallback(id);
    const metrics = kind === 'resize' ? cell() : undefined;
    let lastTarget = '';
    const onMove = (ev: PointerEvent) => {
      const d = drag.current;
      if (!d || ev.pointerId !== e.pointerId) return;
      const base = draftRef.current ?? layout;
      if (d.kind === 'move') {
        const target = dropTarget(ev.clientX, ev.clientY, id);
        if (!target) return;
        // Only a change of target moves the tile: reflowing tiles under a still pointer would otherwise flicker.
        const key = `${target.id}:${target.after}`;
        if (key === lastTarget) return;
        lastTarget = key;
        setDraftBoth(moveWidget(base, id, target.id, target.after));
      } else {
        const size = sizeFromDrag(d.start, ev.clientX - d.x, ev.clientY - d.y, metrics!);
        setDraftBoth(resizeWidget(base, id, size, fallback(id)));
      }
    };
    const finish = (commit: boolean) => {
      const d = drag.current;
      if (!d) return;
      d.cleanup();
      drag.current = undefined;
      const result = draftRef.current;
      if (commit && result) {
        void saveLayout(result);
        const tile = visibleTiles(result, offered).find((t) => t.id === id);
        const title = byId.get(id)?.title ?? id;
        if (tile) announce(kind === 'move' ? `${title} moved` : `${title}: ${describeSize(tile.size)}`);
      }
      setDraftBoth(undefined);
    };
    const onUp = (ev: PointerEvent) => { if (ev.pointerId === e.pointerId) finish(true); };
    const onCancel = (ev: PointerEvent) => { if (ev.pointerId === e.pointerId) finish(false); };
    handle.addEventListener('pointermove', onMove);
    handle.addEventListener('pointerup', onUp);
    handle.addEventListener('pointercancel', onCancel);
    handle.addEventListener('lostpointercapture', onUp as EventListener);
    drag.current = {
      kind, id, x: e.clientX, y: e.clientY, start, handle,
      cleanup: () => {
        handle.removeEventListener('pointermove', onMove);
        handle.removeEventListener('pointerup', onUp);
        handle.removeEventListener('pointercancel', onCancel);
        handle.removeEventListener('lostpointercapture', onUp as EventListener);
      },
    };
  };

  const handlers: TileHandlers = {
    onMoveStart: (e, id) => begin(e, id, 'move'),
    onResizeStart: (e, id) => begin(e, id, 'resize'),
    onMoveKey(e, id) {
      const delta = e.key === 'ArrowLeft' || e.key === 'ArrowUp' ? -1 : e.key === 'ArrowRight' || e.key === 'ArrowDown' ? 1
        : e.key === 'Home' ? -Infinity : e.key === 'End' ? Infinity : 0;
      if (!delta) return;
      e.preventDefault();
      const visible = tiles.map((t) => t.id);
      const from = visible.indexOf(id);
      const step = Number.isFinite(delta) ? delta : delta < 0 ? -from : visible.length - 1 - from;
      const next = moveBy(layout, visible, id, step);
      if (next === layout) return;
      void saveLayout(next);
      const place = visibleTiles(next, offered).findIndex((t) => t.id === id) + 1;
      announce(`${byId.get(id)?.title ?? id} moved to place ${place} of ${visible.length}`);
      focusHandle(id, 'move');
    },
    onResizeKey(e, id) {
      const current = tiles.find((t) => t.id === id)?.size ?? fallback(id);
      const size = sizeByKey(current, e.key);
      if (!size) return;
      e.preventDefault();
      if (size.w === current.w && size.h === current.h) return;
      void saveLayout(resizeWidget(layout, id, size, fallback(id)));
      announce(`${byId.get(id)?.title ?? id}: ${describeSize(size)}`);
      focusHandle(id, 'resize');
    },
    onRemove(id) {
      void saveLayout(hideWidget(layout, id));
      announce(`${byId.get(id)?.title ?? id} removed; Add a widget brings it back`);
    },
  };

  return (
    <>
      <ul ref={grid} class={`home-grid${editing ? ' home-grid-editing' : ''}`} aria-label="Widgets" data-columns={columns}>
        {tiles.map((t) => (
          <WidgetTile key={t.id} widget={byId.get(t.id)!} size={t.size} span={spanColumns(t.size, columns)} editing={editing}
            dragging={drag.current?.id === t.id} handlers={handlers} />
        ))}
      </ul>
      {editing && (
        <div class="sr-only">
          <p id="home-move-help">Arrow keys move the widget one place; Home and End move it to the start or the end.</p>
          <p id="home-resize-help">Left and right arrows change the width, up and down the height.</p>
        </div>
      )}
    </>
  );
}
