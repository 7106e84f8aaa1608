// The keyboard shortcuts: the global keys and every page's `g <key>`, in one table that both the key handler and
// the shortcut sheet read.
import type { Area, SystemPage } from '../areas/types.js';
import { isListed } from './routes.js';

export interface Shortcut {
  /** Keys as shown: `Mod K` (Ctrl, or ⌘ on Apple), `?`, `g o`. */
  keys: string;
  description: string;
}

export interface ShortcutGroups {
  general: Shortcut[];
  navigation: (Shortcut & { path: string })[];
}

/** The shortcuts on offer: navigation only to pages that are listed (configured areas; not developer pages in Simple mode). */
export function shortcutGroups(areas: readonly Area[], systemPages: readonly SystemPage[], configured: (area: Area) => boolean, simpleMode: boolean): ShortcutGroups {
  const navigation: (Shortcut & { path: string })[] = [];
  for (const area of areas) {
    if (!configured(area)) continue;
    for (const page of area.pages) {
      if (page.shortcut && isListed(page, simpleMode)) navigation.push({ keys: page.shortcut, description: `${area.title}: ${page.title}`, path: page.path });
    }
  }
  for (const page of systemPages) if (page.shortcut) navigation.push({ keys: page.shortcut, description: page.title, path: page.path });
  return {
    general: [
      { keys: 'Mod K', description: 'Open the command palette' },
      { keys: '/', description: 'Search (the command palette)' },
      { keys: 'Mod I', description: 'Open or close the assistant' },
      { keys: '?', description: 'Show these shortcuts' },
      { keys: 'Esc', description: 'Close a dialog or the menu' },
    ],
    navigation,
  };
}
