// A page's zoom: the span dragged across any of its charts, shown on all of them until reset. It lives in the page
// (not in each chart) so that every chart of the page shows the same span, and a new range starts unzoomed.
import { useEffect, useState } from 'preact/hooks';
import { formatTick } from '../format/time.js';

export interface ChartZoom {
  zoom: readonly [number, number] | null;
  onZoom(span: [number, number]): void;
  reset(): void;
}

/** The zoom of a page's charts, cleared whenever `range` changes. */
export function useChartZoom(range: string): ChartZoom {
  const [zoom, setZoom] = useState<readonly [number, number] | null>(null);
  useEffect(() => setZoom(null), [range]);
  return { zoom, onZoom: (span) => setZoom(span), reset: () => setZoom(null) };
}

/** What the charts show while zoomed, and the way back; a hint to drag while not. */
export function ZoomNote({ zoom, stepMs }: { zoom: ChartZoom; stepMs: number }) {
  if (!zoom.zoom) return <p class="chart-zoom-hint muted">Drag across a chart to zoom in.</p>;
  const [from, to] = zoom.zoom;
  return (
    <div class="chart-zoom notice" role="status">
      Zoomed to {formatTick(from, stepMs)} – {formatTick(to, stepMs)}.{' '}
      <button type="button" class="link-button" onClick={zoom.reset}>Show the whole range</button>
    </div>
  );
}
