// How host actions are elevated here, and the password prompt when sudo needs one (plugins/privilege): the password
// goes to the server once, which checks it with sudo and holds it in memory for this session only. Shared by every
// Host page whose actions run through the privileged helper.
import { useState } from 'preact/hooks';
import { ErrorState } from '../../components/error-state.js';
import type { ApiError } from '../../data/api-error.js';
import { postJson } from '../../data/api.js';
import type { PrivilegeStatus } from '../../data/api.gen.js';
import { formatDateTime } from '../../format/time.js';

export interface PrivilegeCardProps {
  status: PrivilegeStatus | undefined;
  onChange(status: PrivilegeStatus): void;
}

/** Whether an action may be offered now: a method exists and no password is missing. */
export const canAct = (s: PrivilegeStatus | undefined): boolean => s !== undefined && s.method !== 'none' && !s.password_needed;

/** One line on how actions run, or the prompt for the password sudo needs. */
export function PrivilegeCard({ status, onChange }: PrivilegeCardProps) {
  const [password, setPassword] = useState('');
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<ApiError>();
  if (!status) return null;
  const unlock = async (e: Event) => {
    e.preventDefault();
    setBusy(true);
    setError(undefined);
    try {
      onChange(await postJson<PrivilegeStatus>('/api/privilege/unlock', { password }, { what: 'the password' }));
    } catch (err) {
      setError(err as ApiError);
    } finally {
      // Never kept in the page once sent.
      setPassword('');
      setBusy(false);
    }
  };
  const lock = async () => onChange(await postJson<PrivilegeStatus>('/api/privilege/lock', {}, { what: 'forgetting the password' }));
  if (status.method === 'none') {
    return <div class="privilege-note" role="note"><strong>Actions are off here.</strong> {status.note}</div>;
  }
  if (status.password_needed) {
    return (
      <form class="privilege-prompt" onSubmit={unlock} aria-describedby="privilege-why">
        <p id="privilege-why">Changes run with <code>sudo</code> as <strong>{status.user}</strong>. Enter that user's password once: it is checked at
          once, held in memory for this session only (forgotten after 15 minutes unused or at logout), and never stored or logged.</p>
        <div class="privilege-row">
          <label for="privilege-password">Password for {status.user}</label>
          <input id="privilege-password" class="input" type="password" autocomplete="current-password" required maxLength={1024}
            value={password} onInput={(e) => setPassword((e.target as HTMLInputElement).value)} />
          <button type="submit" class="button button-primary" disabled={busy || !password}>{busy ? 'Checking…' : 'Unlock'}</button>
        </div>
        {error && <ErrorState error={error} compact />}
      </form>
    );
  }
  return (
    <div class="privilege-note" role="note">
      {status.method === 'root' && <>Vigil runs as root: changes run directly, after you confirm each one.</>}
      {status.method === 'pkexec' && <>Changes run through <code>pkexec</code> (a polkit rule), after you confirm each one.</>}
      {status.method === 'sudo' && status.unlocked && (
        <>Unlocked for this session{status.expires_at && <> until {formatDateTime(Date.parse(status.expires_at))}</>}.{' '}
          <button type="button" class="button button-ghost button-small" onClick={() => void lock()}>Forget the password</button></>
      )}
      {status.method === 'sudo' && !status.unlocked && <>Changes run with <code>sudo</code> without a password (a NOPASSWD rule), after you confirm each one.</>}
    </div>
  );
}
