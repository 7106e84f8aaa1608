// Which page a path shows, and what the sidebar and the palette list, from the registry (areas/index.ts). Pure
// functions: the areas and the configured state come in as arguments.
import type { Area, AreaPage, SystemPage } from '../areas/types.js';
import { capPresent, machineCaps } from './machine-caps.js';
import { matchPath, normalizePath } from './url-state.js';

export type Resolved =
  | { kind: 'page'; page: AreaPage; area?: Area; params: Record<string, string> }
  | { kind: 'unconfigured'; area: Area }
  | { kind: 'home' }
  | { kind: 'not-found' };

/**
 * The page for `path`. An area that is not configured shows what it is and how to turn it on at every path under
 * it, so a bookmark of a page that is off says why instead of "not found".
 */
export function resolveRoute(path: string, areas: readonly Area[], systemPages: readonly SystemPage[], configured: (area: Area) => boolean): Resolved {
  const p = normalizePath(path);
  if (p === '/') return { kind: 'home' };
  for (const page of systemPages) {
    const params = matchPath(page.path, p);
    if (params) return { kind: 'page', page, params };
  }
  for (const area of areas) {
    if (p !== `/${area.id}` && !p.startsWith(`/${area.id}/`)) continue;
    if (!configured(area)) return { kind: 'unconfigured', area };
    for (const page of area.pages) {
      const params = matchPath(page.path, p);
      if (params) return { kind: 'page', page, area, params };
    }
    return { kind: 'not-found' };
  }
  return { kind: 'not-found' };
}

/**
 * Whether `page` is listed for the current mode: detail pages never, developer pages not in Simple mode, a page that
 * needs a capability not where `/api/caps` says the machine lacks it (while caps are unknown, it is listed).
 */
export const isListed = (page: AreaPage, simpleMode: boolean, caps = machineCaps.value): boolean =>
  page.nav !== false && !(simpleMode && page.developer) && (page.cap === undefined || caps === undefined || capPresent(caps, page.cap));

/** Where `/` leads: the home page of the first configured area, or undefined when none is (the welcome page). */
export function homePath(areas: readonly Area[], configured: (area: Area) => boolean): string | undefined {
  const area = areas.find((a) => configured(a) && a.pages.length > 0);
  return area?.pages[0].path;
}

/** The document title of a resolved page: `Overview · Gateway · Vigil`. */
export function documentTitle(resolved: Resolved): string {
  switch (resolved.kind) {
    case 'page': return [resolved.page.title, resolved.area?.title, 'Vigil'].filter(Boolean).join(' · ');
    case 'unconfigured': return `${resolved.area.title} · Vigil`;
    case 'not-found': return 'Page not found · Vigil';
    default: return 'Vigil';
  }
}
