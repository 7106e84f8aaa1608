// A capture viewed in place: one decoded line per packet (GET /api/capturepackets), a page at a time.
import { useState } from 'preact/hooks';
import { ErrorState } from '../../components/error-state.js';
import { Loading } from '../../components/skeleton.js';
import { Table, type Column } from '../../components/table.js';
import { useResource } from '../../data/use-resource.js';
import { formatInteger } from '../../format/numbers.js';
import type { PacketPage, PacketRow } from './network-api.js';

const PAGE = 200;

const side = (addr: string | null, port: number | null) => (addr === null ? '—' : port === null ? addr : addr.includes(':') ? `[${addr}]:${port}` : `${addr}:${port}`);

function columns(first: number): Column<PacketRow>[] {
  return [
    { key: 'index', label: '#', align: 'end', value: (p) => p.index, render: (p) => String(p.index + 1) },
    { key: 'time', label: 'Time', value: (p) => p.time_us, render: (p) => `+${((p.time_us - first) / 1e6).toFixed(6)} s` },
    { key: 'from', label: 'From', card: 'top', value: (p) => p.src, render: (p) => <code>{side(p.src, p.src_port)}</code> },
    { key: 'to', label: 'To', value: (p) => p.dst, render: (p) => <code>{side(p.dst, p.dst_port)}</code> },
    { key: 'protocol', label: 'Protocol', card: 'lead', value: (p) => p.protocol },
    { key: 'length', label: 'Length', align: 'end', card: 'main', value: (p) => p.length, render: (p) => `${formatInteger(p.length)} B` },
    { key: 'info', label: 'Flags / info', sortable: false, value: (p) => p.tcp_flags ?? p.info, render: (p) => p.tcp_flags ?? p.info },
  ];
}

export function CaptureView({ name }: { name: string }) {
  const [offset, setOffset] = useState(0);
  const page = useResource<PacketPage>(`/api/capturepackets?name=${encodeURIComponent(name)}&offset=${offset}&limit=${PAGE}`, 'the packets');
  const data = page.data;
  const first = data?.packets[0]?.time_us ?? 0;
  return (
    <div class="capture-view">
      {page.error && <ErrorState error={page.error} onRetry={page.reload} compact />}
      {page.loading && !data && <Loading label="Decoding the capture" lines={4} />}
      {data && (
        <>
          <p class="muted">
            {data.total === 0 ? 'No packets were captured.' : `Packets ${formatInteger(offset + 1)}–${formatInteger(offset + data.packets.length)} of ${formatInteger(data.total)}`}
            {data.cut && ' · the last record is cut short'}{data.file_truncated && ' · the file is larger than the view reads'}
          </p>
          {data.total > 0 && <Table caption={`Packets of ${name}`} columns={columns(first)} rows={data.packets} rowKey={(p) => String(p.index)} />}
          {data.total > PAGE && (
            <div class="form-actions">
              <button type="button" class="button button-ghost button-small" disabled={offset === 0} onClick={() => setOffset(Math.max(0, offset - PAGE))}>Earlier</button>
              <button type="button" class="button button-ghost button-small" disabled={offset + PAGE >= data.total} onClick={() => setOffset(offset + PAGE)}>Later</button>
            </div>
          )}
        </>
      )}
    </div>
  );
}
