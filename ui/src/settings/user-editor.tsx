// One user's access, edited in place: the instance role, the role in each project, disabling, ending the sessions,
// and a new password for a local user. Every change is checked and audited by the server.
import { useId, useState } from 'preact/hooks';
import { Badge } from '../components/badge.js';
import { Card } from '../components/card.js';
import { ErrorState } from '../components/error-state.js';
import type { ApiError } from '../data/api-error.js';
import { deleteJson, patchJson, postJson } from '../data/api.js';
import type { DashboardUserRecord, NewPassword } from '../data/api.gen.js';
import { announce } from '../shell/announcer.js';
import { INSTANCE_ROLES, PROJECT_ROLES, type InstanceRole, type ProjectRole } from './user-roles.js';

export function UserEditor({ user, onChanged, onClose }: { user: DashboardUserRecord; onChanged(): void; onClose(): void }) {
  const id = useId();
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<ApiError>();
  const [password, setPassword] = useState<string>();
  const [project, setProject] = useState('');
  const [projectRole, setProjectRole] = useState<ProjectRole>('member');
  const act = async (what: string, run: () => Promise<unknown>, done: string) => {
    setBusy(true);
    setError(undefined);
    try {
      await run();
      announce(done);
      onChanged();
    } catch (err) {
      setError(err as ApiError);
    } finally {
      setBusy(false);
    }
  };
  const path = `/api/users/${encodeURIComponent(user.id)}`;
  const patch = (body: Record<string, unknown>, done: string) => act('changing the user', () => patchJson(path, body, { what: 'changing the user' }), done);
  const grants = Object.entries(user.projects);
  return (
    <Card title={user.email} description={`${user.source === 'oidc' ? 'Signs in with single sign-on' : 'Signs in with a password'}${user.disabled ? ' · disabled' : ''}`}
      actions={<button type="button" class="button button-ghost" onClick={onClose}>Done</button>}>
      <div class="stack user-editor">
        <div class="setting-row">
          <div class="setting-text">
            <label class="setting-label" for={`${id}-instance`}>Role on the instance</label>
            <p class="setting-description">Applies to every project and to the gateway, host and alert pages.</p>
          </div>
          <select id={`${id}-instance`} class="input input-role" disabled={busy} value={user.instance_role ?? ''}
            onChange={(e) => void patch({ instance_role: ((e.target as HTMLSelectElement).value || null) as InstanceRole }, 'Role changed.')}>
            {INSTANCE_ROLES.map((r) => <option key={r.value} value={r.value}>{r.label}</option>)}
          </select>
        </div>
        <div>
          <h3 class="setting-label">Roles in projects</h3>
          <p class="setting-description">A project role raises the instance role in that project only.</p>
          {grants.length === 0 && <p class="setting-description">No project roles yet.</p>}
          <ul class="grant-list">
            {grants.map(([name, role]) => (
              <li key={name} class="grant-row">
                <code class="inline-code">{name}</code>
                <select class="input input-role" aria-label={`Role in ${name}`} disabled={busy} value={role}
                  onChange={(e) => void patch({ projects: { [name]: (e.target as HTMLSelectElement).value } }, `Role in ${name} changed.`)}>
                  {PROJECT_ROLES.map((r) => <option key={r} value={r}>{r}</option>)}
                </select>
                <button type="button" class="button button-ghost button-small" disabled={busy} aria-label={`Remove the role in ${name}`}
                  onClick={() => void patch({ projects: { [name]: null } }, `Role in ${name} removed.`)}>Remove</button>
              </li>
            ))}
          </ul>
          <form class="grant-add" onSubmit={(e) => { e.preventDefault(); if (project.trim()) void patch({ projects: { [project.trim()]: projectRole } }, `Role in ${project.trim()} set.`).then(() => setProject('')); }}>
            <div class="field field-grow">
              <label class="field-label" for={`${id}-project`}>Project</label>
              <input id={`${id}-project`} class="input" required value={project} placeholder="checkout" onInput={(e) => setProject((e.target as HTMLInputElement).value)} />
            </div>
            <div class="field">
              <label class="field-label" for={`${id}-project-role`}>Role</label>
              <select id={`${id}-project-role`} class="input input-role" value={projectRole} onChange={(e) => setProjectRole((e.target as HTMLSelectElement).value as ProjectRole)}>
                {PROJECT_ROLES.map((r) => <option key={r} value={r}>{r}</option>)}
              </select>
            </div>
            <button type="submit" class="button button-secondary" disabled={busy}>Add role</button>
          </form>
        </div>
        <div class="form-actions user-actions">
          <button type="button" class="button button-secondary" disabled={busy}
            onClick={() => void act('ending the sessions', () => deleteJson(`${path}/sessions`, { what: 'ending the sessions' }), `${user.email} is logged out everywhere.`)}>End sessions</button>
          {user.source === 'local' && (
            <button type="button" class="button button-secondary" disabled={busy}
              onClick={() => void act('making a new password', async () => setPassword((await postJson<NewPassword>(`${path}/password`, {}, { what: 'making a new password' })).password), 'New password made.')}>New password</button>
          )}
          <button type="button" class={`button ${user.disabled ? 'button-secondary' : 'button-secondary button-danger-text'}`} disabled={busy}
            onClick={() => void patch({ disabled: !user.disabled }, user.disabled ? `${user.email} enabled.` : `${user.email} disabled and logged out.`)}>
            {user.disabled ? 'Enable' : 'Disable'}
          </button>
          {user.disabled && <Badge tone="danger">disabled</Badge>}
        </div>
        {password && (
          <div class="password-once" role="status">
            <p>The new password, shown this once; {user.email} is logged out everywhere until they use it.</p>
            <code class="inline-code password-value">{password}</code>
          </div>
        )}
        {error && <ErrorState error={error} compact />}
      </div>
    </Card>
  );
}
