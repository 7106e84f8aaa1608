// Folder sizes, ncdu-style: the children of a folder largest first, growing while they are counted; once the scan
// ends, a folder opens from the tree the server kept (no new walk), and Up goes back.
import { useEffect, useState } from 'preact/hooks';
import { Card } from '../../components/card.js';
import { ErrorState } from '../../components/error-state.js';
import { Table, type Column } from '../../components/table.js';
import { getJson } from '../../data/api.js';
import type { ApiError } from '../../data/api-error.js';
import { formatInteger } from '../../format/numbers.js';
import { defaultFolder, filePageOf, useScan, type FilesSettings, type Folder, type FolderRow } from './files-api.js';
import { formatBytes } from './host-format.js';
import { ScanProgress } from './scan-progress.js';
import { FolderField } from './folder-field.js';

export function FolderSizesPanel({ settings }: { settings: FilesSettings }) {
  const [path, setPath] = useState(defaultFolder(settings));
  const run = useScan('the folder sizes');
  const [open, setOpen] = useState<Folder>();
  const [error, setError] = useState<ApiError>();
  const scan = run.scan;
  const done = scan?.state === 'done' || (scan?.state === 'failed');
  useEffect(() => { setOpen(undefined); setError(undefined); }, [scan?.id]);
  const folder = open ?? scan?.folder;
  const root = scan?.roots[0];

  const openFolder = (p: string) => {
    if (!scan) return;
    if (p === root) { setOpen(undefined); return; }
    getJson<Folder>(`/api/storage/scans/${scan.id}/folder?path=${encodeURIComponent(p)}`, { what: 'the folder' }).then(setOpen, (e) => setError(e as ApiError));
  };
  const parent = folder && root && folder.path !== root ? folder.path.slice(0, folder.path.lastIndexOf('/')) || '/' : undefined;

  const columns: Column<FolderRow>[] = [
    {
      key: 'name', label: 'Name', width: '46%', card: 'top', value: (r) => r.name,
      render: (r) => r.dir && folder?.complete
        ? <button type="button" class="link-button" onClick={() => openFolder(r.path)}>{r.name}/</button>
        : r.dir ? <span>{r.name}/</span> : <a href={filePageOf(r.path)}>{r.name}</a>,
    },
    { key: 'bytes', label: 'Size', align: 'end', card: 'lead', value: (r) => r.bytes, render: (r) => formatBytes(r.bytes) },
    {
      key: 'share', label: 'Share', card: 'main', value: (r) => r.bytes, sortable: false,
      render: (r) => {
        const pct = folder && folder.bytes > 0 ? (r.bytes / folder.bytes) * 100 : 0;
        return (
          <span class="share">
            <span class="share-track" aria-hidden="true"><span class="share-fill" style={{ width: `${pct}%` }} /></span>
            <span class="share-text">{pct.toFixed(1)}%</span>
          </span>
        );
      },
    },
    { key: 'files', label: 'Files', align: 'end', value: (r) => r.files, render: (r) => (r.files === null ? '—' : formatInteger(r.files)) },
  ];

  return (
    <Card title="Folder sizes" description="Disk usage of each folder below the one you choose, largest first, as it is counted. It stays on that folder's filesystem and never follows links.">
      <form class="scan-form" onSubmit={(e) => { e.preventDefault(); run.start({ kind: 'sizes', path }); }}>
        <FolderField label="Folder" value={path} onChange={setPath} />
        <div class="form-actions"><button type="submit" class="button button-primary" disabled={run.running}>Count sizes</button></div>
      </form>
      {run.error && <ErrorState error={run.error} compact />}
      {scan && <ScanProgress scan={scan} onCancel={run.cancel} />}
      {error && <ErrorState error={error} compact />}
      {folder && (
        <div class="scan-results">
          <div class="folder-head">
            {parent && done && <button type="button" class="button button-secondary button-small" onClick={() => openFolder(parent)}>Up</button>}
            <p><code>{folder.path}</code>: {formatBytes(folder.bytes)}{folder.files !== null ? ` in ${formatInteger(folder.files)} files` : ''}{folder.other.count > 0 ? ` (${formatInteger(folder.other.count)} smaller files not listed)` : ''}</p>
          </div>
          <Table caption={`Sizes in ${folder.path}`} columns={columns} rows={folder.children} rowKey={(r) => r.path}
            initialSort={{ key: 'bytes', direction: 'descending' }} empty={<p class="host-note">Nothing counted here yet.</p>} />
        </div>
      )}
    </Card>
  );
}
