// The sessions and users lists' view as the URL holds it (range, server-side sort, page), the API paths they read,
// and the dashboard paths of a session and a user. Pure functions: the pages, their links and their tests agree.
import type { LlmSession, LlmSessionPage, LlmSessionReplay, LlmUser, LlmUserDetail, LlmUserPage } from '../../data/api.gen.js';
import { withParams } from '../../shell/url-state.js';
import { projectApi } from './llm-api.js';

export type { LlmSession, LlmSessionPage, LlmSessionReplay, LlmUser, LlmUserDetail, LlmUserPage };

export const PEOPLE_PAGE = 25;
/** How far back a list reaches: the server takes at most 90 days. */
export const RANGES = ['24h', '7d', '30d', '90d'] as const;
export type Range = (typeof RANGES)[number];
export const DEFAULT_RANGE: Range = '30d';

/** Sort keys the API takes, per list; `turns` and `requests` are the count of traces. */
export const SESSION_SORTS = ['last_seen', 'first_seen', 'turns', 'errors', 'cost', 'latency'] as const;
export const USER_SORTS = ['last_seen', 'first_seen', 'requests', 'errors', 'cost', 'latency'] as const;

export interface PeopleView {
  range: Range;
  sort: string;
  order: 'asc' | 'desc';
  offset: number;
}

/** The view the URL names; what it cannot read falls back to the default (newest activity first). */
export function readPeopleView(search: string, sorts: readonly string[]): PeopleView {
  const p = new URLSearchParams(search);
  const range = p.get('range');
  const sort = p.get('sort');
  const offset = Number(p.get('offset'));
  return {
    range: (RANGES as readonly string[]).includes(range ?? '') ? range as Range : DEFAULT_RANGE,
    sort: sort && sorts.includes(sort) ? sort : 'last_seen',
    order: p.get('order') === 'asc' ? 'asc' : 'desc',
    offset: Number.isInteger(offset) && offset > 0 && offset <= 10_000 ? offset : 0,
  };
}

/** The query with some of the view changed; a new range or order starts again at the first page. */
export function peopleSearch(search: string, change: Partial<PeopleView>): string {
  const offset = change.offset ?? 0;
  return withParams(search, {
    ...(change.range ? { range: change.range } : {}),
    ...(change.sort ? { sort: change.sort } : {}),
    ...(change.order ? { order: change.order } : {}),
    offset: offset ? String(offset) : null,
  }, { range: DEFAULT_RANGE, sort: 'last_seen', order: 'desc' });
}

/** The API path of a sessions or users list for the view (`extra` narrows it: a user's sessions). */
export function peopleApiPath(project: string, list: 'sessions' | 'users', view: PeopleView, extra: Record<string, string> = {}): string {
  const q = new URLSearchParams({ since: view.range, sort: view.sort, order: view.order, limit: String(PEOPLE_PAGE), ...extra });
  if (view.offset) q.set('offset', String(view.offset));
  return projectApi(project, `/${list}?${q}`);
}

export const sessionPath = (project: string, id: string): string => `/llm/sessions/${encodeURIComponent(id)}?project=${encodeURIComponent(project)}`;
export const userPath = (project: string, id: string): string => `/llm/users/${encodeURIComponent(id)}?project=${encodeURIComponent(project)}`;
