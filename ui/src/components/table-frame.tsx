// The one frame every table of the dashboard sits in, and so the one place that decides what a table does on a
// narrow screen (below 600 px):
// - `cards`: each row becomes a small card whose cells wrap in lines (styles/table-cards.css), for lists whose rows
//   stand alone (requests, traces, versions, projects). Nothing scrolls sideways.
// - `scroll`: the table keeps its grid and scrolls sideways inside its own focusable region, for comparison tables
//   whose columns only mean something side by side. The first column stays in place, and a shadow on an edge says
//   that more of the table lies that way, so no column is ever cut off without a sign.
import type { ComponentChildren, RefObject } from 'preact';
import { useLayoutEffect, useRef } from 'preact/hooks';

export type TableLayout = 'cards' | 'scroll';

export interface TableFrameProps {
  /** Names the table: the region's label and the table's caption. */
  caption: string;
  /** More words for the caption only, after the label: how to read or use the table. */
  detail?: string;
  /** Shows the caption above the table (default: for screen readers only). */
  showCaption?: boolean;
  layout: TableLayout;
  /** The table's own class, for its page's styles. */
  class?: string;
  /** The region's extra class. */
  wrapClass?: string;
  /** The table's parts: colgroup, thead, tbody. */
  children: ComponentChildren;
}

/**
 * Marks the frame with `data-more-start` / `data-more-end` while the scroller hides part of the table on that side;
 * the CSS draws the shadows from them. Measured on scroll and whenever the scroller or the table changes size.
 */
function useScrollEdges(frame: RefObject<HTMLDivElement | null>, scroller: RefObject<HTMLDivElement | null>, active: boolean) {
  useLayoutEffect(() => {
    const outer = frame.current;
    const el = scroller.current;
    if (!active || !outer || !el) return;
    const measure = () => {
      const max = el.scrollWidth - el.clientWidth;
      // Sub-pixel widths leave a pixel of "overflow" that is not a hidden column.
      outer.toggleAttribute('data-more-start', max > 1 && el.scrollLeft > 1);
      outer.toggleAttribute('data-more-end', max > 1 && el.scrollLeft < max - 1);
    };
    measure();
    el.addEventListener('scroll', measure, { passive: true });
    const observer = typeof ResizeObserver === 'undefined' ? null : new ResizeObserver(measure);
    observer?.observe(el);
    if (el.firstElementChild) observer?.observe(el.firstElementChild);
    return () => {
      el.removeEventListener('scroll', measure);
      observer?.disconnect();
    };
  }, [active]);
}

export function TableFrame({ caption, detail, showCaption, layout, class: tableClass, wrapClass, children }: TableFrameProps) {
  const frame = useRef<HTMLDivElement>(null);
  const scroller = useRef<HTMLDivElement>(null);
  useScrollEdges(frame, scroller, layout === 'scroll');
  return (
    <div ref={frame} class={`table-frame table-frame-${layout}`} data-table-layout={layout}>
      <div ref={scroller} class={`table-wrap${wrapClass ? ` ${wrapClass}` : ''}`} role="region" aria-label={caption} tabIndex={0}>
        <table class={`table${layout === 'cards' ? ' table-cards' : ' table-scroll'}${tableClass ? ` ${tableClass}` : ''}`}>
          <caption class={showCaption ? 'table-caption' : 'sr-only'}>{detail ? `${caption}. ${detail}` : caption}</caption>
          {children}
        </table>
      </div>
    </div>
  );
}
