// A crontab entry being written: the schedule read back in words as it is typed (GET /api/cronschedule, the server's
// own parser, so the page and the save agree), a few common schedules one click away, and the command.
import { useEffect, useId, useState } from 'preact/hooks';
import { ErrorState } from '../../components/error-state.js';
import { getJson, isAbort } from '../../data/api.js';
import type { ApiError } from '../../data/api-error.js';
import type { ScheduleReading } from './systools-api.js';

const PRESETS: [string, string][] = [
  ['*/15 * * * *', 'Every 15 minutes'],
  ['0 * * * *', 'Hourly'],
  ['0 3 * * *', 'Daily at 03:00'],
  ['0 3 * * 1-5', 'Weekdays at 03:00'],
  ['0 4 * * 0', 'Sundays at 04:00'],
  ['@reboot', 'At boot'],
];

export interface CronDraft { schedule: string; command: string }

export function CronEntryForm({ initial, title, onSave, onCancel }: { initial: CronDraft; title: string; onSave(d: CronDraft): Promise<void>; onCancel(): void }) {
  const id = useId();
  const [draft, setDraft] = useState(initial);
  const [reading, setReading] = useState<ScheduleReading>();
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<ApiError>();
  useEffect(() => {
    if (!draft.schedule.trim()) return setReading(undefined);
    const controller = new AbortController();
    const timer = setTimeout(() => {
      getJson<ScheduleReading>(`/api/cronschedule?schedule=${encodeURIComponent(draft.schedule.trim())}`, { signal: controller.signal, what: 'the schedule' })
        .then(setReading, (err) => { if (!isAbort(err)) setReading(undefined); });
    }, 200);
    return () => { clearTimeout(timer); controller.abort(); };
  }, [draft.schedule]);
  const save = async () => {
    setBusy(true);
    setError(undefined);
    try {
      await onSave({ schedule: draft.schedule.trim(), command: draft.command.trim() });
    } catch (err) {
      setError(err as ApiError);
    } finally {
      setBusy(false);
    }
  };
  const invalid = reading && !reading.valid;
  return (
    <form class="custom-form" aria-label={title} onSubmit={(e) => { e.preventDefault(); void save(); }}>
      <div class="custom-form-grid">
        <div class="field">
          <label class="field-label" for={`${id}-schedule`}>Schedule</label>
          <input id={`${id}-schedule`} class="input input-mono" maxLength={200} value={draft.schedule} placeholder="m h dom mon dow, e.g. 0 3 * * 1-5"
            aria-describedby={`${id}-reading`} aria-invalid={invalid ? 'true' : undefined} onInput={(e) => setDraft({ ...draft, schedule: e.currentTarget.value })} />
        </div>
        <div class="field">
          <label class="field-label" for={`${id}-command`}>Command</label>
          <input id={`${id}-command`} class="input input-mono" maxLength={4096} value={draft.command} placeholder="/usr/local/bin/backup --all" onInput={(e) => setDraft({ ...draft, command: e.currentTarget.value })} />
        </div>
      </div>
      <div class="cron-presets" role="group" aria-label="Common schedules">
        {PRESETS.map(([s, label]) => <button key={s} type="button" class="button button-ghost button-small" onClick={() => setDraft({ ...draft, schedule: s })}>{label}</button>)}
      </div>
      <p id={`${id}-reading`} class={invalid ? 'field-error' : 'field-hint'} role="status">
        {!draft.schedule.trim() ? 'Five fields (minute, hour, day of month, month, day of week) or a word such as @daily.'
          : !reading ? '…' : reading.valid ? <>Runs <strong>{reading.human}</strong>.</> : reading.error}
      </p>
      <div class="form-actions">
        <button type="submit" class="button button-primary" disabled={busy || !draft.schedule.trim() || !draft.command.trim() || invalid}>{busy ? 'Saving…' : 'Save'}</button>
        <button type="button" class="button button-ghost" onClick={onCancel}>Cancel</button>
      </div>
      {error && <ErrorState error={error} compact />}
    </form>
  );
}
