// The shape of the one registry (areas/index.ts): what an area of the product gives the shell. Definitions are data
// (the build reads them in Node to learn the pages' URLs): pages load with import(), and commands act through the
// context the shell hands them, so an area's index.ts imports nothing but types.
import type { ComponentType } from 'preact';

/** Names of the shell's icons (shell/icons.tsx). */
export type IconName =
  | 'gateway' | 'llm' | 'host' | 'settings' | 'about' | 'overview' | 'requests' | 'usage' | 'policy' | 'api'
  | 'search' | 'sun' | 'moon' | 'menu' | 'close' | 'copy' | 'check' | 'keyboard' | 'logout' | 'external'
  | 'alert' | 'refresh' | 'arrow-right' | 'record' | 'command' | 'download' | 'key';

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

/**
 * A widget for the home grid (the host monitor's issue adds the grid): a card-sized view an area offers. Declared
 * here so every area registers widgets where it registers pages.
 */
export interface WidgetDefinition {
  id: string;
  title: string;
  load: () => Promise<{ default: ComponentType<Record<string, never>> }>;
  /** Default size in grid columns and rows. */
  size: { w: number; h: number };
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
   * `available`: its plugins ship in this build. `planned`: they come in a later release; the shell says so, and the
   * snippet shows what will turn it on.
   */
  status: 'available' | 'planned';
  /** The lines of config (YAML) that turn the area on, shown where it is not set up. */
  enableSnippet: string;
  /** The pages; the first is the area's home. */
  pages: AreaPage[];
  commands?: PaletteCommand[];
  searchRecords?: RecordSearch;
  widgets?: WidgetDefinition[];
}

/** A page of the shell itself (Settings, About), outside any area. */
export interface SystemPage extends AreaPage {
  icon: IconName;
}
