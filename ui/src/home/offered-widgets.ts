// Which widgets this installation offers: those of configured areas, less the ones whose plugin is off or whose
// capability this machine lacks (no battery, no fleet). Pure: the registry and the facts come in as arguments.
import type { Area, WidgetDefinition } from '../areas/types.js';
import { capPresent } from '../shell/machine-caps.js';

export interface OfferedDefinition extends WidgetDefinition {
  area: Pick<Area, 'id' | 'title'>;
}

export interface Facts {
  configured(area: Area): boolean;
  /** Enabled plugins (`/api/ui/shell`). */
  plugins: ReadonlySet<string>;
  /** `/api/caps`: undefined until known, and then a widget that needs a capability waits. */
  caps: Readonly<Record<string, unknown>> | undefined;
}

/**
 * In registry order, except that the area named `first` leads (the home screen puts this machine's tiles first,
 * though the sidebar lists the host area last).
 */
export function offeredWidgets(areas: readonly Area[], facts: Facts, first?: string): OfferedDefinition[] {
  const ordered = first ? [...areas.filter((a) => a.id === first), ...areas.filter((a) => a.id !== first)] : areas;
  return ordered.filter((a) => facts.configured(a)).flatMap((area) => (area.widgets ?? [])
    .filter((w) => (w.plugin === undefined || facts.plugins.has(w.plugin)) && (w.cap === undefined || capPresent(facts.caps, w.cap)))
    .map((w) => ({ ...w, area: { id: area.id, title: area.title } })));
}


/** Whether any configured area's widget needs `/api/caps` (so the grid asks for it only then). */
export function needsCaps(areas: readonly Area[], configured: (area: Area) => boolean): boolean {
  return areas.some((a) => configured(a) && (a.widgets ?? []).some((w) => w.cap !== undefined));
}

/** The gallery's search: every word of the query in the title, the description, the keywords or the area. */
export function matchesQuery(w: OfferedDefinition, query: string): boolean {
  const words = query.toLowerCase().split(/\s+/).filter(Boolean);
  const text = [w.title, w.description, w.area.title, ...(w.keywords ?? [])].join(' ').toLowerCase();
  return words.every((word) => text.includes(word));
}
