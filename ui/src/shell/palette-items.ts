// What the command palette offers, from the registry: the pages, the areas that are not set up (to learn how),
// each configured area's commands, and the shell's own actions.
import type { Area, IconName, NamedItem, PaletteCommand, SystemPage } from '../areas/types.js';
import { isListed } from './routes.js';

export type PaletteGroup = 'Pages' | 'Actions' | 'Records' | 'Names';

export interface PaletteItem {
  id: string;
  title: string;
  group: PaletteGroup;
  /** A dimmer line after the title (the area of a page). */
  hint?: string;
  keywords: readonly string[];
  icon?: IconName;
  shortcut?: string;
  action: { kind: 'navigate'; path: string } | { kind: 'command'; command: PaletteCommand };
}

export interface PaletteOptions {
  configured(area: Area): boolean;
  simpleMode: boolean;
  /** The shell's own actions (theme, modes, shortcuts, log out). */
  shellCommands: readonly PaletteCommand[];
}

/** Everything the palette can find before anything is typed, in the order it lists them. */
export function paletteItems(areas: readonly Area[], systemPages: readonly SystemPage[], o: PaletteOptions): PaletteItem[] {
  const items: PaletteItem[] = [];
  for (const area of areas) {
    if (!o.configured(area)) {
      items.push({
        id: `area:${area.id}`, title: area.title, group: 'Pages', hint: area.status === 'planned' ? 'coming soon' : 'not set up',
        keywords: [area.description], icon: area.icon, action: { kind: 'navigate', path: `/${area.id}` },
      });
      continue;
    }
    for (const page of area.pages) {
      if (!isListed(page, o.simpleMode)) continue;
      items.push({
        id: `page:${page.path}`, title: page.title, group: 'Pages', hint: area.title, keywords: [area.title, ...(page.keywords ?? [])],
        icon: page.icon ?? area.icon, shortcut: page.shortcut, action: { kind: 'navigate', path: page.path },
      });
    }
  }
  for (const page of systemPages) {
    items.push({
      id: `page:${page.path}`, title: page.title, group: 'Pages', keywords: page.keywords ?? [], icon: page.icon,
      shortcut: page.shortcut, action: { kind: 'navigate', path: page.path },
    });
  }
  const commands = [...areas.filter((a) => o.configured(a)).flatMap((a) => a.commands ?? []), ...o.shellCommands];
  for (const command of commands) {
    if (o.simpleMode && command.developer) continue;
    items.push({
      id: `command:${command.id}`, title: command.title, group: 'Actions', keywords: command.keywords ?? [], icon: command.icon,
      shortcut: command.shortcut, action: { kind: 'command', command },
    });
  }
  return items;
}

/** An area's names as palette items: found when typed for, never listed before (they can be many). */
export function nameItems(names: readonly NamedItem[]): PaletteItem[] {
  return names.map((n) => ({
    id: `name:${n.id}`, title: n.title, group: 'Names', hint: n.detail, keywords: n.keywords ?? [], icon: 'search',
    action: { kind: 'navigate', path: n.path },
  }));
}
