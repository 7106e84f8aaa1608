// The folder picker: the roots, then the sub-folders of the one open, and Up while still under a root. Only what
// GET /api/projectscripts lists can be picked, so nothing outside the roots is offered.
import type { ProjectScripts } from './projects-api.js';

export function FolderPicker({ listing, onOpen }: { listing: ProjectScripts; onOpen(dir: string | null): void }) {
  const { dir, parent, folders, folders_more: more, roots } = listing;
  const join = (name: string) => (dir ? `${dir.replace(/\/$/, '')}/${name}` : name);
  return (
    <nav class="folder-picker" aria-label="Folders">
      <p class="folder-current">{dir ? <code class="inline-code">{dir}</code> : <span class="muted">Projects may be picked from these folders:</span>}</p>
      <ul class="db-connection-list">
        {dir && (
          <li><button type="button" class="db-connection folder-up" onClick={() => onOpen(parent)}>{parent ? '↑ Up' : '↑ All roots'}</button></li>
        )}
        {(dir ? folders : roots).map((name) => (
          <li key={name}><button type="button" class="db-connection" onClick={() => onOpen(join(name))}><span class="db-connection-name">{name}</span></button></li>
        ))}
      </ul>
      {dir && folders.length === 0 && <p class="muted">No sub-folders.</p>}
      {more && <p class="muted">More folders than the 500 listed: type the path in the address (?dir=).</p>}
    </nav>
  );
}
