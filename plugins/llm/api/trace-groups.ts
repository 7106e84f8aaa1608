import { httpError, type SqlValue, type Store } from '@vigil/plugin-sdk';
import { LlmErrors } from '../errors.js';
import { pageOf, pageProperties, parseSince, sinceProperty } from './query-params.js';

/**
 * Sessions and users are traces grouped by `session_id` or `user_id`. A list reads the project's traces of one time
 * range through the (project, session|user, created_at) indexes, so its cost is bounded by the range, which is at
 * most MAX_RANGE_DAYS long.
 */
export const MAX_RANGE_DAYS = 90;
const DAY_MS = 86_400_000;
const DEFAULT_SINCE = '30d';

export type GroupColumn = 'session_id' | 'user_id';

/** Sort keys of a group list, as the SQL aggregate each one orders by. */
const SORTS = {
  last_seen: 'MAX(created_at)',
  first_seen: 'MIN(created_at)',
  traces: 'COUNT(*)',
  errors: "SUM(CASE WHEN status = 'error' THEN 1 ELSE 0 END)",
  cost: 'COALESCE(SUM(cost_usd), 0)',
  latency: 'COALESCE(SUM(latency_ms), 0)',
} as const;
export type GroupSort = keyof typeof SORTS;

/** The query of the sessions and users lists. */
export const groupListQuery = (count: 'turns' | 'requests', extra: Record<string, unknown> = {}) => ({
  type: 'object',
  properties: {
    ...pageProperties,
    since: { ...sinceProperty, default: DEFAULT_SINCE, description: `${sinceProperty.description} Default ${DEFAULT_SINCE}; at most ${MAX_RANGE_DAYS} days before \`until\`.` },
    until: { ...sinceProperty, description: 'End of the range (exclusive), written as `since` is; default now.' },
    sort: {
      enum: Object.keys(SORTS).map((k) => (k === 'traces' ? count : k)), default: 'last_seen',
      description: `last_seen, first_seen, ${count}, errors, cost, latency (summed).`,
    },
    order: { enum: ['asc', 'desc'], default: 'desc' },
    ...extra,
  },
});

export const GROUP_LIST_DESCRIPTION = `Aggregates of the project's traces in the range (default the last ${DEFAULT_SINCE}, at most ${MAX_RANGE_DAYS} days: `
  + 'an earlier `since` is moved up to it, and `from` says where the range began). Traces without the id are not grouped.';

export interface GroupRow {
  key: string;
  first_at: number;
  last_at: number;
  traces: number;
  errors: number;
  cost_usd: number;
  total_tokens: number;
  latency_ms: number;
  avg_latency_ms: number | null;
  /** The other id: the user of a session (its latest), or the count of a user's sessions. */
  other: string | number | null;
}

export interface GroupPage {
  rows: GroupRow[];
  total: number;
  limit: number;
  offset: number;
  from: number;
  to: number;
}

/** The time range of a validated group query, clamped to MAX_RANGE_DAYS. */
export function rangeOf(query: Record<string, unknown>, now = Date.now()): { from: number; to: number } {
  const to = typeof query.until === 'string' ? parseSince(query.until, now) : now;
  const since = parseSince(typeof query.since === 'string' ? query.since : DEFAULT_SINCE, now);
  if (since >= to) throw httpError(LlmErrors.SINCE, '`since` must be before `until`');
  return { from: Math.max(since, to - MAX_RANGE_DAYS * DAY_MS), to };
}

const otherOf = (column: GroupColumn): string => (column === 'session_id'
  // The session's user: the latest trace's that has one (a session's turns normally share one).
  ? 'MAX(user_id)'
  : 'COUNT(DISTINCT session_id)');

const aggregates = (column: GroupColumn): string => `${column} AS key, MIN(created_at) AS first_at, MAX(created_at) AS last_at,
  COUNT(*) AS traces, ${SORTS.errors} AS errors, COALESCE(SUM(cost_usd), 0) AS cost_usd, COALESCE(SUM(total_tokens), 0) AS total_tokens,
  COALESCE(SUM(latency_ms), 0) AS latency_ms, AVG(latency_ms) AS avg_latency_ms, ${otherOf(column)} AS other`;

type RawGroup = Record<keyof GroupRow, number | string | null>;

const groupRow = (column: GroupColumn) => (r: RawGroup): GroupRow => ({
  key: String(r.key), first_at: Number(r.first_at), last_at: Number(r.last_at), traces: Number(r.traces), errors: Number(r.errors),
  cost_usd: Number(r.cost_usd), total_tokens: Number(r.total_tokens), latency_ms: Number(r.latency_ms),
  avg_latency_ms: r.avg_latency_ms === null ? null : Number(r.avg_latency_ms),
  other: r.other === null ? null : column === 'user_id' ? Number(r.other) : String(r.other),
});

/**
 * A page of the project's sessions or users in the range, sorted as asked, with the count of all of them.
 * `where` narrows the traces further (a user's sessions).
 */
export async function listGroups(store: Store, projectId: string, column: GroupColumn, query: Record<string, unknown>,
  where: { sql: string; params: SqlValue[] } = { sql: '', params: [] }): Promise<GroupPage> {
  const { limit, offset } = pageOf(query);
  const { from, to } = rangeOf(query);
  const key = String(query.sort ?? 'last_seen');
  const sort = SORTS[(key === 'turns' || key === 'requests' ? 'traces' : key) as GroupSort];
  const dir = query.order === 'asc' ? 'ASC' : 'DESC';
  const traces = store.table('traces');
  const cond = `project_id = ? AND ${column} IS NOT NULL AND created_at >= ? AND created_at < ?${where.sql ? ` AND ${where.sql}` : ''}`;
  const params: SqlValue[] = [projectId, from, to, ...where.params];
  const [rows, count] = await Promise.all([
    store.query<RawGroup>(`SELECT ${aggregates(column)} FROM ${traces} WHERE ${cond} GROUP BY ${column}
      ORDER BY ${sort} ${dir}, ${column} ${dir} LIMIT ? OFFSET ?`, [...params, limit, offset]),
    store.query<{ n: number | string }>(`SELECT COUNT(DISTINCT ${column}) AS n FROM ${traces} WHERE ${cond}`, params),
  ]);
  return { rows: rows.map(groupRow(column)), total: Number(count[0]?.n ?? 0), limit, offset, from, to };
}

/** One session's or user's figures over all its traces (`range` narrows them), or null when it has none. */
export async function groupSummary(store: Store, projectId: string, column: GroupColumn, key: string, range?: { from: number; to: number }): Promise<GroupRow | null> {
  const params: SqlValue[] = [projectId, key];
  let cond = `project_id = ? AND ${column} = ?`;
  if (range) { cond += ' AND created_at >= ? AND created_at < ?'; params.push(range.from, range.to); }
  const rows = await store.query<RawGroup>(`SELECT ${aggregates(column)} FROM ${store.table('traces')} WHERE ${cond} GROUP BY ${column}`, params);
  return rows[0] ? groupRow(column)(rows[0]) : null;
}

export const isoOf = (ms: number): string => new Date(ms).toISOString();
