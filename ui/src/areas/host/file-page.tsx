// Host › Files: one file, by path (?path=): an image previewed, a text file in an editor whose save is atomic (the
// server writes a temporary file and renames it over the old one) and refused when the file changed meanwhile; and
// Move to trash, asked first.
import { useEffect, useId, useState } from 'preact/hooks';
import { Card } from '../../components/card.js';
import { EmptyState } from '../../components/empty-state.js';
import { ErrorState } from '../../components/error-state.js';
import { PageHeader } from '../../components/page-header.js';
import { Loading } from '../../components/skeleton.js';
import { postJson } from '../../data/api.js';
import type { ApiError } from '../../data/api-error.js';
import { useResource } from '../../data/use-resource.js';
import { formatInteger } from '../../format/numbers.js';
import { announce } from '../../shell/announcer.js';
import { here, navigate } from '../../shell/router.js';
import { readText } from '../../shell/url-state.js';
import { ConfirmAction } from '../alerts/confirm-action.js';
import { filePageOf, type TextFile, type TrashItem } from './files-api.js';
import { FolderField } from './folder-field.js';
import { formatBytes } from './host-format.js';

const IMAGE = /\.(png|jpe?g|gif|webp|bmp|ico|avif|svg)$/i;

function TextEditor({ path }: { path: string }) {
  const file = useResource<TextFile>(`/api/readfile?path=${encodeURIComponent(path)}`, 'the file');
  const [text, setText] = useState<string>();
  const [saved, setSaved] = useState<TextFile>();
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<ApiError>();
  const id = useId();
  const current = saved ?? file.data;
  useEffect(() => { setText(undefined); setSaved(undefined); setError(undefined); }, [path, file.data]);
  if (file.error) return <ErrorState error={file.error} onRetry={file.reload} />;
  if (!current) return <Loading label="Reading the file" lines={6} />;
  const value = text ?? current.text;
  const bytes = new TextEncoder().encode(value).length;
  const dirty = value !== current.text;
  const save = async () => {
    setBusy(true);
    setError(undefined);
    try {
      const answer = await postJson<TextFile>('/api/writefile', { path, text: value, expected_mtime_ms: current.mtime_ms }, { what: 'the save' });
      setSaved(answer);
      setText(undefined);
      announce(`${path} is saved.`);
    } catch (err) {
      setError(err as ApiError);
    } finally {
      setBusy(false);
    }
  };
  return (
    <Card title="Text" description={`${formatBytes(current.bytes)} on disk; the editor saves up to ${formatBytes(current.limit)}. A save replaces the file in one step, and is refused if it changed since it was read.`}>
      <label class="sr-only" for={id}>Contents of {path}</label>
      <textarea id={id} class="input input-mono file-editor" value={value} spellcheck={false} onInput={(e) => setText(e.currentTarget.value)} />
      <div class="form-actions">
        <button type="button" class="button button-primary" disabled={!dirty || busy || bytes > current.limit} onClick={() => void save()}>{busy ? 'Saving…' : 'Save'}</button>
        <button type="button" class="button button-ghost" disabled={!dirty || busy} onClick={() => setText(undefined)}>Discard changes</button>
        <span class="muted">{formatInteger(bytes)} bytes{bytes > current.limit ? ' (over the limit)' : ''}{dirty ? ' · unsaved' : ''}</span>
      </div>
      {error && <ErrorState error={error} compact onRetry={error.status === 409 ? file.reload : undefined} />}
    </Card>
  );
}

export default function FilePage() {
  const { search } = here.value;
  const path = readText(search, 'path');
  const [draft, setDraft] = useState(path);
  const [gone, setGone] = useState<TrashItem>();
  useEffect(() => { setDraft(path); setGone(undefined); }, [path]);
  const name = path.slice(path.lastIndexOf('/') + 1);
  return (
    <>
      <PageHeader title={name || 'Files'} subtitle={path ? path : 'Open a file by its path to preview or edit it.'} />
      <form class="scan-form" onSubmit={(e) => { e.preventDefault(); if (draft.trim()) navigate(filePageOf(draft.trim())); }}>
        <FolderField label="File" value={draft} onChange={setDraft} placeholder="/home/you/notes.txt" />
        <div class="form-actions"><button type="submit" class="button button-secondary">Open</button></div>
      </form>
      {!path && <EmptyState icon="search" title="No file chosen"><p>Pick one from the Storage page (folder sizes, duplicates, old files or a search), or type its path above.</p></EmptyState>}
      {path && gone && (
        <EmptyState icon="check" title="Moved to the trash">
          <p><code>{gone.path}</code> is in the trash as <strong>{gone.name}</strong>; restore it from Storage › Trash.</p>
        </EmptyState>
      )}
      {path && !gone && (
        <>
          <div class="toolbar">
            <ConfirmAction label="Move to trash…" question={<>Move <code>{path}</code> to the trash? It can be restored from Storage › Trash.</>} confirm="Move to trash"
              run={async () => { setGone(await postJson<TrashItem>('/api/trash', { path }, { what: 'moving to the trash' })); announce(`${name} is in the trash.`); }} />
          </div>
          {IMAGE.test(path)
            ? <Card title="Image"><img class="file-image" src={`/api/raw?path=${encodeURIComponent(path)}`} alt={`Preview of ${name}`} /></Card>
            : <TextEditor key={path} path={path} />}
        </>
      )}
    </>
  );
}
