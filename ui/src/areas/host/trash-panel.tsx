// The home trash (shared with the desktop's file manager): restore puts an item back where it was; deleting for
// good asks first.
import { useState } from 'preact/hooks';
import { Card } from '../../components/card.js';
import { ErrorState } from '../../components/error-state.js';
import { Loading } from '../../components/skeleton.js';
import { Table, type Column } from '../../components/table.js';
import { postJson } from '../../data/api.js';
import type { ApiError } from '../../data/api-error.js';
import { useResource } from '../../data/use-resource.js';
import { formatInteger } from '../../format/numbers.js';
import { announce } from '../../shell/announcer.js';
import { ConfirmAction } from '../alerts/confirm-action.js';
import type { TrashItem, TrashList } from './files-api.js';
import { formatBytes } from './host-format.js';

export function TrashPanel() {
  const trash = useResource<TrashList>('/api/trash', 'the trash');
  const [failed, setFailed] = useState<ApiError>();
  const act = async (route: string, item: TrashItem, said: string) => {
    setFailed(undefined);
    await postJson(route, { name: item.name }, { what: `${item.name}: ${route.endsWith('restore') ? 'restore' : 'delete'}` });
    announce(`${item.name} ${said}.`);
    trash.reload();
  };
  const columns: Column<TrashItem>[] = [
    { key: 'name', label: 'Item', width: '40%', card: 'top', value: (r) => r.name, render: (r) => <span><strong>{r.name}{r.dir ? '/' : ''}</strong><br /><code class="muted">{r.path}</code></span> },
    { key: 'bytes', label: 'Size', align: 'end', card: 'lead', value: (r) => r.bytes, render: (r) => (r.dir ? 'folder' : formatBytes(r.bytes)) },
    { key: 'deleted', label: 'Deleted', card: 'main', value: (r) => r.deleted_at, render: (r) => (r.deleted_at ? new Date(r.deleted_at).toLocaleString() : '—') },
    {
      key: 'actions', label: 'Actions', sortable: false, value: () => null,
      render: (r) => (
        <div class="row-actions">
          <button type="button" class="button button-secondary button-small" onClick={() => void act('/api/trash/restore', r, 'is restored').catch((e) => setFailed(e as ApiError))}>Restore</button>
          <ConfirmAction small label="Delete…" question={<>Delete <strong>{r.name}</strong> for good? It cannot be restored.</>} confirm="Delete for good"
            run={() => act('/api/trash/delete', r, 'is deleted')} />
        </div>
      ),
    },
  ];
  return (
    <Card title="Trash" description={trash.data ? `${trash.data.dir}: ${formatInteger(trash.data.total)} items, shared with the desktop's file manager.` : 'The home trash.'}>
      {trash.error && <ErrorState error={trash.error} onRetry={trash.reload} compact />}
      {failed && <ErrorState error={failed} compact />}
      {trash.loading && !trash.data && <Loading label="Reading the trash" lines={3} />}
      {trash.data && (
        <Table caption="Items in the trash" columns={columns} rows={trash.data.items} rowKey={(r) => r.name}
          initialSort={{ key: 'deleted', direction: 'descending' }} empty={<p class="host-note">The trash is empty. Files moved to it from the File page appear here.</p>} />
      )}
    </Card>
  );
}
