// Traffic in and out over every interface but loopback, from the 2 s live reading; the busiest on a taller tile.
import { Detail, Figure, Pending, Sparkline, useRecent } from '../../../home/widget-parts.js';
import type { WidgetProps } from '../../types.js';
import { useHostLive } from './host-data.js';
import { formatByteRate, splitBytes } from '../host-format.js';

export default function NetworkWidget({ size }: WidgetProps) {
  const { data, error } = useHostLive();
  const rx = data?.network.reduce((s, i) => s + (i.rx_bps ?? 0), 0);
  const tx = data?.network.reduce((s, i) => s + (i.tx_bps ?? 0), 0);
  const recent = useRecent(rx === undefined || tx === undefined ? undefined : rx + tx, data?.taken_at);
  if (!data) return <Pending error={error} what="network" />;
  if (!data.network.length) return <p class="widget-note">No network interface besides loopback.</p>;
  const busiest = [...data.network].sort((a, b) => (b.rx_bps ?? 0) + (b.tx_bps ?? 0) - (a.rx_bps ?? 0) - (a.tx_bps ?? 0));
  return (
    <>
      <Figure value={`↓ ${splitBytes(rx).value}`} unit={`${splitBytes(rx).unit}/s`} label={`Download ${formatByteRate(rx)}`} />
      <Detail>↑ {formatByteRate(tx)} · {data.network.length} {data.network.length === 1 ? 'interface' : 'interfaces'}</Detail>
      {size.h > 1 && size.h < 3 && <Sparkline values={recent} />}
      {size.h >= 3 && (
        <ul class="widget-list" aria-label="Interfaces, busiest first">
          {busiest.slice(0, size.h * 2).map((i) => (
            <li key={i.name}><span>{i.name}</span><span>↓ {formatByteRate(i.rx_bps)} ↑ {formatByteRate(i.tx_bps)}</span></li>
          ))}
        </ul>
      )}
    </>
  );
}
