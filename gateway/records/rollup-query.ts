// Reading the minute rollups (`capture_rollups`) back for the dashboard's overview and usage: sums per step, route
// and tenant, always aggregated in the store, so a range's rows never come to the event loop one by one. Ranges are
// [from, to) in epoch ms; the minute in which one starts is counted in full (rollups are per minute).
import type { Store } from '@vigil/plugin-sdk';
import { BUCKET_COLUMNS } from './latency-buckets.js';

const MINUTE = 60_000;
/** The range's bounds on the rollups' minute buckets. */
const minutes = (from: number, to: number): number[] => [from - (from % MINUTE), to];

// PostgreSQL returns SUM(bigint) as numeric, which node-postgres hands over as a string.
type Count = number | string | null;
const num = (v: Count | undefined): number => Number(v ?? 0);

/** Requests, errors, tokens and the latency buckets' counts of a group of rollup rows. */
export type RollupSums = Record<string, number>;
export const SUMMED_COLUMNS: readonly string[] = ['requests', 'errors', 'tokens', ...BUCKET_COLUMNS];
const sums = SUMMED_COLUMNS.map((c) => `SUM(${c}) AS ${c}`).join(', ');

/**
 * The range's sums per step and route, in one pass: the overview's totals, series and top routes are sums of these
 * few groups (steps × routes), where three queries would each read every row again. `t` is the step's start.
 */
export async function readRouteSteps(store: Store, from: number, to: number, step: number): Promise<{ t: number; route: string; sums: RollupSums }[]> {
  const rows = await store.query<Record<string, Count>>(
    `SELECT (bucket / ${step}) * ${step} AS t, route, ${sums} FROM capture_rollups WHERE bucket >= ? AND bucket < ? GROUP BY (bucket / ${step}), route`,
    minutes(from, to));
  return rows.map((r) => {
    const group: RollupSums = {};
    for (const c of SUMMED_COLUMNS) group[c] = num(r[c]);
    return { t: num(r.t), route: String(r.route), sums: group };
  });
}

/** Requests and tokens of one tenant, or of a group of them. */
export interface TenantSums { tenant: string; requests: number; tokens: number }
const tenantSums = (r: Record<string, Count>): TenantSums => ({ tenant: String(r.tenant ?? ''), requests: num(r.requests), tokens: num(r.tokens) });
const BY_TENANT = 'SELECT tenant, SUM(requests) AS requests, SUM(tokens) AS tokens FROM capture_rollups WHERE bucket >= ? AND bucket < ?';

/** Tenants by requests, busiest first (ties by name), one page of them. */
export async function readTenantPage(store: Store, from: number, to: number, limit: number, offset: number): Promise<TenantSums[]> {
  const rows = await store.query<Record<string, Count>>(`${BY_TENANT} GROUP BY tenant ORDER BY SUM(requests) DESC, tenant LIMIT ? OFFSET ?`, [...minutes(from, to), limit, offset]);
  return rows.map(tenantSums);
}

/** Tenants of one range by name, from just after `after` (keyset), at most `limit`: the billing export's read. */
export async function readTenantsByName(store: Store, from: number, to: number, after: string | null, limit: number): Promise<TenantSums[]> {
  const rows = await store.query<Record<string, Count>>(
    `${BY_TENANT}${after === null ? '' : ' AND tenant > ?'} GROUP BY tenant ORDER BY tenant LIMIT ${Number(limit)}`,
    after === null ? minutes(from, to) : [...minutes(from, to), after]);
  return rows.map(tenantSums);
}

/** Prices that rank tenants by cost: numbers from the config, never from a request. */
export interface RankPrices { per_1k_tokens: number; per_request: number }

/**
 * The tenants a chart draws: the `top` ranked by `by`, busiest first, ties by requests then name in code-unit order
 * (PostgreSQL's "C" collation; SQLite's default). Cost is the prices' linear sum, rounded to 6 places as the API
 * rounds it, so costs equal there tie here too.
 */
export async function readTopTenants(store: Store, from: number, to: number, by: 'requests' | 'tokens' | 'cost', prices: RankPrices, top: number): Promise<TenantSums[]> {
  const measure = by === 'requests' ? 'SUM(requests)' : by === 'tokens' ? 'SUM(tokens)'
    : `ROUND(CAST(SUM(tokens) * ${Number(prices.per_1k_tokens)} / 1000.0 + SUM(requests) * ${Number(prices.per_request)} AS NUMERIC), 6)`;
  const order = `${measure} DESC, SUM(requests) DESC, tenant${store.dialect === 'postgres' ? ' COLLATE "C"' : ''}`;
  const rows = await store.query<Record<string, Count>>(`${BY_TENANT} GROUP BY tenant ORDER BY ${order} LIMIT ?`, [...minutes(from, to), top]);
  return rows.map(tenantSums);
}

/** The named tenants' sums; a tenant without rows in the range is absent. */
export async function readNamedTenants(store: Store, from: number, to: number, names: readonly string[]): Promise<TenantSums[]> {
  if (!names.length) return [];
  const rows = await store.query<Record<string, Count>>(`${BY_TENANT} AND tenant IN (${names.map(() => '?').join(', ')}) GROUP BY tenant`, [...minutes(from, to), ...names]);
  return rows.map(tenantSums);
}

/** Requests and tokens of every tenant but `names`, and how many tenants those are. */
export async function readOtherTenants(store: Store, from: number, to: number, names: readonly string[]): Promise<{ requests: number; tokens: number; tenants: number }> {
  const [rest] = await store.query<Record<string, Count>>(
    'SELECT SUM(requests) AS requests, SUM(tokens) AS tokens, COUNT(DISTINCT tenant) AS tenants FROM capture_rollups WHERE bucket >= ? AND bucket < ?'
    + (names.length ? ` AND tenant NOT IN (${names.map(() => '?').join(', ')})` : ''), [...minutes(from, to), ...names]);
  return { requests: num(rest?.requests), tokens: num(rest?.tokens), tenants: num(rest?.tenants) };
}

/**
 * Requests and tokens per step (`t`, the step's start): of each of the tenants `names` (`among: true`), or of every
 * other tenant summed (`among: false`, `tenant` is then ""). Each is one aggregate in the store.
 */
export async function readTenantSteps(store: Store, from: number, to: number, step: number, names: readonly string[], among: boolean): Promise<(TenantSums & { t: number })[]> {
  if (among && !names.length) return [];
  const list = names.map(() => '?').join(', ');
  const where = among ? ` AND tenant IN (${list})` : names.length ? ` AND tenant NOT IN (${list})` : '';
  const group = among ? ', tenant' : '';
  const rows = await store.query<Record<string, Count>>(
    `SELECT (bucket / ${step}) * ${step} AS t${group}, SUM(requests) AS requests, SUM(tokens) AS tokens FROM capture_rollups
     WHERE bucket >= ? AND bucket < ?${where} GROUP BY (bucket / ${step})${group}`, [...minutes(from, to), ...names]);
  return rows.map((r) => ({ t: num(r.t), ...tenantSums(r) }));
}
