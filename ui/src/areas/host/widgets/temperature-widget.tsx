// The hottest sensor, on the host rule's scale (85 °C alerts).
import { Detail, Figure, Pending, Sparkline, useRecent } from '../../../home/widget-parts.js';
import type { WidgetProps } from '../../types.js';
import { useHostOverview } from './host-data.js';
import { LIMITS, alarmTone } from '../host-format.js';

export default function TemperatureWidget({ size }: WidgetProps) {
  const { data, error } = useHostOverview();
  const recent = useRecent(data?.temperature_c, data?.taken_at);
  if (!data) return <Pending error={error} what="temperature" />;
  const t = data.temperature_c;
  if (t === null) return <p class="widget-note">No readable sensor here: VMs and containers rarely have one.</p>;
  return (
    <>
      <Figure value={Math.round(t)} unit="°C" tone={alarmTone(t, LIMITS.temperature)} />
      <Detail>the hottest sensor</Detail>
      {(size.h > 1 || size.w !== 1) && <Sparkline values={recent} />}
    </>
  );
}
