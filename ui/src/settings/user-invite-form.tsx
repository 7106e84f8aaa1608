// Settings → Users → Invite: a local user (a first password, shown once) or a single sign-on user whose roles are
// set before their first sign-in.
import { useId, useState } from 'preact/hooks';
import { Card } from '../components/card.js';
import { ErrorState } from '../components/error-state.js';
import { Icon } from '../components/icon.js';
import type { ApiError } from '../data/api-error.js';
import { postJson } from '../data/api.js';
import type { CreatedUser } from '../data/api.gen.js';
import { announce } from '../shell/announcer.js';
import { INSTANCE_ROLES, type InstanceRole } from './user-roles.js';

export function UserInviteForm({ onInvited }: { onInvited(): void }) {
  const id = useId();
  const [email, setEmail] = useState('');
  const [source, setSource] = useState<'local' | 'oidc'>('local');
  const [role, setRole] = useState<string>('viewer');
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<ApiError>();
  const [created, setCreated] = useState<CreatedUser>();
  const submit = async (e: Event) => {
    e.preventDefault();
    setBusy(true);
    setError(undefined);
    try {
      const out = await postJson<CreatedUser>('/api/users', { email: email.trim(), source, instance_role: (role || null) as InstanceRole }, { what: 'inviting the user' });
      setCreated(out);
      setEmail('');
      announce(`${out.user.email} invited.`);
      onInvited();
    } catch (err) {
      setError(err as ApiError);
    } finally {
      setBusy(false);
    }
  };
  return (
    <Card title="Invite a user" description="Local users log in with their email and a password; single sign-on users with your identity provider, with the roles you set here.">
      <form class="invite-form" onSubmit={(e) => void submit(e)}>
        <div class="field field-grow">
          <label class="field-label" for={`${id}-email`}>Email</label>
          <input id={`${id}-email`} class="input" type="email" required value={email} autocomplete="off"
            onInput={(e) => setEmail((e.target as HTMLInputElement).value)} />
        </div>
        <div class="field">
          <label class="field-label" for={`${id}-source`}>Signs in with</label>
          <select id={`${id}-source`} class="input" value={source} onChange={(e) => setSource((e.target as HTMLSelectElement).value as 'local' | 'oidc')}>
            <option value="local">A password</option>
            <option value="oidc">Single sign-on</option>
          </select>
        </div>
        <div class="field">
          <label class="field-label" for={`${id}-role`}>Role on the instance</label>
          <select id={`${id}-role`} class="input" value={role} onChange={(e) => setRole((e.target as HTMLSelectElement).value)}>
            {INSTANCE_ROLES.map((r) => <option key={r.value} value={r.value}>{r.label}</option>)}
          </select>
        </div>
        <div class="form-actions">
          <button type="submit" class="button button-primary" disabled={busy}><Icon name="check" /> Invite</button>
        </div>
      </form>
      {error && <ErrorState error={error} compact />}
      {created?.password && (
        <div class="password-once" role="status">
          <p><strong>{created.user.email}</strong>'s first password, shown this once. Give it to them by a private channel; they log in at <code>/login</code>.</p>
          <code class="inline-code password-value">{created.password}</code>
        </div>
      )}
    </Card>
  );
}
