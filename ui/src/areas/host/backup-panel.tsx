// The backup helper: folders copied to another drive on request, daily or weekly; only what changed is copied.
import { useEffect, useState } from 'preact/hooks';
import { Card } from '../../components/card.js';
import { ErrorState } from '../../components/error-state.js';
import { Loading } from '../../components/skeleton.js';
import { Segmented, type SegmentedOption } from '../../components/segmented.js';
import { Switch } from '../../components/switch.js';
import { getJson, postJson } from '../../data/api.js';
import type { ApiError } from '../../data/api-error.js';
import { useResource } from '../../data/use-resource.js';
import type { BackupSettings, BackupState } from '../../data/api.gen.js';
import { formatInteger } from '../../format/numbers.js';
import { formatAgo } from '../../format/time.js';
import { announce } from '../../shell/announcer.js';
import { FolderField } from './folder-field.js';
import { formatBytes } from './host-format.js';

type Schedule = BackupSettings['schedule'];
const SCHEDULES: SegmentedOption<Schedule>[] = [
  { value: 'off', label: 'On request', description: 'Only when you run it' },
  { value: 'daily', label: 'Daily' },
  { value: 'weekly', label: 'Weekly' },
];

export function BackupPanel() {
  const state = useResource<BackupState>('/api/backup', 'the backup settings');
  const [sources, setSources] = useState('');
  const [dest, setDest] = useState('');
  const [schedule, setSchedule] = useState<Schedule>('off');
  const [tidy, setTidy] = useState(false);
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<ApiError>();
  const [shown, setShown] = useState<BackupState>();
  useEffect(() => {
    if (!state.data) return;
    setShown(state.data);
    setSources(state.data.settings.sources.join('\n'));
    setDest(state.data.settings.dest);
    setSchedule(state.data.settings.schedule);
    setTidy(state.data.settings.tidy === true);
  }, [state.data]);
  const act = async (what: string, fn: () => Promise<BackupState>) => {
    setBusy(true);
    setError(undefined);
    try { setShown(await fn()); announce(what); } catch (err) { setError(err as ApiError); } finally { setBusy(false); }
  };
  const save = () => act('The backup settings are saved.', () => postJson<BackupState>('/api/backup', {
    sources: sources.split('\n').map((s) => s.trim()).filter(Boolean), dest: dest.trim(), schedule, tidy,
  }, { what: 'the backup settings' }));
  const run = () => act('The backup started.', () => postJson<BackupState>('/api/backuprun', {}, { what: 'the backup' }));
  // A run answers at once; its end is read every second while it runs.
  useEffect(() => {
    if (!shown?.running) return undefined;
    const timer = setTimeout(() => { getJson<BackupState>('/api/backup', { what: 'the backup' }).then(setShown, (err) => setError(err as ApiError)); }, 1000);
    return () => clearTimeout(timer);
  }, [shown]);
  const last = shown?.last;
  return (
    <Card title="Backup" description="Folders copied to another drive, on request or on a schedule. Each run copies only what changed since the last one.">
      {state.error && <ErrorState error={state.error} onRetry={state.reload} compact />}
      {state.loading && !state.data && <Loading label="Reading the backup settings" lines={3} />}
      {shown && (
        <form class="scan-form" onSubmit={(e) => { e.preventDefault(); void save(); }}>
          <div class="field field-grow">
            <label class="field-label" for="backup-sources">Folders to back up <span class="field-hint">(one per line)</span></label>
            <textarea id="backup-sources" class="input input-mono backup-sources" value={sources} spellcheck={false} onInput={(e) => setSources(e.currentTarget.value)} />
          </div>
          <FolderField label="Destination (another drive)" value={dest} onChange={setDest} placeholder="/media/usb" />
          <Segmented<Schedule> label="Schedule" options={SCHEDULES} value={schedule} onChange={setSchedule} />
          <Switch label="Tidy up weekly" description="Once a week, remove from the backup the copies of files you deleted. Off, the backup only grows (nothing deleted is lost)." checked={tidy} onChange={setTidy} />
          <div class="form-actions">
            <button type="submit" class="button button-secondary" disabled={busy}>Save</button>
            <button type="button" class="button button-primary" disabled={busy || shown.running || !shown.settings.sources.length || !shown.settings.dest} onClick={() => void run()}>{busy || shown.running ? 'Working…' : 'Back up now'}</button>
          </div>
        </form>
      )}
      {error && <ErrorState error={error} compact />}
      {shown && (
        <p class="scan-summary" role="status">
          {shown.running ? 'Backing up…' : last ? (last.ok ? `Last run ${formatAgo(Date.parse(last.at))}: ${formatInteger(last.copied)} files, ${formatBytes(last.bytes)} copied${last.removed ? `; ${formatInteger(last.removed)} copies of deleted files removed` : ''}.` : `The last run failed: ${last.error}`) : 'No backup has run yet.'}
          {shown.folder && <> Copies are in <code>{shown.folder}</code>; a host alert rule of kind backup on that folder warns when it gets old.</>}
        </p>
      )}
    </Card>
  );
}
