// Requests, errors and p95 latency per window of whole minutes, read from the minute rollups (`capture_rollups`):
// what the `capture` service's `rollupWindows` answers (alert conditions over the gateway's traffic).
import type { Store } from '@vigil/plugin-sdk';
import type { RollupWindow } from '../exchange/capture-service.js';
import { BUCKET_COLUMNS, quantileMs } from './latency-buckets.js';

const MINUTE = 60_000;
/** Most windows one call reads. */
export const MAX_ROLLUP_WINDOWS = 1_500;
const sums = ['requests', 'errors', ...BUCKET_COLUMNS].map((c) => `SUM(${c}) AS ${c}`).join(', ');

/** Consecutive windows of whole minutes ending at `to`, oldest first: one grouped query over the rollups' bucket index. */
export async function rollupWindows(store: Store, q: { route?: string; to: number; stepMs: number; count: number }): Promise<RollupWindow[]> {
  const step = Math.max(MINUTE, q.stepMs - (q.stepMs % MINUTE));
  if (!(q.count >= 1 && q.count <= MAX_ROLLUP_WINDOWS)) throw new RangeError(`rollupWindows: 1..${MAX_ROLLUP_WINDOWS} windows`);
  const to = q.to - (q.to % MINUTE);
  const from = to - q.count * step;
  const params: (string | number)[] = [from, to];
  let where = 'bucket >= ? AND bucket < ?';
  if (q.route !== undefined) { where += ' AND route = ?'; params.push(q.route); }
  const rows = await store.query<Record<string, number | string | null>>(
    `SELECT (bucket - ${from}) / ${step} AS slot, ${sums} FROM capture_rollups WHERE ${where} GROUP BY (bucket - ${from}) / ${step}`, params);
  const windows: RollupWindow[] = Array.from({ length: q.count }, () => ({ requests: 0, errors: 0, p95_latency_ms: null }));
  for (const r of rows) {
    const w = windows[Math.floor(Number(r.slot))];
    if (!w) continue;
    w.requests = Number(r.requests ?? 0);
    w.errors = Number(r.errors ?? 0);
    w.p95_latency_ms = quantileMs(BUCKET_COLUMNS.map((c) => Number(r[c] ?? 0)), 0.95);
  }
  return windows;
}
