// The traces list's view as the URL holds it (project, filters, time, and the page's cursor), and the API path it
// reads. Pure functions: the page, its links and its tests read the URL the same way.
import { withParams } from '../../shell/url-state.js';
import { projectApi, type Trace } from './llm-api.js';

export const PAGE_SIZE = 50;
/** How far back the list reaches; `all` is everything retention kept. */
export const SINCE = ['1h', '24h', '7d', '30d', 'all'] as const;
export type Since = (typeof SINCE)[number];
export const DEFAULT_SINCE: Since = '7d';

/**
 * Filters with a value, in the order the toolbar shows them; each is the API's parameter of the same name. `q` is the
 * full-text search of the stored input and output.
 */
export const TRACE_FILTERS = ['q', 'status', 'model', 'template', 'version', 'user_id', 'session_id', 'tag'] as const;
export type TraceFilter = (typeof TRACE_FILTERS)[number];

/** What a filter is called on screen. */
export const FILTER_LABELS: Record<TraceFilter, string> = {
  q: 'Search', status: 'Status', model: 'Model', template: 'Template', version: 'Version', user_id: 'User', session_id: 'Session', tag: 'Tag',
};

/** The API's keyset cursor, `<created_at ms>.<id>` (plugins/llm/api/traces-query.ts). */
const CURSOR = /^[0-9]{1,15}\.[0-9a-zA-Z-]{1,64}$/;
const VERSION = /^[1-9][0-9]{0,8}$/;

export interface TracesView {
  filters: Partial<Record<TraceFilter, string>>;
  since: Since;
  /** The page: traces older than `before`, or newer than `after`; neither for the newest page. */
  before: string | null;
  after: string | null;
}

/** The view the URL's query names; what it cannot read falls back to the default view. */
export function readTracesView(search: string): TracesView {
  const params = new URLSearchParams(search);
  const one = (name: string) => (params.getAll(name).length === 1 ? params.get(name)! : null);
  const filters: TracesView['filters'] = {};
  for (const name of TRACE_FILTERS) {
    const value = one(name);
    if (value === null || value === '') continue;
    if (name === 'status' && value !== 'ok' && value !== 'error') continue;
    if (name === 'version' && !VERSION.test(value)) continue;
    filters[name] = value;
  }
  // A version names a version of a template: alone it means nothing.
  if (filters.version && !filters.template) delete filters.version;
  const since = one('since');
  const cursor = (name: string) => { const c = one(name); return c !== null && CURSOR.test(c) ? c : null; };
  const before = cursor('before');
  return {
    filters,
    since: (SINCE as readonly string[]).includes(since ?? '') ? since as Since : DEFAULT_SINCE,
    before,
    after: before === null ? cursor('after') : null,
  };
}

/** Whether any filter narrows the list (the time aside). */
export const isFiltered = (view: TracesView): boolean => Object.keys(view.filters).length > 0;

/**
 * The dashboard API path of the project's traces for the view in the URL. It asks for one trace more than a page
 * holds: whether that one exists says if there is an older page (or, going newer, a newer one).
 */
export function tracesApiPath(project: string, search: string, limit = PAGE_SIZE + 1): string {
  const v = readTracesView(search);
  const q = new URLSearchParams();
  for (const name of TRACE_FILTERS) if (v.filters[name] !== undefined) q.set(name, v.filters[name]!);
  if (v.since !== 'all') q.set('since', v.since);
  if (v.before) q.set('before', v.before);
  if (v.after) q.set('after', v.after);
  q.set('limit', String(limit));
  return projectApi(project, `/traces?${q}`);
}

/**
 * The rows of a page from the API's answer (one more than a page, see tracesApiPath), and whether pages lie beyond
 * it: `older` for the Older button, `newest` when nothing is newer (an `after` page that reached the top).
 */
export function pageRows<T>(view: TracesView, data: readonly T[], size = PAGE_SIZE): { rows: T[]; older: boolean; newest: boolean } {
  if (view.after) {
    // Newest first: the extra trace is the newest one, past the page's top.
    return data.length > size ? { rows: data.slice(1), older: true, newest: false } : { rows: [...data], older: true, newest: true };
  }
  return { rows: data.slice(0, size), older: data.length > size, newest: view.before === null };
}

/** The cursor of a trace, for `before=` (the last of a page) or `after=` (the first). */
export const traceCursor = (t: Pick<Trace, 'id' | 'created_at'>): string => `${Date.parse(t.created_at)}.${t.id}`;

/** The query for the same filters on another page (`before`/`after`, or neither for the newest). */
export function pageSearch(search: string, page: { before?: string; after?: string }): string {
  return withParams(search, { before: page.before ?? null, after: page.after ?? null });
}

/**
 * The query with one filter set (null removes it). A new filter starts again from the newest page: a cursor of the
 * old list places nothing in the new one. Removing the template removes its version too.
 */
export function filterSearch(search: string, name: TraceFilter | 'since', value: string | null): string {
  const updates: Record<string, string | null> = { [name]: value, before: null, after: null };
  if (name === 'template' && value === null) updates.version = null;
  return withParams(search, updates, { since: DEFAULT_SINCE });
}

/** The query for another project: its own filters mean nothing there, so only the time stays. */
export function projectSearch(search: string, project: string): string {
  const since = readTracesView(search).since;
  return withParams('', { project, since }, { since: DEFAULT_SINCE });
}
