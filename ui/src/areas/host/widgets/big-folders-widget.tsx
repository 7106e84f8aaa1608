// The largest folders of the newest folder-size scan (Storage page), without starting one: a scan is work a person
// asks for, never a widget's refresh.
import { Pending } from '../../../home/widget-parts.js';
import type { StorageScan, StorageScans } from '../../../data/api.gen.js';
import { usePolled } from '../../../home/shared-poll.js';
import type { WidgetProps } from '../../types.js';
import { formatBytes } from '../host-format.js';

const EVERY_MS = 60_000;

function Newest({ id, rows }: { id: string; rows: number }) {
  const { data, error } = usePolled<StorageScan>(`/api/storage/scans/${id}`, EVERY_MS);
  if (!data?.folder) return <Pending error={error} what="the folder sizes" />;
  const folder = data.folder;
  return (
    <ul class="widget-list" aria-label={`Largest in ${folder.path}`}>
      {folder.children.slice(0, rows).map((c) => (
        <li key={c.path}><span title={c.path}>{c.name}{c.dir ? '/' : ''}</span><span>{formatBytes(c.bytes)}</span></li>
      ))}
    </ul>
  );
}

export default function BigFoldersWidget({ size }: WidgetProps) {
  const { data, error } = usePolled<StorageScans>('/api/storage/scans', EVERY_MS);
  if (!data) return <Pending error={error} what="the scans" />;
  const newest = data.scans.filter((s) => s.kind === 'sizes' && s.state === 'done').sort((a, b) => b.started_at.localeCompare(a.started_at))[0];
  if (!newest) return <p class="widget-note">No folder sizes counted lately. <a href="/host/storage">Count them on the Storage page</a>.</p>;
  return <Newest id={newest.id} rows={Math.max(2, size.h * 3)} />;
}
