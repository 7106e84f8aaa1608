// The terminal page's workspace: tabs of one to four panes (side by side or stacked), a folder for new shells, font
// zoom and fullscreen. Every pane is a shell of its own; closing a pane or a tab, or leaving the page, ends it.
import { useEffect, useRef, useState } from 'preact/hooks';
import { effectiveTheme } from '../../../shell/display-settings.js';
import type { PendingSession } from './pending-command.js';
import { TerminalPane } from './terminal-pane.js';
import {
  addTab, closePane, closeTab, renewPane, DEFAULT_FONT_SIZE, emptyLayout, FONT_SIZES, MAX_PANES_PER_TAB, MAX_TABS, selectTab, splitActive, zoom,
  type Layout,
} from './tab-layout.js';

const FONT_KEY = 'vigil.terminal.font-size';

function storedFontSize(): number {
  const n = Number(localStorage.getItem(FONT_KEY));
  return (FONT_SIZES as readonly number[]).includes(n) ? n : DEFAULT_FONT_SIZE;
}

export function TerminalWorkspace({ initialCwd, initialSession }: { initialCwd?: string; initialSession?: PendingSession }) {
  const [layout, setLayout] = useState<Layout>(() => addTab(emptyLayout(), initialCwd, initialSession));
  const [titles, setTitles] = useState<Record<string, string>>({});
  const [fontSize, setFontSize] = useState(storedFontSize);
  const [folder, setFolder] = useState(initialCwd ?? '');
  const [fullscreen, setFullscreen] = useState(false);
  const workspace = useRef<HTMLDivElement>(null);
  const theme = effectiveTheme.value;

  useEffect(() => { localStorage.setItem(FONT_KEY, String(fontSize)); }, [fontSize]);
  useEffect(() => {
    const sync = (): void => setFullscreen(document.fullscreenElement === workspace.current);
    document.addEventListener('fullscreenchange', sync);
    return () => document.removeEventListener('fullscreenchange', sync);
  }, []);

  const cwd = folder.trim() || undefined;
  const active = layout.tabs.find((t) => t.id === layout.active);
  const toggleFullscreen = (): void => {
    if (document.fullscreenElement) void document.exitFullscreen();
    else void workspace.current?.requestFullscreen().catch(() => setFullscreen((f) => !f));
  };
  const tabTitle = (id: string, i: number): string => titles[id] || `Shell ${i + 1}`;
  /** The tab list's keys (WAI-ARIA tabs): arrows move between tabs, Delete closes the focused one. */
  const onTabKey = (e: KeyboardEvent, id: string): void => {
    const i = layout.tabs.findIndex((t) => t.id === id);
    const to = e.key === 'ArrowRight' ? layout.tabs[i + 1] : e.key === 'ArrowLeft' ? layout.tabs[i - 1] : undefined;
    if (to) {
      e.preventDefault();
      setLayout((l) => selectTab(l, to.id));
      document.getElementById(`${to.id}-tab`)?.focus();
    } else if (e.key === 'Delete') {
      e.preventDefault();
      setLayout((l) => closeTab(l, id));
    }
  };

  return (
    <div class={`terminal-workspace${fullscreen ? ' terminal-workspace-full' : ''}`} ref={workspace}>
      <div class="terminal-toolbar">
        <div class="terminal-tabs">
          <div class="terminal-tablist" role="tablist" aria-label="Terminals">
            {layout.tabs.map((tab, i) => (
              // The × is for the mouse; the keyboard closes a tab with Delete, or a pane with its own Close button.
              <button type="button" role="tab" key={tab.id} id={`${tab.id}-tab`} aria-controls={`${tab.id}-panel`} aria-selected={tab.id === layout.active}
                tabIndex={tab.id === layout.active ? 0 : -1} class="terminal-tab" data-active={tab.id === layout.active}
                onClick={() => setLayout((l) => selectTab(l, tab.id))} onKeyDown={(e) => onTabKey(e, tab.id)}>
                <span class="terminal-tab-title">{tabTitle(tab.id, i)}{tab.panes.length > 1 ? ` (${tab.panes.length})` : ''}</span>
                <span class="terminal-tab-close" aria-hidden="true" title="Close tab"
                  onClick={(e) => { e.stopPropagation(); setLayout((l) => closeTab(l, tab.id)); }}>×</span>
              </button>
            ))}
          </div>
          <button type="button" class="button button-ghost button-small" onClick={() => setLayout((l) => addTab(l, cwd))}
            disabled={layout.tabs.length >= MAX_TABS}>+ New tab</button>
        </div>
        <div class="terminal-controls">
          <label class="terminal-folder">
            <span>Folder</span>
            <input class="input terminal-folder-input" value={folder} placeholder="~ (home)" spellcheck={false} autocomplete="off"
              onInput={(e) => setFolder((e.target as HTMLInputElement).value)} aria-describedby="terminal-folder-hint" />
          </label>
          <span id="terminal-folder-hint" class="sr-only">New tabs and splits open in this folder.</span>
          <button type="button" class="button button-secondary button-small" disabled={!active || active.panes.length >= MAX_PANES_PER_TAB}
            onClick={() => setLayout((l) => splitActive(l, 'row', cwd))}>Split right</button>
          <button type="button" class="button button-secondary button-small" disabled={!active || active.panes.length >= MAX_PANES_PER_TAB}
            onClick={() => setLayout((l) => splitActive(l, 'column', cwd))}>Split down</button>
          <div class="terminal-zoom" role="group" aria-label="Font size">
            <button type="button" class="button button-ghost button-small" title="Smaller text" onClick={() => setFontSize((s) => zoom(s, -1))}
              disabled={fontSize <= FONT_SIZES[0]}><span aria-hidden="true">A−</span><span class="sr-only">Smaller text</span></button>
            <span class="terminal-zoom-value" aria-live="polite">{fontSize}px</span>
            <button type="button" class="button button-ghost button-small" title="Larger text" onClick={() => setFontSize((s) => zoom(s, 1))}
              disabled={fontSize >= FONT_SIZES[FONT_SIZES.length - 1]}><span aria-hidden="true">A+</span><span class="sr-only">Larger text</span></button>
          </div>
          <button type="button" class="button button-secondary button-small" aria-pressed={fullscreen} onClick={toggleFullscreen}>
            {fullscreen ? 'Exit fullscreen' : 'Fullscreen'}
          </button>
        </div>
      </div>
      {layout.tabs.length === 0 && (
        <div class="terminal-none">
          <p>No terminal is open.</p>
          <button type="button" class="button button-primary" onClick={() => setLayout((l) => addTab(l, cwd))}>Open a terminal</button>
        </div>
      )}
      {layout.tabs.map((tab, i) => (
        <div key={tab.id} id={`${tab.id}-panel`} role="tabpanel" aria-labelledby={`${tab.id}-tab`} hidden={tab.id !== layout.active}
          class={`terminal-panes terminal-panes-${tab.direction}`} data-panes={tab.panes.length}>
          {tab.panes.map((pane, p) => (
            <TerminalPane key={pane.id} cwd={pane.cwd} command={pane.command} source={pane.source} fontSize={fontSize} theme={theme}
              visible={tab.id === layout.active} focused={tab.id === layout.active && p === tab.panes.length - 1}
              label={`${tabTitle(tab.id, i)}, pane ${p + 1}`}
              onTitle={(title) => setTitles((t) => (p === 0 && t[tab.id] !== title ? { ...t, [tab.id]: title } : t))}
              onClose={() => setLayout((l) => closePane(l, pane.id))}
              onReopen={() => setLayout((l) => renewPane(l, pane.id))} />
          ))}
        </div>
      ))}
    </div>
  );
}
