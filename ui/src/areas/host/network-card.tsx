import { Card } from '../../components/card.js';
import { formatInteger } from '../../format/numbers.js';
import { formatByteRate } from './host-format.js';
import type { LiveReading } from './host-api.js';
import { Sparkline } from './sparkline.js';
import { WINDOW_POINTS } from './live-host.js';

/** Traffic in and out of all interfaces (loopback aside), and each interface with its errors and drops since boot. */
export function NetworkCard({ now, rx, tx }: { now: LiveReading; rx: readonly (number | null)[]; tx: readonly (number | null)[] }) {
  const last = (l: readonly (number | null)[]) => l[l.length - 1] ?? null;
  const rows = [...now.network].sort((a, b) => a.name.localeCompare(b.name));
  return (
    <Card title="Network" description="All interfaces but loopback; errors and drops count since boot" class="host-card">
      <div class="host-pair">
        <div class="host-figure host-figure-small">
          <span class="host-figure-value">{formatByteRate(last(rx))}</span>
          <span class="host-figure-label">in</span>
          <Sparkline values={rx} slots={WINDOW_POINTS} color="--chart-2" label="Traffic in over the last five minutes" />
        </div>
        <div class="host-figure host-figure-small">
          <span class="host-figure-value">{formatByteRate(last(tx))}</span>
          <span class="host-figure-label">out</span>
          <Sparkline values={tx} slots={WINDOW_POINTS} color="--chart-4" label="Traffic out over the last five minutes" />
        </div>
      </div>
      {rows.length === 0 ? <p class="host-note">No network interface but loopback.</p> : (
        <div class="host-mini-wrap" role="region" aria-label="Network interfaces" tabIndex={0}>
          <table class="host-mini-table table-cards">
            <caption class="sr-only">Traffic, errors and drops per interface</caption>
            <thead>
              <tr><th scope="col">Interface</th><th scope="col" class="align-end">In</th><th scope="col" class="align-end">Out</th><th scope="col" class="align-end">Errors</th><th scope="col" class="align-end">Drops</th></tr>
            </thead>
            <tbody>
              {rows.map((i) => {
                const errors = i.rx_errors + i.tx_errors;
                const drops = i.rx_dropped + i.tx_dropped;
                return (
                  <tr key={i.name}>
                    <th scope="row"><code>{i.name}</code></th>
                    <td class="align-end numeric" data-label="In">{formatByteRate(i.rx_bps)}</td>
                    <td class="align-end numeric" data-label="Out">{formatByteRate(i.tx_bps)}</td>
                    <td class={`align-end numeric${errors ? ' tone-warning' : ''}`} data-label="Errors" title={`${formatInteger(i.rx_errors)} in, ${formatInteger(i.tx_errors)} out`}>{formatInteger(errors)}</td>
                    <td class="align-end numeric" data-label="Drops" title={`${formatInteger(i.rx_dropped)} in, ${formatInteger(i.tx_dropped)} out`}>{formatInteger(drops)}</td>
                  </tr>
                );
              })}
            </tbody>
          </table>
        </div>
      )}
    </Card>
  );
}
