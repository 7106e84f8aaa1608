import { sparklineArea, sparklinePath } from './sparkline-path.js';

export interface SparklineProps {
  values: readonly (number | null)[];
  /** Points the width holds; the line fills from the right until there are as many. */
  slots: number;
  /** The top of the scale (100 for a share); the values' largest when they go higher or it is absent. */
  max?: number;
  /** A colour token, e.g. `--chart-1`. */
  color?: string;
  /** What the line shows, in words: the figure beside it already says the value, so this can be short. */
  label: string;
}

const W = 120;
/** Points the width holds at first: a minute of 2 s samples. */
const MIN_SLOTS = 30;
const H = 32;

/** A small live line of the last minutes (SVG, scaled to its box), for a figure of the overview. */
export function Sparkline({ values, slots, max, color = '--chart-1', label }: SparklineProps) {
  // The first minute spreads over the width, then the line grows to `slots` points: a line of three points at the
  // right edge of an empty box reads as a glitch.
  const line = sparklinePath(values, W, H, max, Math.min(slots, Math.max(MIN_SLOTS, values.length)));
  return (
    <svg class="sparkline" viewBox={`0 0 ${W} ${H}`} preserveAspectRatio="none" role="img" aria-label={label}
      style={{ color: `var(${color})` }}>
      {line && <path class="sparkline-area" d={sparklineArea(line, H)} />}
      {line && <path class="sparkline-line" d={line} vector-effect="non-scaling-stroke" />}
    </svg>
  );
}
