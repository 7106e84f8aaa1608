import type { ComponentChildren } from 'preact';
import type { Tone } from '../../components/stat.js';

export interface MeterProps {
  /** What is measured, e.g. `/home` or `Core 3`. */
  label: ComponentChildren;
  /** The share filled, 0..100; null draws an empty track. */
  percent: number | null;
  /** The figure at the right, e.g. `42%` or `12 GiB of 20 GiB`. */
  value: ComponentChildren;
  tone?: Tone;
  /** A line under the bar. */
  detail?: ComponentChildren;
  /** Narrow bar beside the label (per-core lists). */
  compact?: boolean;
}

/**
 * A labelled usage bar: the words carry the figure (the bar is drawn for the eye and hidden from assistive
 * technology, which reads the label and the value as text).
 */
export function Meter({ label, percent, value, tone = 'accent', detail, compact }: MeterProps) {
  const width = percent === null ? 0 : Math.max(0, Math.min(100, percent));
  return (
    <div class={`meter meter-${tone}${compact ? ' meter-compact' : ''}`}>
      <div class="meter-line">
        <span class="meter-label">{label}</span>
        <span class="meter-value">{value}</span>
      </div>
      <div class="meter-track" aria-hidden="true"><span class="meter-fill" style={{ width: `${width}%` }} /></div>
      {detail && <div class="meter-detail">{detail}</div>}
    </div>
  );
}
