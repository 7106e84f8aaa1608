// How long the machine has been up, and which machine it is.
import { Detail, Figure, Pending } from '../../../home/widget-parts.js';
import type { WidgetProps } from '../../types.js';
import { useHostOverview } from './host-data.js';

/** The largest two units, short enough for the smallest tile: `3d 4h`, `5h 12m`, `37 min`, `45 s`. */
export function shortUptime(seconds: number): string {
  const s = Math.max(0, Math.floor(seconds));
  const d = Math.floor(s / 86_400);
  const h = Math.floor((s % 86_400) / 3600);
  const m = Math.floor((s % 3600) / 60);
  if (d) return `${d}d ${h}h`;
  if (h) return `${h}h ${m}m`;
  return m ? `${m} min` : `${s} s`;
}

export default function UptimeWidget({ size }: WidgetProps) {
  const { data, error } = useHostOverview();
  if (!data) return <Pending error={error} what="uptime" />;
  return (
    <>
      <Figure value={shortUptime(data.uptime_s)} />
      <Detail>{data.hostname}</Detail>
      {(size.h > 1 || size.w !== 1) && <Detail>{data.os} · {data.kernel} · {data.arch}</Detail>}
    </>
  );
}
