// Big files not opened for a long time: the clock (access or modification time) is the one the mount records, and
// the page says which. Nothing is deleted here.
import { useState } from 'preact/hooks';
import { Card } from '../../components/card.js';
import { ErrorState } from '../../components/error-state.js';
import { Table, type Column } from '../../components/table.js';
import { formatInteger } from '../../format/numbers.js';
import { formatAgo } from '../../format/time.js';
import { defaultFolder, filePageOf, useScan, type FilesSettings, type OldFileRow } from './files-api.js';
import { FolderField, NumberField } from './folder-field.js';
import { formatBytes } from './host-format.js';
import { ScanProgress } from './scan-progress.js';

export function OldFilesPanel({ settings }: { settings: FilesSettings }) {
  const [path, setPath] = useState(defaultFolder(settings));
  const [days, setDays] = useState(180);
  const [minMb, setMinMb] = useState(10);
  const run = useScan('the old files');
  const o = run.scan?.old_files;
  const clock = o?.clock ?? 'atime';
  const columns: Column<OldFileRow>[] = [
    { key: 'path', label: 'File', width: '55%', card: 'top', value: (r) => r.path, render: (r) => <a href={filePageOf(r.path)}><code>{r.path}</code></a> },
    { key: 'bytes', label: 'Size', align: 'end', card: 'lead', value: (r) => r.bytes, render: (r) => formatBytes(r.bytes) },
    {
      key: 'used', label: clock === 'atime' ? 'Last opened' : 'Last changed', card: 'main',
      value: (r) => (clock === 'atime' ? Math.max(r.atime_ms, r.mtime_ms) : r.mtime_ms),
      render: (r) => formatAgo(clock === 'atime' ? Math.max(r.atime_ms, r.mtime_ms) : r.mtime_ms),
    },
  ];
  return (
    <Card title="Big old files" description="Large files nobody opened for a long time, largest first. Nothing is deleted here.">
      <form class="scan-form" onSubmit={(e) => { e.preventDefault(); run.start({ kind: 'old-files', path, days, min_size: minMb * 1024 * 1024 }); }}>
        <FolderField label="Folder" value={path} onChange={setPath} />
        <NumberField label="Not used for" unit="days" value={days} min={1} onChange={setDays} />
        <NumberField label="At least" unit="MB" value={minMb} min={0} onChange={setMinMb} />
        <div class="form-actions"><button type="submit" class="button button-primary" disabled={run.running}>Find old files</button></div>
      </form>
      {run.error && <ErrorState error={run.error} compact />}
      {run.scan && <ScanProgress scan={run.scan} onCancel={run.cancel} extra={o ? `${formatInteger(o.matched)} old files` : undefined} />}
      {o && (
        <div class="scan-results">
          <p class="scan-summary">{formatInteger(o.matched)} files, {formatBytes(o.matched_bytes)}. <span class="muted">{o.clock_note}.</span></p>
          <Table caption="Big old files" columns={columns} rows={o.rows} rowKey={(r) => r.path} initialSort={{ key: 'bytes', direction: 'descending' }}
            empty={<p class="host-note">None so far.</p>} />
        </div>
      )}
    </Card>
  );
}
