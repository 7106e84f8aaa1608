// The SSH keys of ~/.ssh (GET /api/sshkeys): type, bits and SHA256 fingerprint as `ssh-keygen -lf` prints them,
// whether a passphrase protects the private key, and authorized_keys line by line with its options and comments; a
// form generates an ed25519 pair (POST /api/sshkeygen). No private key is ever sent here.
import { useEffect, useId, useState } from 'preact/hooks';
import { Badge } from '../../components/badge.js';
import { Card } from '../../components/card.js';
import { EmptyState } from '../../components/empty-state.js';
import { ErrorState } from '../../components/error-state.js';
import { PageHeader } from '../../components/page-header.js';
import { Loading } from '../../components/skeleton.js';
import { Table, type Column } from '../../components/table.js';
import { postJson } from '../../data/api.js';
import type { ApiError } from '../../data/api-error.js';
import { useResource } from '../../data/use-resource.js';
import { announce } from '../../shell/announcer.js';
import { here } from '../../shell/router.js';
import { readText } from '../../shell/url-state.js';
import type { AuthorizedRow, SshFolderView, SshKeyRow } from './systools-api.js';

const keyColumns: Column<SshKeyRow>[] = [
  {
    key: 'name', label: 'Key', width: '24%', card: 'top', value: (k) => k.name,
    render: (k) => <span class="unit-name"><code class="inline-code">{k.name}</code><span class="muted">{k.comment || 'no comment'}</span></span>,
  },
  { key: 'type', label: 'Type', card: 'lead', value: (k) => k.label ?? k.type ?? '', render: (k) => (k.label ? `${k.label} · ${k.bits} bits` : k.type ?? '—') },
  { key: 'fingerprint', label: 'Fingerprint', card: 'main', value: (k) => k.fingerprint ?? '', render: (k) => (k.fingerprint ? <code class="ssh-fingerprint">{k.fingerprint}</code> : <span class="field-error">{k.error ?? 'unknown'}</span>) },
  {
    key: 'private', label: 'Private key', value: (k) => (k.private_file ? (k.encrypted ? 2 : 1) : 0),
    render: (k) => (
      <span class="ssh-key-badges">
        {!k.private_file ? <Badge title="Only the .pub file is here">Public only</Badge>
          : k.encrypted ? <Badge tone="success">Passphrase</Badge>
          : k.encrypted === false ? <Badge tone="warning" title="Anyone who copies the file can use it">No passphrase</Badge> : <Badge>Private</Badge>}
        {k.loose_permissions && <Badge tone="danger" title="ssh refuses a private key others can read: chmod 600 it">Readable by others</Badge>}
      </span>
    ),
  },
];

const authorizedColumns: Column<AuthorizedRow>[] = [
  { key: 'line', label: 'Line', align: 'end', width: '4.5em', value: (l) => l.line, render: (l) => l.line },
  {
    key: 'key', label: 'Key', card: 'top', value: (l) => l.fingerprint ?? l.comment,
    render: (l) => (l.kind === 'comment' ? <span class="muted"># {l.comment}</span>
      : l.kind === 'invalid' ? <span class="field-error">{l.error}</span>
      : <span class="unit-name"><span>{l.comment || 'no comment'} <span class="muted">· {l.type} {l.bits}</span></span><code class="ssh-fingerprint">{l.fingerprint}</code></span>),
  },
  {
    key: 'options', label: 'Options', card: 'main', sortable: false, value: (l) => l.options.join(','),
    render: (l) => (l.options.length ? <span class="ssh-options">{l.options.map((o, i) => <code key={i} class="inline-code">{o}</code>)}</span> : null),
  },
];

function GenerateForm({ taken, onDone }: { taken: ReadonlySet<string>; onDone(): void }) {
  const id = useId();
  const [name, setName] = useState(taken.has('id_ed25519') ? '' : 'id_ed25519');
  const [comment, setComment] = useState('');
  const [passphrase, setPassphrase] = useState('');
  const [again, setAgain] = useState('');
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<ApiError>();
  const problem = !name.trim() ? 'Give the key a file name.'
    : taken.has(name.trim()) ? `${name.trim()} already exists: a new key never overwrites one.`
    : passphrase !== again ? 'The two passphrases differ.' : null;
  const submit = async () => {
    if (problem) return;
    setBusy(true);
    setError(undefined);
    try {
      await postJson('/api/sshkeygen', { name: name.trim(), comment, passphrase }, { what: 'the new key' });
      setPassphrase('');
      setAgain('');
      announce(`${name.trim()} is generated.`);
      onDone();
    } catch (err) {
      setError(err as ApiError);
    } finally {
      setBusy(false);
    }
  };
  return (
    <form id="generate" class="custom-form" aria-label="Generate an ed25519 key" onSubmit={(e) => { e.preventDefault(); void submit(); }}>
      <div class="custom-form-grid">
        <div class="field">
          <label class="field-label" for={`${id}-name`}>File name in ~/.ssh</label>
          <input id={`${id}-name`} class="input input-mono" maxLength={64} value={name} placeholder="id_ed25519_work" onInput={(e) => setName(e.currentTarget.value)} />
        </div>
        <div class="field">
          <label class="field-label" for={`${id}-comment`}>Comment</label>
          <input id={`${id}-comment`} class="input" maxLength={200} value={comment} placeholder="you@laptop" onInput={(e) => setComment(e.currentTarget.value)} />
        </div>
        <div class="field">
          <label class="field-label" for={`${id}-pass`}>Passphrase (optional)</label>
          <input id={`${id}-pass`} class="input" type="password" autoComplete="new-password" maxLength={1024} value={passphrase} onInput={(e) => setPassphrase(e.currentTarget.value)} />
        </div>
        <div class="field">
          <label class="field-label" for={`${id}-again`}>Passphrase again</label>
          <input id={`${id}-again`} class="input" type="password" autoComplete="new-password" maxLength={1024} value={again} onInput={(e) => setAgain(e.currentTarget.value)} />
        </div>
      </div>
      <p class={problem && name.trim() ? 'field-error' : 'field-hint'} role="status">
        {problem && name.trim() ? problem : passphrase ? 'The passphrase goes to ssh-keygen only: it is not stored or logged.' : 'Without a passphrase, anyone who copies the private key file can use it.'}
      </p>
      <div class="form-actions">
        <button type="submit" class="button button-primary" disabled={busy || problem !== null}>{busy ? 'Generating…' : 'Generate ed25519 key'}</button>
      </div>
      {error && <ErrorState error={error} compact />}
    </form>
  );
}

export default function SshKeysPage() {
  const folder = useResource<SshFolderView>('/api/sshkeys', 'the SSH keys');
  const asked = readText(here.value.search, 'generate') === '1';
  const [generating, setGenerating] = useState(asked);
  // The palette's command may open the form while this page is already shown.
  useEffect(() => { if (asked) setGenerating(true); }, [asked]);
  const f = folder.data;
  const taken = new Set(f ? f.keys.flatMap((k) => [k.name, k.private_file ?? '', (k.public_file ?? '').replace(/\.pub$/, '')]) : []);
  return (
    <>
      <PageHeader title="SSH keys" subtitle={<>The keys in <code class="inline-code">{f?.folder ?? '~/.ssh'}</code> with fingerprints as <code class="inline-code">ssh-keygen -lf</code> prints them, and who may log in through <code class="inline-code">authorized_keys</code>. Private keys never leave the server.</>} />
      {folder.error && <ErrorState error={folder.error} onRetry={folder.reload} />}
      {folder.loading && !f && <Card><Loading label="Reading ~/.ssh" lines={5} /></Card>}
      {f && (
        <div class="stack">
          <Card padded={false} title="Keys" description={f.truncated ? 'The first 200 files of the folder, by name' : `${f.keys.length} in ${f.folder}`}
            actions={!generating && <button type="button" class="button button-secondary button-small" onClick={() => setGenerating(true)}>Generate a key</button>}>
            {generating && <div class="card-body-pad"><GenerateForm taken={taken} onDone={() => { setGenerating(false); folder.reload(); }} /></div>}
            <Table caption="SSH keys" columns={keyColumns} rows={f.keys} rowKey={(k) => k.name} initialSort={{ key: 'name', direction: 'ascending' }}
              empty={<EmptyState compact icon="key" title={f.exists ? 'No keys in ~/.ssh' : 'There is no ~/.ssh yet'}><p>Generate an ed25519 key, then add its public half to a server's <code class="inline-code">authorized_keys</code> or to your Git host.</p></EmptyState>} />
          </Card>
          <Card padded={false} title="authorized_keys" description={f.authorized_keys.present ? 'Keys that may log in as this user, with their options and the file\'s comments' : 'No one can log in as this user with a key'}>
            {f.authorized_keys.truncated && <p class="field-hint card-body-pad">The file is larger than 1 MiB: its first MiB is shown.</p>}
            <Table caption="authorized_keys" columns={authorizedColumns} rows={f.authorized_keys.lines.filter((l) => l.kind !== 'blank')} rowKey={(l) => String(l.line)} initialSort={{ key: 'line', direction: 'ascending' }}
              empty={<EmptyState compact icon="key" title={f.authorized_keys.present ? 'authorized_keys is empty' : 'No authorized_keys file'}><p>To let a key log in here, append its <code class="inline-code">.pub</code> line to <code class="inline-code">~/.ssh/authorized_keys</code> (or use <code class="inline-code">ssh-copy-id</code> from the other machine).</p></EmptyState>} />
          </Card>
        </div>
      )}
    </>
  );
}
