// The terminal page's tabs and splits as data: pure functions over an immutable layout, so the page's behaviour is
// tested without a browser. Each pane is one shell; a tab holds one to four panes, side by side or stacked.

export interface PaneSpec {
  id: string;
  /** The folder it opened in; undefined for the home directory. */
  cwd?: string;
  /** A command line typed in as the shell's first line (an engine's CLI exec, from the Containers page). */
  command?: string;
  /** A session of a terminal source instead of a login shell (a container's exec through its engine's API). */
  source?: { name: string; target: string };
}

export interface TabSpec {
  id: string;
  panes: PaneSpec[];
  /** `row`: side by side; `column`: stacked. */
  direction: 'row' | 'column';
}

export interface Layout {
  tabs: TabSpec[];
  /** The tab on screen; '' when there is none. */
  active: string;
}

export const MAX_TABS = 8;
export const MAX_PANES_PER_TAB = 4;

let counter = 0;
/** A new id, unique in this page's lifetime. */
export const nextId = (prefix: string): string => `${prefix}${++counter}`;

export const emptyLayout = (): Layout => ({ tabs: [], active: '' });

/** A new tab with one pane, made the active one; unchanged at MAX_TABS. */
export function addTab(layout: Layout, cwd?: string, session?: { command?: string; source?: { name: string; target: string } }): Layout {
  if (layout.tabs.length >= MAX_TABS) return layout;
  const tab: TabSpec = { id: nextId('tab'), panes: [{ id: nextId('pane'), cwd, ...session }], direction: 'row' };
  return { tabs: [...layout.tabs, tab], active: tab.id };
}

/** One pane more in the active tab, laid out in `direction`; unchanged at MAX_PANES_PER_TAB or without a tab. */
export function splitActive(layout: Layout, direction: 'row' | 'column', cwd?: string): Layout {
  const tab = layout.tabs.find((t) => t.id === layout.active);
  if (!tab || tab.panes.length >= MAX_PANES_PER_TAB) return layout;
  const next: TabSpec = { ...tab, direction, panes: [...tab.panes, { id: nextId('pane'), cwd }] };
  return { ...layout, tabs: layout.tabs.map((t) => (t === tab ? next : t)) };
}

/** Removes a pane; its tab goes with its last pane, and the neighbour becomes active. */
export function closePane(layout: Layout, paneId: string): Layout {
  const tab = layout.tabs.find((t) => t.panes.some((p) => p.id === paneId));
  if (!tab) return layout;
  if (tab.panes.length > 1) {
    const next = { ...tab, panes: tab.panes.filter((p) => p.id !== paneId) };
    return { ...layout, tabs: layout.tabs.map((t) => (t === tab ? next : t)) };
  }
  return closeTab(layout, tab.id);
}

/** Removes a tab and its panes; the tab before it (or after, for the first) becomes active. */
export function closeTab(layout: Layout, tabId: string): Layout {
  const index = layout.tabs.findIndex((t) => t.id === tabId);
  if (index < 0) return layout;
  const tabs = layout.tabs.filter((t) => t.id !== tabId);
  const active = layout.active !== tabId ? layout.active : (tabs[Math.max(0, index - 1)]?.id ?? '');
  return { tabs, active };
}

/** Gives a pane a new id, so its shell starts again in the same place (after it exited or was closed). */
export function renewPane(layout: Layout, paneId: string): Layout {
  const swap = (t: TabSpec): TabSpec => ({ ...t, panes: t.panes.map((p) => (p.id === paneId ? { ...p, id: nextId('pane') } : p)) });
  return { ...layout, tabs: layout.tabs.map((t) => (t.panes.some((p) => p.id === paneId) ? swap(t) : t)) };
}

export const selectTab = (layout: Layout, tabId: string): Layout =>
  (layout.tabs.some((t) => t.id === tabId) ? { ...layout, active: tabId } : layout);

/** Font sizes the zoom steps through, in px. */
export const FONT_SIZES = [9, 10, 11, 12, 13, 14, 15, 16, 18, 20, 22, 24, 28, 32] as const;
export const DEFAULT_FONT_SIZE = 14;

/** The next font size in `step`'s direction (+1 larger, -1 smaller), held at the ends. */
export function zoom(size: number, step: 1 | -1): number {
  if (step > 0) return FONT_SIZES.find((s) => s > size) ?? FONT_SIZES[FONT_SIZES.length - 1];
  return [...FONT_SIZES].reverse().find((s) => s < size) ?? FONT_SIZES[0];
}
