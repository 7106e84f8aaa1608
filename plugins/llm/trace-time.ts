/**
 * When a trace happened, for its `created_at`: what lists sort by, charts and stats bucket by, eval scores and
 * retention read. A client that batches, retries or buffers through an outage sends its calls late; stamped with
 * the time they arrived, an hour's calls would pile up in the minute of the flush. So a call's own `start_time` is
 * its time, as Langfuse does with its clients' timestamps, when it lies within the last `MAX_BACKDATE_MS`. Earlier
 * than that (a replay of old logs, a clock far behind) the trace takes the time it arrived, and `start_time` is kept as
 * sent: a trace dated weeks back would fall out of retention at the next sweep and change figures long read. Ahead
 * of the clock it takes the arrival time too (item-schema.ts refuses more than 5 minutes ahead).
 *
 * The month a call is counted in for plan limits and budgets stays the month it arrived (usage-book.ts): a limit is
 * a promise about what ingest accepts in a month, and a late batch must not reopen a month already closed.
 */

/** How far back a call's own start time may date its trace: a week covers a client's buffering and retries. */
export const MAX_BACKDATE_MS = 7 * 86_400_000;

/** The trace's time (epoch ms): `startTime` when it is within [receivedAt - MAX_BACKDATE_MS, receivedAt], else `receivedAt`. */
export function traceTime(startTime: string | undefined, receivedAt: number): number {
  if (startTime === undefined) return receivedAt;
  const start = Date.parse(startTime);
  return Number.isFinite(start) && start <= receivedAt && start >= receivedAt - MAX_BACKDATE_MS ? start : receivedAt;
}
