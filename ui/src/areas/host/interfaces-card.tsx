// Per-interface rates in and out, with error and drop counters (GET /api/netio, every 3 s while visible).
import { Card } from '../../components/card.js';
import { ErrorState } from '../../components/error-state.js';
import { Loading } from '../../components/skeleton.js';
import { Table, type Column } from '../../components/table.js';
import { useWhileVisible } from '../../data/live.js';
import { useResource } from '../../data/use-resource.js';
import { formatInteger } from '../../format/numbers.js';
import { formatByteRate, formatBytes } from './host-format.js';
import type { InterfaceRateRow, InterfaceRates } from './network-api.js';

const REFRESH_MS = 3000;
const pps = (n: number | null) => (n === null ? '—' : `${n < 10 ? n.toFixed(1) : formatInteger(Math.round(n))}/s`);

const columns: Column<InterfaceRateRow>[] = [
  { key: 'name', label: 'Interface', card: 'top', value: (i) => i.name, render: (i) => <strong>{i.name}{i.loopback && <span class="muted"> (loopback)</span>}</strong> },
  { key: 'rx', label: 'In', align: 'end', card: 'lead', value: (i) => i.rx_bps, render: (i) => <span title={`${pps(i.rx_pps)} packets; ${formatBytes(i.rx_bytes)} since boot`}>{formatByteRate(i.rx_bps)}</span> },
  { key: 'tx', label: 'Out', align: 'end', card: 'main', value: (i) => i.tx_bps, render: (i) => <span title={`${pps(i.tx_pps)} packets; ${formatBytes(i.tx_bytes)} since boot`}>{formatByteRate(i.tx_bps)}</span> },
  { key: 'pps', label: 'Packets in / out', align: 'end', value: (i) => (i.rx_pps ?? 0) + (i.tx_pps ?? 0), render: (i) => `${pps(i.rx_pps)} / ${pps(i.tx_pps)}` },
  {
    key: 'errors', label: 'Errors in / out', align: 'end', value: (i) => i.rx_errors + i.tx_errors,
    render: (i) => <span class={i.new_errors ? 'network-alarm' : undefined} title={i.new_errors ? `${i.new_errors} new since the last reading` : undefined}>{formatInteger(i.rx_errors)} / {formatInteger(i.tx_errors)}</span>,
  },
  {
    key: 'drops', label: 'Drops in / out', align: 'end', value: (i) => i.rx_dropped + i.tx_dropped,
    render: (i) => <span class={i.new_drops ? 'network-alarm' : undefined} title={i.new_drops ? `${i.new_drops} new since the last reading` : undefined}>{formatInteger(i.rx_dropped)} / {formatInteger(i.tx_dropped)}</span>,
  },
];

export function InterfacesCard() {
  const io = useResource<InterfaceRates>('/api/netio', 'the interface rates');
  useWhileVisible(io.reload, REFRESH_MS);
  return (
    <Card padded={false} title="Interfaces" description="Rates over the last seconds; errors and drops are counted since boot (marked when they grew since the last reading).">
      {io.error && <ErrorState error={io.error} onRetry={io.reload} compact />}
      {io.loading && !io.data && <Loading label="Reading the interfaces" lines={3} />}
      {io.data && <Table caption="Interfaces" columns={columns} rows={io.data.interfaces} rowKey={(i) => i.name} />}
    </Card>
  );
}
