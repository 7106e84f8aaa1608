// Whole-system filename search: text anywhere in a name, or a regular expression (JavaScript syntax) that runs in
// the scan's worker thread, where one that backtracks without end is stopped at the budget.
import { useId, useState } from 'preact/hooks';
import { Card } from '../../components/card.js';
import { ErrorState } from '../../components/error-state.js';
import { Table, type Column } from '../../components/table.js';
import { formatInteger } from '../../format/numbers.js';
import { formatAgo } from '../../format/time.js';
import { filePageOf, useScan, type FilesSettings, type HitRow } from './files-api.js';
import { FolderField } from './folder-field.js';
import { formatBytes } from './host-format.js';
import { ScanProgress } from './scan-progress.js';

const columns: Column<HitRow>[] = [
  { key: 'path', label: 'Path', width: '60%', card: 'top', value: (r) => r.path, render: (r) => (r.dir ? <code>{r.path}/</code> : <a href={filePageOf(r.path)}><code>{r.path}</code></a>) },
  { key: 'bytes', label: 'Size', align: 'end', card: 'lead', value: (r) => (r.dir ? null : r.bytes), render: (r) => (r.dir ? 'folder' : formatBytes(r.bytes)) },
  { key: 'mtime', label: 'Changed', card: 'main', value: (r) => r.mtime_ms, render: (r) => (r.mtime_ms ? formatAgo(r.mtime_ms) : '—') },
];

export function FileSearchPanel({ settings }: { settings: FilesSettings }) {
  const [q, setQ] = useState('');
  const [regex, setRegex] = useState(false);
  const [path, setPath] = useState('');
  const run = useScan('the search');
  const id = useId();
  const hits = run.scan?.hits;
  return (
    <Card title="Find files" description={`Names anywhere under ${settings.scan_roots.join(', ')} (kernel filesystems left out), never following links; at most 500 results.`}>
      <form class="scan-form" onSubmit={(e) => { e.preventDefault(); if (q.trim()) run.start({ kind: 'search', q, regex, ...(path.trim() ? { path: path.trim() } : {}) }); }}>
        <div class="field field-grow">
          <label class="field-label" for={id}>Name contains</label>
          <input id={id} class="input input-mono" value={q} maxLength={256} spellcheck={false} autocomplete="off" placeholder={regex ? '\\.(iso|img)$' : 'report'}
            onInput={(e) => setQ(e.currentTarget.value)} />
        </div>
        <FolderField label="Only under (optional)" value={path} onChange={setPath} placeholder={settings.scan_roots[0]} />
        <label class="check-field"><input type="checkbox" checked={regex} onChange={(e) => setRegex(e.currentTarget.checked)} /> Regular expression</label>
        <div class="form-actions"><button type="submit" class="button button-primary" disabled={run.running || !q.trim()}>Search</button></div>
      </form>
      {run.error && <ErrorState error={run.error} compact />}
      {run.scan && <ScanProgress scan={run.scan} onCancel={run.cancel} extra={hits ? `${formatInteger(hits.length)} found` : undefined} />}
      {hits && (
        <div class="scan-results">
          <Table caption="Files found" columns={columns} rows={hits} rowKey={(r) => r.path} empty={<p class="host-note">No name matches yet.</p>} />
        </div>
      )}
    </Card>
  );
}
