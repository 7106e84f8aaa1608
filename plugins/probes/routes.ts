// The host monitor's dashboard API, under perch's names where it has them (overview, caps, trend, trendcsv,
// processes, kernel). Every route is read-only and every answer has a stated bound (response-schemas.ts).
import { Readable } from 'node:stream';
import { CSV_BODY, HOST_OVERVIEW_SCHEMA, type HostService, type HttpRoutes, type Store } from '@vigil/plugin-sdk';
import type { HostCaps } from './capabilities.js';
import type { KernelTable } from './kernel-table.js';
import type { HostLive } from './live-types.js';
import type { ProcessTable } from './process-table.js';
import {
  capsSchema, kernelQuery, kernelSchema, liveSchema, processesQuery, processesSchema, trendQuery, trendSchema, type TrendRange,
} from './response-schemas.js';
import { readTrend, trendCsv } from './trend.js';

export interface ProbesRouteDeps {
  host: HostService;
  live(): Promise<HostLive>;
  caps(): Promise<HostCaps>;
  store: Store;
  processes: ProcessTable;
  kernel: KernelTable;
  now(): number;
}

const TAGS = ['host'];

export function registerProbesRoutes(http: HttpRoutes, d: ProbesRouteDeps): void {
  http.route({
    method: 'GET', path: '/api/overview', tags: TAGS,
    summary: 'This machine now: CPU, memory, hottest sensor, fullest disk, battery, uptime (the fleet\'s and the home tiles\' answer)',
    response: HOST_OVERVIEW_SCHEMA,
    async handler(ctx) {
      ctx.set('Cache-Control', 'no-store');
      return d.host.overview();
    },
  });

  http.route({
    method: 'GET', path: '/api/caps', tags: TAGS,
    summary: 'What this machine has (package manager, snap, flatpak, GNOME, Wayland, battery, systemd, journal, GPU, container engines)',
    description: 'Detected from files and PATH lookups, no subprocess; cached 5 minutes.',
    response: capsSchema,
    handler: () => d.caps(),
  });

  http.route({
    method: 'GET', path: '/api/host/live', tags: TAGS,
    summary: 'This machine now, in full: CPU per core, memory and swap, mounts, disk I/O, interfaces, every sensor, batteries, GPUs',
    description: 'Rates are measured against the previous reading of this process (interval_ms); readings less than 0.5 s apart are shared. ' +
      'While a page subscribes to the live stream topic host.live, the same answer arrives there every probes.live_interval (2 s).',
    response: liveSchema,
    async handler(ctx) {
      ctx.set('Cache-Control', 'no-store');
      return d.live();
    },
  });

  http.route({
    method: 'GET', path: '/api/trend', tags: TAGS,
    summary: 'The history of a range: 24h as minute samples, 7d, 30d and 90d as hourly averages and peaks',
    description: 'At most 1,440 minute rows (24h) or 24 rows a day (2,160 for 90d), read by primary key.',
    query: trendQuery,
    response: trendSchema,
    async handler(ctx) {
      ctx.set('Cache-Control', 'no-store');
      return readTrend(d.store, String(ctx.query.range ?? '24h') as TrendRange, d.now());
    },
  });

  http.route({
    method: 'GET', path: '/api/trendcsv', tags: TAGS,
    summary: 'The history of a range as a CSV download',
    description: 'The same rows as /api/trend, one per line, as an attachment. For a link on the dashboard: the session cookie authenticates it, ' +
      'so the link carries no token (the bearer token in the Authorization header works for scripts).',
    query: trendQuery,
    response: CSV_BODY,
    async handler(ctx) {
      const range = String(ctx.query.range ?? '24h') as TrendRange;
      const trend = await readTrend(d.store, range, d.now());
      ctx.type = 'text/csv; charset=utf-8';
      ctx.set('Cache-Control', 'no-store');
      ctx.set('Content-Disposition', `attachment; filename="host-${range}-${new Date(trend.until - 1).toISOString().slice(0, 10)}.csv"`);
      return Readable.from(trendCsv(trend));
    },
  });

  http.route({
    method: 'GET', path: '/api/processes', tags: TAGS,
    summary: 'The top processes by CPU or memory, with search',
    description: 'CPU shares over the time since the previous walk of /proc (0.5 s on a first request); at most 100 rows.',
    query: processesQuery,
    response: processesSchema,
    async handler(ctx) {
      const sort = ctx.query.sort === 'mem' ? 'mem' : 'cpu';
      const q = typeof ctx.query.q === 'string' ? ctx.query.q : undefined;
      const result = await d.processes.top(sort, Number(ctx.query.limit ?? 25), q);
      ctx.set('Cache-Control', 'no-store');
      return { sort, ...result };
    },
  });

  http.route({
    method: 'GET', path: '/api/kernel', tags: TAGS,
    summary: 'Kernel tunables (sysctl), read-only, with search',
    description: 'Every readable file under /proc/sys as key = value, sorted by key; at most 500 rows (the total says how many match).',
    query: kernelQuery,
    response: kernelSchema,
    handler(ctx) {
      const q = typeof ctx.query.q === 'string' ? ctx.query.q : undefined;
      return d.kernel.search(q, Number(ctx.query.limit ?? 200));
    },
  });
}
