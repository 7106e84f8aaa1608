// Adds a connection: a SQLite file under the allowed folders, or a PostgreSQL, MariaDB or MySQL server. The server opens it before it
// is saved, so a wrong path or login is said here. A password goes to the server once and is never shown again.
import { useId, useState } from 'preact/hooks';
import { ErrorState } from '../../../components/error-state.js';
import { Switch } from '../../../components/switch.js';
import type { ApiError } from '../../../data/api-error.js';
import { postJson } from '../../../data/api.js';
import type { ConnectionInput, DbConnection } from './db-api.js';

type Kind = ConnectionInput['kind'];
/** A server's usual port, filled in when the kind changes and the port is still another kind's default. */
const DEFAULT_PORT: Record<Exclude<Kind, 'sqlite'>, string> = { postgres: '5432', mysql: '3306' };

export function ConnectionForm({ roots, onAdded, onCancel }: { roots: string[]; onAdded(c: DbConnection): void; onCancel(): void }) {
  const [kind, setKind] = useState<Kind>('sqlite');
  const [f, setF] = useState({ name: '', path: '', host: '127.0.0.1', port: '5432', database: '', user: '', password: '' });
  const [ssl, setSsl] = useState(false);
  const [writable, setWritable] = useState(false);
  const [problem, setProblem] = useState<string>();
  const [error, setError] = useState<ApiError>();
  const [busy, setBusy] = useState(false);
  const id = useId();
  const set = (key: keyof typeof f) => (e: Event) => setF({ ...f, [key]: (e.currentTarget as HTMLInputElement).value });
  const field = (key: keyof typeof f, label: string, extra: Record<string, unknown> = {}) => (
    <div class="field">
      <label class="field-label" for={`${id}-${key}`}>{label}</label>
      <input id={`${id}-${key}`} class="input" value={f[key]} autocomplete="off" onInput={set(key)} {...extra} />
    </div>
  );
  const changeKind = (next: Kind) => {
    setKind(next);
    if (next !== 'sqlite' && Object.values(DEFAULT_PORT).includes(f.port)) setF({ ...f, port: DEFAULT_PORT[next] });
  };
  const save = async (e: Event) => {
    e.preventDefault();
    if (!f.name.trim()) return setProblem('Give the connection a name, e.g. app or billing-prod.');
    if (kind === 'sqlite' && !f.path.startsWith('/')) return setProblem(`The path is absolute, under ${roots.join(' or ') || 'an allowed folder'}.`);
    if (kind !== 'sqlite' && (!f.host.trim() || !f.database.trim() || !f.user.trim())) return setProblem('Host, database and user are needed.');
    const port = Number(f.port || (kind === 'sqlite' ? 0 : DEFAULT_PORT[kind]));
    if (kind !== 'sqlite' && !(Number.isInteger(port) && port > 0 && port < 65536)) return setProblem('The port is a number from 1 to 65535.');
    setProblem(undefined);
    setError(undefined);
    setBusy(true);
    try {
      const body: ConnectionInput = kind === 'sqlite'
        ? { name: f.name.trim(), kind, path: f.path.trim(), writable }
        : { name: f.name.trim(), kind, host: f.host.trim(), port, database: f.database.trim(), user: f.user.trim(), ssl, writable, ...(f.password ? { password: f.password } : {}) };
      onAdded(await postJson<DbConnection>('/api/db/connections', body, { what: 'the new connection' }));
    } catch (err) {
      setError(err as ApiError);
    } finally {
      setBusy(false);
    }
  };
  return (
    <form class="db-form" onSubmit={save} noValidate aria-label="Add a database connection">
      <div class="field-row">
        {field('name', 'Name', { placeholder: 'app' })}
        <div class="field">
          <label class="field-label" for={`${id}-kind`}>Kind</label>
          <select id={`${id}-kind`} class="input" value={kind} onChange={(e) => changeKind(e.currentTarget.value as Kind)}>
            <option value="sqlite">SQLite file</option>
            <option value="postgres">PostgreSQL</option>
            <option value="mysql">MariaDB / MySQL</option>
          </select>
        </div>
      </div>
      {kind === 'sqlite'
        ? (
          <div class="field">
            <label class="field-label" for={`${id}-path`}>Database file</label>
            <input id={`${id}-path`} class="input input-mono" value={f.path} autocomplete="off" placeholder={`${roots[0] ?? '/home/me'}/app.db`} aria-describedby={`${id}-path-hint`} onInput={set('path')} />
            <p class="field-hint" id={`${id}-path-hint`}>Files under {roots.length ? roots.join(', ') : 'the folders in dbbrowser.roots'} only.</p>
          </div>
        )
        : (
          <>
            <div class="field-row">
              {field('host', 'Host')}
              {field('port', 'Port', { inputMode: 'numeric' })}
            </div>
            <div class="field-row">
              {field('database', 'Database')}
              {field('user', 'User')}
            </div>
            <div class="field">
              <label class="field-label" for={`${id}-password`}>Password</label>
              <input id={`${id}-password`} class="input" type="password" value={f.password} autocomplete="new-password" aria-describedby={`${id}-password-hint`} onInput={set('password')} />
              <p class="field-hint" id={`${id}-password-hint`}>Optional. Stored encrypted on the server and never shown again.</p>
            </div>
            <Switch label="TLS" description="Connect with TLS (the server's certificate is not verified)." checked={ssl} onChange={setSsl} />
          </>
        )}
      <Switch label="Allow writes" description="Off: the database itself refuses every write. On: statements may change data, and each one is recorded in the audit log." checked={writable} onChange={setWritable} />
      {problem && <p class="field-error" role="alert">{problem}</p>}
      {error && <ErrorState error={error} compact />}
      <div class="form-actions">
        <button type="submit" class="button button-primary" disabled={busy}>{busy ? 'Checking…' : 'Add the connection'}</button>
        <button type="button" class="button button-ghost" onClick={onCancel}>Cancel</button>
      </div>
    </form>
  );
}
