// What widgets are made of: a figure with its unit, a line under it, a sparkline of recent values, and the states
// before data (loading, an error that says what to do). Areas' widgets build from these so tiles look alike.
import type { ComponentChildren } from 'preact';
import { useRef } from 'preact/hooks';
import type { ApiError } from '../data/api-error.js';
import { Skeleton } from '../components/skeleton.js';

export type WidgetTone = 'danger' | 'warning' | 'success' | undefined;

/** The tile's main figure; `label` is what a screen reader says instead when the figure is terse (`↓ 1.5 KiB/s`). */
export function Figure({ value, unit, tone, label }: { value: ComponentChildren; unit?: string; tone?: WidgetTone; label?: string }) {
  const shown = <>{value}{unit && <span class="widget-figure-unit">{unit}</span>}</>;
  return (
    <p class={`widget-figure${tone ? ` widget-${tone}` : ''}`}>
      {label ? <><span aria-hidden="true">{shown}</span><span class="sr-only">{label}</span></> : shown}
    </p>
  );
}

export function Detail({ children }: { children: ComponentChildren }) {
  return <p class="widget-detail">{children}</p>;
}

/** The states before data: a skeleton, or the error with its next step. Renders nothing once there is data. */
export function Pending({ error, what }: { error: ApiError | undefined; what: string }) {
  if (error) return <p class="widget-note widget-note-error" role="alert">{what}: {error.message}</p>;
  return (
    <div role="status">
      <span class="sr-only">Loading {what}</span>
      <Skeleton height={30} width="60%" />
    </div>
  );
}

/** The last `max` values of a figure, one per new reading (keyed by when it was read, so re-renders do not add). */
export function useRecent(value: number | null | undefined, at: unknown, max = 60): number[] {
  const ring = useRef<{ at: unknown; values: number[] }>({ at: undefined, values: [] });
  if (at !== undefined && at !== ring.current.at && typeof value === 'number' && Number.isFinite(value)) {
    ring.current = { at, values: [...ring.current.values, value].slice(-max) };
  }
  return ring.current.values;
}

/** A line of recent values, scaled to `max` (or their own peak); decorative: the figure above says the value. */
export function Sparkline({ values, max }: { values: readonly number[]; max?: number }) {
  if (values.length < 2) return <div class="widget-spark" aria-hidden="true" />;
  const top = max ?? Math.max(...values, 1e-9);
  const step = 100 / (values.length - 1);
  const y = (v: number) => (30 - (Math.min(v, top) / top) * 28 - 1).toFixed(2);
  const line = values.map((v, i) => `${i ? 'L' : 'M'}${(i * step).toFixed(2)} ${y(v)}`).join(' ');
  return (
    <svg class="widget-spark" viewBox="0 0 100 30" preserveAspectRatio="none" aria-hidden="true" focusable="false">
      <path class="widget-spark-area" d={`${line} L100 30 L0 30 Z`} />
      <path d={line} />
    </svg>
  );
}
