// The first battery: charge, and whether it charges; offered only where /api/caps reports a battery.
import { Detail, Figure, Pending } from '../../../home/widget-parts.js';
import type { WidgetProps } from '../../types.js';
import { useHostOverview } from './host-data.js';
import { formatShare } from '../host-format.js';

export default function BatteryWidget(_: WidgetProps) {
  const { data, error } = useHostOverview();
  if (!data) return <Pending error={error} what="battery" />;
  const b = data.battery;
  if (!b) return <p class="widget-note">No battery is readable now.</p>;
  const low = !b.plugged && b.percent <= 15;
  return (
    <>
      <Figure value={formatShare(b.percent)} tone={low ? 'danger' : b.percent <= 30 && !b.plugged ? 'warning' : undefined} />
      <Detail>{b.charging ? 'charging' : b.plugged ? 'plugged in' : 'on battery'}</Detail>
    </>
  );
}
