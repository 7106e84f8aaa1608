// Requests through the gateway in the last hour, with their per-minute volume.
import { Detail, Figure, Pending, Sparkline } from '../../../home/widget-parts.js';
import { formatCompact, formatRate } from '../../../format/numbers.js';
import type { WidgetProps } from '../../types.js';
import { useGatewayHour } from './gateway-overview.js';

export default function RequestsWidget({ size }: WidgetProps) {
  const { data, error } = useGatewayHour();
  if (!data) return <Pending error={error} what="gateway requests" />;
  const minutes = Math.max(1, (data.to - data.from) / 60_000);
  return (
    <>
      <Figure value={formatCompact(data.requests)} />
      <Detail>{data.requests ? `${formatRate(data.requests / minutes)} in the last hour` : 'none in the last hour'}</Detail>
      {size.h > 1 && <Sparkline values={data.volume.map((p) => p.requests)} />}
    </>
  );
}
