// The command palette (Ctrl+K, ⌘K on Apple): type to find a page, an action, or a record by its id. A modal
// dialog with a combobox over a listbox: the arrow keys move, Enter opens, Escape closes and focus returns.
import type { ComponentChild } from 'preact';
import { useEffect, useLayoutEffect, useMemo, useRef, useState } from 'preact/hooks';
import { areas, systemPages } from '../areas/index.js';
import type { CommandContext, RecordHit } from '../areas/types.js';
import { Icon } from '../components/icon.js';
import { isAbort } from '../data/api.js';
import { announce } from './announcer.js';
import { download } from './browser-actions.js';
import { settings } from './display-settings.js';
import { rankByQuery } from './fuzzy-match.js';
import { keepFocus } from './modal-focus.js';
import { openShortcuts, paletteOpen } from './overlays.js';
import { nameItems, paletteItems, type PaletteItem } from './palette-items.js';
import { navigate } from './router.js';
import { shellCommands } from './shell-commands.js';
import { isConfigured } from './shell-info.js';

/** Most results listed; a query narrows them. */
const MAX_RESULTS = 40;

interface Row {
  item: PaletteItem;
  positions: number[];
}

/** The title with the matched characters marked. */
function Highlighted({ text, positions }: { text: string; positions: number[] }) {
  if (positions.length === 0) return <>{text}</>;
  const marks = new Set(positions);
  const parts: ComponentChild[] = [];
  let run = '';
  let inMark = false;
  const flush = () => {
    if (run) parts.push(inMark ? <mark class="palette-match">{run}</mark> : run);
    run = '';
  };
  for (let i = 0; i < text.length; i++) {
    if (marks.has(i) !== inMark) {
      flush();
      inMark = !inMark;
    }
    run += text[i];
  }
  flush();
  return <>{parts}</>;
}

/** The names of every configured area (routes, projects, templates), loaded once each time the palette opens. */
function useNames(open: boolean): PaletteItem[] {
  const [names, setNames] = useState<PaletteItem[]>([]);
  useEffect(() => {
    if (!open) return;
    const controller = new AbortController();
    const sources = areas.filter((a) => a.names && isConfigured(a));
    void Promise.all(sources.map((a) => a.names!.load(controller.signal).catch((err) => {
      if (!isAbort(err)) announce(`Names of ${a.title} could not be loaded: ${(err as Error).message}`);
      return [];
    }))).then((found) => { if (!controller.signal.aborted) setNames(nameItems(found.flat())); });
    return () => controller.abort();
  }, [open]);
  return open ? names : [];
}

/** Looks the query up in every configured area that has a record search and recognises it. */
function useRecordSearch(query: string): { hits: RecordHit[]; searching: boolean } {
  const [state, setState] = useState<{ query: string; hits: RecordHit[]; searching: boolean }>({ query: '', hits: [], searching: false });
  useEffect(() => {
    const searches = areas.filter((a) => a.searchRecords && isConfigured(a) && a.searchRecords.matches(query));
    if (searches.length === 0) {
      setState({ query, hits: [], searching: false });
      return;
    }
    const controller = new AbortController();
    setState({ query, hits: [], searching: true });
    const timer = setTimeout(() => {
      Promise.all(searches.map((a) => a.searchRecords!.find(query, controller.signal).catch((err) => {
        if (!isAbort(err)) announce(`Record search in ${a.title} failed: ${(err as Error).message}`);
        return [] as RecordHit[];
      }))).then((found) => {
        if (!controller.signal.aborted) setState({ query, hits: found.flat(), searching: false });
      });
    }, 120);
    return () => {
      clearTimeout(timer);
      controller.abort();
    };
  }, [query]);
  return state.query === query ? state : { hits: [], searching: false };
}

export function CommandPalette() {
  const dialog = useRef<HTMLDialogElement>(null);
  const input = useRef<HTMLInputElement>(null);
  const list = useRef<HTMLDivElement>(null);
  const [query, setQuery] = useState('');
  const [active, setActive] = useState(0);
  const open = paletteOpen.value;
  const simpleMode = settings.value.simple_mode;

  const restoreFocus = useRef<(() => void) | undefined>(undefined);
  // A layout effect: the dialog opens and its input takes focus in the same task as the render that Ctrl+K caused,
  // so what is typed right after Ctrl+K lands in the search. A plain effect waits for a frame, and on a busy machine
  // the first keystrokes went to the page behind.
  useLayoutEffect(() => {
    const d = dialog.current;
    if (!d) return;
    if (open && !d.open) {
      setQuery('');
      setActive(0);
      restoreFocus.current = keepFocus(d);
      d.showModal();
      input.current?.focus();
    } else if (!open) {
      if (d.open) d.close();
      restoreFocus.current?.();
      restoreFocus.current = undefined;
    }
  }, [open]);

  const items = useMemo(
    () => (open ? paletteItems(areas, systemPages, { configured: isConfigured, simpleMode, shellCommands: shellCommands() }) : []),
    [open, simpleMode],
  );
  const records = useRecordSearch(open ? query.trim() : '');
  const names = useNames(open);
  const rows: Row[] = useMemo(() => {
    const found: Row[] = records.hits.map((hit) => ({
      item: { id: `record:${hit.id}`, title: hit.title, hint: hit.detail, group: 'Records', keywords: [], icon: 'record', action: { kind: 'navigate', path: hit.path } },
      positions: [],
    }));
    const ranked = query.trim()
      ? rankByQuery(query, [...items, ...names], (i) => i.title, (i) => i.keywords).map((r) => ({ item: r.item, positions: r.positions }))
      : items.map((item) => ({ item, positions: [] }));
    return [...found, ...ranked].slice(0, MAX_RESULTS);
  }, [items, names, query, records.hits]);

  useEffect(() => setActive(0), [query, records.hits]);
  useEffect(() => {
    list.current?.querySelector('[aria-selected="true"]')?.scrollIntoView({ block: 'nearest' });
  }, [active]);

  const context: CommandContext = {
    navigate: (path) => navigate(path),
    announce,
    openShortcuts,
    download,
  };
  const run = (row: Row | undefined) => {
    if (!row) return;
    // Closed now, before the page changes under it (the effect would close it a frame later).
    dialog.current?.close();
    paletteOpen.value = false;
    const { action } = row.item;
    if (action.kind === 'navigate') navigate(action.path);
    else void Promise.resolve(action.command.run(context)).catch((err) => announce(`${row.item.title} failed: ${(err as Error).message}`));
  };

  const onKeyDown = (e: KeyboardEvent) => {
    if (e.key === 'ArrowDown' || e.key === 'ArrowUp') {
      e.preventDefault();
      if (rows.length) setActive((a) => (a + (e.key === 'ArrowDown' ? 1 : -1) + rows.length) % rows.length);
    } else if (e.key === 'Enter') {
      e.preventDefault();
      run(rows[active]);
    }
  };

  const groups = (['Records', 'Pages', 'Names', 'Actions'] as const)
    .map((group) => ({ group, rows: rows.filter((r) => r.item.group === group) }))
    .filter((g) => g.rows.length > 0);
  const optionId = (row: Row) => `palette-${row.item.id.replace(/[^\w-]/g, '_')}`;
  const activeRow = rows[active];

  return (
    <dialog ref={dialog} class="palette" aria-label="Command palette" onClose={() => { paletteOpen.value = false; }}
      onCancel={() => { paletteOpen.value = false; }}
      onClick={(e) => { if (e.target === dialog.current) paletteOpen.value = false; }}>
      <div class="palette-search">
        <Icon name="search" class="palette-search-icon" />
        <input ref={input} class="palette-input" type="text" role="combobox" aria-expanded="true" aria-controls="palette-list"
          aria-autocomplete="list" aria-activedescendant={activeRow ? optionId(activeRow) : undefined} aria-label="Search pages, actions, names and records"
          placeholder="Search pages, actions, routes, projects and templates, or paste a record id…" value={query} autoComplete="off" spellcheck={false}
          onInput={(e) => setQuery((e.target as HTMLInputElement).value)} onKeyDown={onKeyDown} />
        <kbd class="palette-esc">Esc</kbd>
      </div>
      <div class="palette-list" id="palette-list" role="listbox" aria-label="Results" ref={list}>
        {groups.map(({ group, rows: groupRows }) => (
          <div role="group" aria-label={group} key={group} class="palette-group">
            <div class="palette-group-title" aria-hidden="true">{group}</div>
            {groupRows.map((row) => {
              const index = rows.indexOf(row);
              return (
                <div key={row.item.id} id={optionId(row)} role="option" aria-selected={index === active}
                  class={`palette-option${index === active ? ' palette-option-active' : ''}`}
                  onMouseMove={() => { if (index !== active) setActive(index); }} onClick={() => run(row)}>
                  {row.item.icon && <Icon name={row.item.icon} class="palette-option-icon" />}
                  <span class="palette-option-title"><Highlighted text={row.item.title} positions={row.positions} /></span>
                  {row.item.hint && <span class="palette-option-hint">{row.item.hint}</span>}
                  {row.item.shortcut && <kbd class="palette-option-kbd">{row.item.shortcut}</kbd>}
                </div>
              );
            })}
          </div>
        ))}
        {rows.length === 0 && !records.searching && (
          <p class="palette-empty">Nothing matches “{query}”. Try a page (overview, usage), an action (theme, log out), a route, a project, a template or a record id.</p>
        )}
        {records.searching && <p class="palette-empty" role="status">Looking up the record…</p>}
      </div>
      <div class="palette-footer" aria-hidden="true">
        <span><kbd>↑</kbd><kbd>↓</kbd> move</span>
        <span><kbd>↵</kbd> open</span>
        <span><kbd>esc</kbd> close</span>
        <span class="palette-footer-end"><kbd>?</kbd> shortcuts</span>
      </div>
    </dialog>
  );
}
