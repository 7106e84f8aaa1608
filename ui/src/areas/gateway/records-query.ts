// The request inspector's view as the URL holds it (filters and the page's cursor), and the records API query it
// asks for. Pure functions: the page, its links and its tests read the URL the same way.
import { withParams } from '../../shell/url-state.js';

export const PAGE_SIZE = 50;
export const STATUS_CLASSES = ['all', '2xx', '4xx', '5xx', '0'] as const;
export const SINCE = ['15m', '1h', '24h', '7d'] as const;
export type Since = (typeof SINCE)[number];
export const DEFAULT_SINCE: Since = '24h';

const EXACT_STATUS = /^[1-5][0-9]{2}$/;
/** The records API's cursor, `<epoch ms>.<id>` (plugins/capture/routes/records.ts). */
const CURSOR = /^[0-9]{1,15}\.[\x21-\x7e]{1,200}$/;
/** Methods the filter offers; the API takes any token of letters. */
export const METHODS = ['GET', 'POST', 'PUT', 'PATCH', 'DELETE', 'HEAD', 'OPTIONS'] as const;
/** Characters of the text filter, as the API bounds it (plugins/capture/routes/records.ts). */
export const MAX_TEXT = 200;
const METHOD = /^[A-Za-z]{1,16}$/;
/** A label filter's parameter, named as the policy names labels. */
const LABEL_PARAM = /^label\.([a-zA-Z_][a-zA-Z0-9_]*)$/;

export interface RecordsView {
  /** `all`, a class (`5xx`), `0` (no answer), or an exact status (`404`). */
  status: string;
  since: Since;
  route: string;
  /** Text the path holds (any case); empty for none. */
  text: string;
  /** An upper-case method, or empty for any. */
  method: string;
  /** The tenant (the label capture.tenant_label names), or empty for any. */
  tenant: string;
  /** Label filters, in URL order: [name, value]. */
  labels: [string, string][];
  /** The page: records older than `before`, or newer than `after`; neither for the newest page. */
  before: string | null;
  after: string | null;
}

/** The view the URL's query names; what it cannot read falls back to the default view. */
export function readView(search: string): RecordsView {
  const params = new URLSearchParams(search);
  const one = (name: string) => (params.getAll(name).length === 1 ? params.get(name)! : null);
  const status = one('status');
  const since = one('since');
  const cursor = (name: string) => { const c = one(name); return c !== null && CURSOR.test(c) ? c : null; };
  const labels: [string, string][] = [];
  for (const [key, value] of params) {
    const m = LABEL_PARAM.exec(key);
    if (m && value !== '' && !labels.some(([n]) => n === m[1])) labels.push([m[1], value]);
  }
  const before = cursor('before');
  return {
    status: status !== null && ((STATUS_CLASSES as readonly string[]).includes(status) || EXACT_STATUS.test(status)) ? status : 'all',
    since: (SINCE as readonly string[]).includes(since ?? '') ? since as Since : DEFAULT_SINCE,
    route: one('route') ?? '',
    text: (one('q') ?? '').slice(0, MAX_TEXT),
    method: METHOD.test(one('method') ?? '') ? one('method')!.toUpperCase() : '',
    tenant: one('tenant') ?? '',
    labels,
    before,
    after: before === null ? cursor('after') : null,
  };
}

/** Whether any filter narrows the list (the time range aside). */
export const isFiltered = (v: RecordsView): boolean =>
  v.status !== 'all' || v.route !== '' || v.text !== '' || v.method !== '' || v.tenant !== '' || v.labels.length > 0;

/** Whether the status filter is one exact code rather than a class. */
export const isExactStatus = (status: string): boolean => EXACT_STATUS.test(status);

/** The records API path for the view in the URL. */
export function recordsPath(search: string): string {
  const v = readView(search);
  const q = new URLSearchParams();
  if (v.status !== 'all') q.set('status', v.status);
  q.set('since', v.since);
  if (v.route) q.set('route', v.route);
  if (v.text) q.set('q', v.text);
  if (v.method) q.set('method', v.method);
  if (v.tenant) q.set('tenant', v.tenant);
  for (const [name, value] of v.labels) q.set(`label.${name}`, value);
  if (v.before) q.set('before', v.before);
  if (v.after) q.set('after', v.after);
  q.set('limit', String(PAGE_SIZE));
  return `/api/gateway/records?${q}`;
}

/** The query for the same filters on another page (`before`/`after`, or neither for the newest). */
export function pageSearch(search: string, page: { before?: string; after?: string }): string {
  return withParams(search, { before: page.before ?? null, after: page.after ?? null, offset: null });
}

/**
 * The query with one filter set (null removes it). A new filter starts again from the newest page: a cursor of the
 * old filter's list places nothing in the new one.
 */
export function filterSearch(search: string, name: string, value: string | null): string {
  const defaults: Record<string, string> = { status: 'all', since: DEFAULT_SINCE };
  return withParams(search, { [name]: value, before: null, after: null, offset: null }, defaults);
}
