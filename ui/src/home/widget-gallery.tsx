// The gallery: every widget this installation offers that is not on the grid, found by typing, added with a click.
import { useEffect, useRef, useState } from 'preact/hooks';
import { Icon } from '../components/icon.js';
import { keepFocus } from '../shell/modal-focus.js';
import { matchesQuery, type OfferedDefinition } from './offered-widgets.js';
import { describeSize } from './widget-tile.js';

export function WidgetGallery({ open, widgets, onAdd, onClose }: {
  open: boolean;
  widgets: readonly OfferedDefinition[];
  onAdd(id: string): void;
  onClose(): void;
}) {
  const dialog = useRef<HTMLDialogElement>(null);
  const restore = useRef<(() => void) | undefined>(undefined);
  const [query, setQuery] = useState('');
  useEffect(() => {
    const d = dialog.current;
    if (!d) return;
    if (open && !d.open) {
      restore.current = keepFocus(d);
      setQuery('');
      d.showModal();
    } else if (!open && d.open) {
      d.close();
      restore.current?.();
      restore.current = undefined;
    }
  }, [open]);
  const found = widgets.filter((w) => matchesQuery(w, query));
  return (
    <dialog ref={dialog} class="sheet widget-gallery" aria-labelledby="gallery-title" onClose={onClose} onCancel={onClose}
      onClick={(e) => { if (e.target === dialog.current) onClose(); }}>
      <header class="sheet-header">
        <h2 id="gallery-title">Add a widget</h2>
        <button type="button" class="button button-ghost button-icon" aria-label="Close" onClick={onClose}><Icon name="close" /></button>
      </header>
      <div class="gallery-search">
        <label class="sr-only" for="gallery-query">Search widgets</label>
        <Icon name="search" />
        <input id="gallery-query" class="input" type="search" placeholder="Search widgets: cpu, disk, cost…" autocomplete="off"
          value={query} onInput={(e) => setQuery((e.target as HTMLInputElement).value)} />
      </div>
      {found.length ? (
        <ul class="gallery-list" aria-label="Widgets not on the grid">
          {found.map((w) => (
            <li key={w.id} class="gallery-item">
              <div class="gallery-text">
                <span class="gallery-title">{w.title}</span>
                <span class="gallery-meta">{w.area.title} · {describeSize(w.size)}</span>
                <span class="gallery-description">{w.description}</span>
              </div>
              <button type="button" class="button button-secondary" aria-label={`Add ${w.title}`} onClick={() => onAdd(w.id)}>
                <Icon name="plus" />Add
              </button>
            </li>
          ))}
        </ul>
      ) : (
        <p class="gallery-empty">
          {widgets.length ? `No widget matches "${query}". Try another word, or clear the search.` : 'Every widget is on the grid already. Remove one in edit mode to see it here.'}
        </p>
      )}
    </dialog>
  );
}
