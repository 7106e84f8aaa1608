// Scans (folder sizes, duplicates, old files, filename search): start one and read its progress, or ask perch's
// GET routes, which answer when the scan ends (at most its budget and a grace period later).
import { httpError, type HttpRoutes, type RouteContext } from '@vigil/plugin-sdk';
import { FilesErrors } from './errors.js';
import type { ScanJob, ScanJobs } from './scan-jobs.js';
import { planScan, type ScanRequest, type ScanSettings } from './scan-requests.js';
import type { SizesTree } from './scan/scan-types.js';
import { scanView, SizesIndex } from './scan-view.js';
import {
  dupesQuery, duQuery, folderQuery, folderSchema, oldFilesQuery, scanBody, scanListSchema, scanSchema, searchQuery,
} from './response-schemas.js';

const TAGS = ['host'];
// Reading names and sizes anywhere on the machine is the owner's (the dashboard token's) alone.
const ROLE = 'owner' as const;

export function registerScanRoutes(http: HttpRoutes, jobs: ScanJobs, settings: ScanSettings): void {
  const extra = new WeakMap<ScanJob, { clockNote?: string; index?: SizesIndex }>();
  const indexOf = (job: ScanJob): SizesIndex | undefined => {
    if (job.params.kind !== 'sizes' || job.state !== 'done' || !job.result) return undefined;
    const e = extra.get(job) ?? {};
    e.index ??= new SizesIndex(job.result as SizesTree);
    extra.set(job, e);
    return e.index;
  };
  const view = (job: ScanJob) => scanView(job, settings.now(), indexOf(job), extra.get(job)?.clockNote);
  const start = async (request: ScanRequest): Promise<ScanJob> => {
    const { params, limits, clockNote } = await planScan(request, settings);
    const job = jobs.start(params, limits);
    if (!job) throw httpError(FilesErrors.BUSY, `${jobs.running()} scans are running already (files.max_scans); wait for one or cancel one`);
    extra.set(job, { clockNote });
    return job;
  };
  const found = (ctx: RouteContext): ScanJob => {
    const job = jobs.get(ctx.params.id);
    if (!job) throw httpError(FilesErrors.SCAN_UNKNOWN, `no scan ${JSON.stringify(ctx.params.id)} (finished scans are kept 15 minutes)`);
    return job;
  };
  const finished = async (request: ScanRequest) => {
    const job = await start(request);
    await job.finished;
    return view(job);
  };

  http.route({
    method: 'POST', path: '/api/storage/scans', tags: TAGS, role: ROLE, status: 202,
    summary: 'Start a scan: folder sizes, duplicates, big old files, or a filename search',
    description: 'It runs in its own worker thread under a time budget and answers at once; read its progress with GET /api/storage/scans/:id. ' +
      'At most files.max_scans run at once (429 past it).',
    body: scanBody,
    response: scanSchema,
    async handler(ctx) {
      return view(await start(ctx.request.body as ScanRequest));
    },
  });

  http.route({
    method: 'GET', path: '/api/storage/scans', tags: TAGS, role: ROLE,
    summary: 'The scans running and those finished in the last 15 minutes',
    description: 'Each without its results (read one scan for them); at most 32 finished ones are kept.',
    response: scanListSchema,
    handler() {
      const now = settings.now();
      return {
        scans: jobs.list().slice(-64).map((j) => {
          const { folder: _f, duplicates: _d, old_files: _o, hits: _h, ...rest } = scanView(j, now);
          return rest;
        }),
      };
    },
  });

  http.route({
    method: 'GET', path: '/api/storage/scans/:id', tags: TAGS, role: ROLE,
    summary: 'A scan\'s progress (counts, the folder it reads, results so far) or its answer',
    response: scanSchema,
    handler(ctx) {
      ctx.set('Cache-Control', 'no-store');
      return view(found(ctx));
    },
  });

  http.route({
    method: 'DELETE', path: '/api/storage/scans/:id', tags: TAGS, role: ROLE,
    summary: 'Cancel a scan: it ends with what it counted so far (stop: cancelled)',
    response: scanSchema,
    async handler(ctx) {
      const job = found(ctx);
      job.cancel();
      await job.finished;
      return view(job);
    },
  });

  http.route({
    method: 'GET', path: '/api/storage/scans/:id/folder', tags: TAGS, role: ROLE,
    summary: 'One folder of a finished sizes scan, for the drill-down: its children largest first',
    description: 'From the tree the scan kept (no new walk); at most 500 children.',
    query: folderQuery,
    response: folderSchema,
    handler(ctx) {
      const job = found(ctx);
      const index = indexOf(job);
      if (!index) throw httpError(FilesErrors.SCAN_KIND, 'this scan is not a finished folder-size scan');
      const folder = index.folder(String(ctx.query.path));
      if (!folder) throw httpError(FilesErrors.PATH, `${JSON.stringify(ctx.query.path)} is not a folder this scan counted`);
      return folder;
    },
  });

  // perch's names: each runs a scan and answers when it ends.
  http.route({
    method: 'GET', path: '/api/du', tags: TAGS, role: ROLE,
    summary: 'Folder sizes under a folder (perch\'s du): the children largest first, when the scan ends',
    description: 'Stays on the folder\'s filesystem and never follows symbolic links; budget in seconds (default files.budget). ' +
      'An early stop is in `stop` and `note`.',
    query: duQuery,
    response: scanSchema,
    handler: (ctx) => finished({ kind: 'sizes', path: ctx.query.path as string | undefined, budget: ctx.query.budget as number | undefined }),
  });

  http.route({
    method: 'GET', path: '/api/dupes', tags: TAGS, role: ROLE,
    summary: 'Duplicate files under a folder: same size, then the same first 64 KB, then the same whole file',
    description: 'Deletes nothing. Groups sorted by the space they waste (at most 1,000, 100 paths each).',
    query: dupesQuery,
    response: scanSchema,
    handler: (ctx) => finished({ kind: 'duplicates', path: ctx.query.path as string | undefined, budget: ctx.query.budget as number | undefined, min_size: ctx.query.min_size as number | undefined }),
  });

  http.route({
    method: 'GET', path: '/api/oldfiles', tags: TAGS, role: ROLE,
    summary: 'Big files not opened for a long time (atime where the mount records it, else mtime, as clock_note says)',
    description: 'Deletes nothing. Largest first (default: 10 MiB or more, 180 days, 200 rows).',
    query: oldFilesQuery,
    response: scanSchema,
    handler: (ctx) => finished({
      kind: 'old-files', path: ctx.query.path as string | undefined, budget: ctx.query.budget as number | undefined,
      min_size: ctx.query.min_size as number | undefined, days: ctx.query.days as number | undefined, limit: ctx.query.limit as number | undefined,
    }),
  });

  http.route({
    method: 'GET', path: '/api/search', tags: TAGS, role: ROLE,
    summary: 'Whole-system filename search (perch\'s search?q&regex): names containing q, or matching it as a regular expression',
    description: 'Walks files.scan_roots (or path) without following links, skipping /proc, /sys and other kernel filesystems. ' +
      'A regular expression runs in the scan\'s worker thread: one that backtracks without end is stopped at the budget (stop: deadline) ' +
      'with the matches found before. At most limit results (500).',
    query: searchQuery,
    response: scanSchema,
    handler: (ctx) => finished({
      kind: 'search', q: ctx.query.q as string, regex: ctx.query.regex === '1' || ctx.query.regex === 'true', path: ctx.query.path as string | undefined,
      budget: ctx.query.budget as number | undefined, limit: ctx.query.limit as number | undefined, case_sensitive: ctx.query.case === '1',
    }),
  });
}
