// The gateway's error rate in the last hour (5xx or no answer), on the one colour scale of error rates.
import { Detail, Figure, Pending, Sparkline } from '../../../home/widget-parts.js';
import { errorRateTone } from '../../../format/error-rate.js';
import { formatInteger, formatPercent } from '../../../format/numbers.js';
import type { WidgetProps } from '../../types.js';
import { useGatewayHour } from './gateway-overview.js';

export default function ErrorRateWidget({ size }: WidgetProps) {
  const { data, error } = useGatewayHour();
  if (!data) return <Pending error={error} what="the gateway's error rate" />;
  const tone = errorRateTone(data.error_rate);
  return (
    <>
      <Figure value={data.requests ? formatPercent(data.error_rate) : '—'} tone={tone === 'neutral' ? undefined : tone} />
      <Detail>{data.requests ? `${formatInteger(data.errors)} of ${formatInteger(data.requests)} failed in the last hour` : 'no requests in the last hour'}</Detail>
      {size.h > 1 && <Sparkline values={data.volume.map((p) => p.error_rate)} />}
    </>
  );
}
