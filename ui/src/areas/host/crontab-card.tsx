// The user's crontab (GET /api/cron): its entries with each schedule in words, add, edit, disable (commented out),
// enable and delete, each a POST /api/cronsave of one line with the revision read, so a crontab changed meanwhile
// is never overwritten; and the whole file as cron reads it, comments and variables included.
import { useEffect, useState } from 'preact/hooks';
import { Badge } from '../../components/badge.js';
import { Card } from '../../components/card.js';
import { EmptyState } from '../../components/empty-state.js';
import { ErrorState } from '../../components/error-state.js';
import { Loading } from '../../components/skeleton.js';
import { Table, type Column } from '../../components/table.js';
import { postJson } from '../../data/api.js';
import type { ApiError } from '../../data/api-error.js';
import { useResource } from '../../data/use-resource.js';
import { announce } from '../../shell/announcer.js';
import { ConfirmAction } from '../alerts/confirm-action.js';
import { CronEntryForm, type CronDraft } from './cron-entry-form.js';
import type { CrontabLine, CrontabView } from './systools-api.js';

export function CrontabCard({ startAdding }: { startAdding: boolean }) {
  const cron = useResource<CrontabView>('/api/cron', 'the crontab');
  const [editing, setEditing] = useState<number | 'new' | null>(startAdding ? 'new' : null);
  // The palette's command may ask for the form while this page is already shown.
  useEffect(() => { if (startAdding) setEditing('new'); }, [startAdding]);
  const [error, setError] = useState<ApiError>();
  const c = cron.data;
  const save = async (change: Record<string, unknown>, done: string) => {
    setError(undefined);
    try {
      await postJson<CrontabView>('/api/cronsave', { revision: c!.revision, ...change }, { what: 'the crontab' });
      announce(done);
      setEditing(null);
      cron.reload();
    } catch (err) {
      setError(err as ApiError);
      throw err;
    }
  };
  if (cron.error) return <ErrorState error={cron.error} onRetry={cron.reload} />;
  if (!c) return <Card><Loading label="Reading the crontab" lines={5} /></Card>;
  if (!c.available) {
    return <Card title="Crontab"><EmptyState icon="settings" title="cron is not installed"><p>{c.note}</p></EmptyState></Card>;
  }
  const entries = c.lines.filter((l) => l.kind === 'entry' || l.kind === 'invalid');
  const columns: Column<CrontabLine>[] = [
    {
      key: 'when', label: 'When', width: '32%', card: 'top', value: (l) => l.line,
      render: (l) => (l.kind === 'invalid'
        ? <span class="unit-name"><Badge tone="danger">Not valid</Badge><span class="field-error">{l.error}</span></span>
        : <span class="unit-name"><span>{l.human}</span><code class="inline-code">{l.schedule}</code></span>),
    },
    { key: 'command', label: 'Command', card: 'main', value: (l) => l.command ?? l.raw, render: (l) => <code class="cron-command">{l.kind === 'entry' ? l.command : l.raw}</code> },
    { key: 'state', label: 'State', card: 'lead', value: (l) => (l.enabled ? 1 : 0), render: (l) => (l.kind !== 'entry' ? null : l.enabled ? <Badge tone="success">On</Badge> : <Badge title="Commented out with #">Off</Badge>) },
    {
      key: 'actions', label: 'Actions', sortable: false, value: () => '',
      render: (l) => (l.kind !== 'entry' ? null : (
        <div class="unit-actions">
          <button type="button" class="button button-secondary button-small" aria-label={`Edit line ${l.line + 1}`} onClick={() => setEditing(l.line)}>Edit</button>
          {l.enabled
            ? <ConfirmAction small label="Disable…" question={<>Disable <strong>{l.human}</strong>? The line is commented out with <code class="inline-code">#</code> and can be enabled again.</>} confirm="Disable" run={() => save({ op: 'disable', line: l.line }, 'The entry is disabled.')} />
            : <button type="button" class="button button-secondary button-small" onClick={() => { save({ op: 'enable', line: l.line }, 'The entry is enabled.').catch(() => {}); }}>Enable</button>}
          <ConfirmAction small label="Delete…" question={<>Delete the entry <code class="inline-code">{l.raw}</code>? Other lines stay as they are.</>} confirm="Delete" run={() => save({ op: 'delete', line: l.line }, 'The entry is deleted.')} />
        </div>
      )),
    },
  ];
  const editLine = typeof editing === 'number' ? c.lines[editing] : undefined;
  return (
    <div class="stack">
      <Card padded={false} title={`Crontab of ${c.user}`} description="Run by cron in that user's name; comments, variables and blank lines are kept exactly as they are"
        actions={editing === null && <button type="button" class="button button-secondary button-small" onClick={() => setEditing('new')}>Add a task</button>}>
        {editing !== null && (
          <div class="card-body-pad">
            <CronEntryForm key={String(editing)} title={editing === 'new' ? 'New scheduled task' : `Edit line ${editing + 1}`}
              initial={editLine ? { schedule: editLine.schedule ?? '', command: editLine.command ?? '' } : { schedule: '', command: '' }}
              onCancel={() => setEditing(null)}
              onSave={(d: CronDraft) => (editing === 'new' ? save({ op: 'add', ...d }, 'The task is added.') : save({ op: 'edit', line: editing, ...d }, 'The task is saved.'))} />
          </div>
        )}
        {error && <div class="card-body-pad"><ErrorState error={error} compact onRetry={cron.reload} /></div>}
        <Table caption="Crontab entries" columns={columns} rows={entries} rowKey={(l) => String(l.line)}
          empty={<EmptyState compact icon="plus" title="No scheduled task yet"><p>Add a task to run a command on a schedule, e.g. a backup every weekday at 03:00.</p></EmptyState>} />
      </Card>
      {c.lines.length > 0 && (
        <Card title="The file" description="As crontab -l prints it">
          <pre class="cron-file" tabIndex={0} aria-label="The crontab file">{c.lines.map((l) => <span key={l.line} class={`cron-file-line cron-file-${l.kind}`}><span class="cron-file-no" aria-hidden="true">{l.line + 1}</span>{l.raw || ' '}{'\n'}</span>)}</pre>
        </Card>
      )}
    </div>
  );
}
