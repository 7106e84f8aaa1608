// The shape of the one registry (areas/index.ts): what an area of the product gives the shell. Definitions are data
// (the build reads them in Node to learn the pages' URLs): pages load with import(), and commands act through the
// context the shell hands them, so an area's index.ts imports nothing but types.
import type { ComponentType } from 'preact';
import type { WidgetSize } from '../data/api.gen.js';

/** Names of the shell's icons (shell/icons.tsx). */
export type IconName =
  | 'gateway' | 'llm' | 'host' | 'settings' | 'about' | 'overview' | 'requests' | 'usage' | 'policy' | 'api'
  | 'search' | 'sun' | 'moon' | 'menu' | 'close' | 'copy' | 'check' | 'keyboard' | 'logout' | 'external'
  | 'alert' | 'refresh' | 'arrow-right' | 'record' | 'command' | 'download' | 'key'
  | 'home' | 'grip' | 'plus' | 'upload' | 'resize' | 'edit';

/** What a page component receives. */
export interface PageProps {
  /** Path parameters of the page's pattern (`/gateway/requests/:id` → `{ id }`). */
  params: Record<string, string>;
}

export interface AreaPage {
  /** `/<area id>` or below it; `:name` segments are parameters (`/gateway/requests/:id`). */
  path: string;
  title: string;
  /** The page's module, loaded when the page is first opened (its own chunk). */
  load: () => Promise<{ default: ComponentType<PageProps> }>;
  icon?: IconName;
  /** More words the command palette matches. */
  keywords?: string[];
  /** Listed in the sidebar and the palette; false for detail pages reached from another page. Default true. */
  nav?: boolean;
  /** For developers: hidden from the sidebar and the palette in Simple mode. */
  developer?: boolean;
  /**
   * A fold of the sidebar the page is listed in, under its area ("System", "Developer tools"): an area with twenty
   * pages reads as a few headings. Pages without one are listed first, always open.
   */
  group?: string;
  /**
   * Listed only where `/api/caps` reports this capability (`containers`: an engine was found; `gnome`). The page
   * still opens from a link or a bookmark, and says what it looked for.
   */
  cap?: string;
  /** Two keys pressed one after the other, e.g. `g o`; listed in the shortcut sheet. */
  shortcut?: string;
}

/** What a palette command may do: the shell's own actions, never its internals. */
export interface CommandContext {
  navigate(path: string): void;
  /** Shows a short message in the shell's live region. */
  announce(message: string): void;
  openShortcuts(): void;
  /** Downloads a file the control plane serves (a CSV export), with the session cookie: the token is never in a link. */
  download(path: string): void;
}

export interface PaletteCommand {
  id: string;
  title: string;
  keywords?: string[];
  icon?: IconName;
  shortcut?: string;
  developer?: boolean;
  run(ctx: CommandContext): void | Promise<void>;
}

/** A hit of an area's record search, shown in the palette under "Records". */
export interface RecordHit {
  id: string;
  title: string;
  /** One line under the title, e.g. `GET /api/orders · 200 · 12 ms`. */
  detail?: string;
  /** Where choosing it goes. */
  path: string;
}

/** "Record by id" in the palette: an area looks up what the query names. */
export interface RecordSearch {
  /** Whether `query` could be one of this area's ids (cheap; decides whether `find` runs). */
  matches(query: string): boolean;
  /** The records `query` names; `[]` when none. The signal aborts when the query changes. */
  find(query: string, signal: AbortSignal): Promise<RecordHit[]>;
}

/** A name the palette finds by fuzzy match (a route, a project, a prompt template), and where it leads. */
export interface NamedItem {
  id: string;
  title: string;
  /** One line after the title: what kind of name it is, and where. */
  detail: string;
  keywords?: string[];
  path: string;
}

/** The names an area's data holds, loaded when the palette opens (once per opening). */
export interface NameSource {
  load(signal: AbortSignal): Promise<NamedItem[]>;
}

/** A widget's size on the home grid: columns (1-6, or the whole row) and rows (1-6); the layout route's type. */
export type { WidgetSize };

/** What a widget component receives. */
export interface WidgetProps {
  /** Its size now, so a larger tile can show more (a chart under the figure). */
  size: WidgetSize;
}

/**
 * A widget for the home grid (shell/home-page.tsx): a tile an area offers. Every area registers its widgets where it
 * registers its pages; the grid offers those of configured areas, and the gallery finds them by title and keywords.
 */
export interface WidgetDefinition {
  /** Unique across areas; letters, digits, `_` or `-`, at most 40 (what a stored layout may name). */
  id: string;
  title: string;
  /** One line in the gallery: what it shows. */
  description: string;
  keywords?: string[];
  load: () => Promise<{ default: ComponentType<WidgetProps> }>;
  /** Default size. */
  size: WidgetSize;
  /** In the default layout. */
  default?: boolean;
  /** Offered only where `/api/caps` reports this capability (e.g. `battery`). */
  cap?: string;
  /** Offered only while this plugin is enabled, beyond the area's own (e.g. `fleet`). */
  plugin?: string;
  /** The page with the whole story; the tile's title links there (outside edit mode). */
  path?: string;
}

export interface Area {
  /** Its URL segment (`/gateway`), lower case; never one the control plane owns (api, assets, login, …). */
  id: string;
  title: string;
  icon: IconName;
  /** What the area is, in one or two sentences, shown where it is not set up. */
  description: string;
  /** Plugins that turn the area on: it is configured when any of them is enabled. */
  requires: string[];
  /**
   * `available`: its plugins ship in this build. `planned`: they come in a later release; the shell says so, and
   * shows no config (it would not validate before they exist).
   */
  status: 'available' | 'planned';
  /**
   * The lines of config (YAML) that turn an available area on, shown where it is not set up. They must pass
   * `vigil validate` on their own (tests/integration/area-snippets.test.ts).
   */
  enableSnippet?: string;
  /** The pages; the first is the area's home. */
  pages: AreaPage[];
  commands?: PaletteCommand[];
  searchRecords?: RecordSearch;
  /** Names of this installation's things (routes, projects, templates) that the palette searches as typed. */
  names?: NameSource;
  widgets?: WidgetDefinition[];
}

/** A page of the shell itself (Settings, About), outside any area. */
export interface SystemPage extends AreaPage {
  icon: IconName;
}
