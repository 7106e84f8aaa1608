import type { ComponentChildren } from 'preact';

export type Tone = 'neutral' | 'accent' | 'success' | 'warning' | 'danger';

export interface StatProps {
  label: string;
  value: ComponentChildren;
  /** A line under the value: what it is made of, or a comparison. */
  detail?: ComponentChildren;
  tone?: Tone;
}

/** One figure of a `Stats` row: a term and its value. */
export function Stat({ label, value, detail, tone = 'neutral' }: StatProps) {
  return (
    <div class={`stat stat-${tone}`}>
      <dt class="stat-label">{label}</dt>
      <dd class="stat-value">{value}</dd>
      {detail !== undefined && <dd class="stat-detail">{detail}</dd>}
    </div>
  );
}

/** A row of figures, as one description list. */
export function Stats({ label, children }: { label: string; children: ComponentChildren }) {
  return <dl class="stats" aria-label={label}>{children}</dl>;
}
