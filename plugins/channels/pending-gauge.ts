import type { Metrics, PluginContext } from '@vigil/plugin-sdk';

/** How often the count is read from the store: a scrape reads the last count, never the store. */
export const PENDING_REFRESH_MS = 10_000;

/**
 * `vigil_channels_deliveries_pending`: deliveries waiting to be sent or retried, across every process sharing the
 * store (so each process reports the same figure). A count that keeps growing means a receiver is down or slow;
 * one index range (`channels_deliveries_pending`) per refresh. Returns the refresh, for a caller that needs it now.
 */
export function pendingDeliveriesGauge(ctx: Pick<PluginContext, 'store' | 'contain'> & { metrics: Metrics }): { refresh(): Promise<void>; stop(): void } {
  let pending = 0;
  ctx.metrics.gauge('deliveries_pending', {
    help: 'Notification deliveries waiting to be sent or retried, in the store (every process sharing it reports the same count).',
    collect: (g) => g.set(pending),
  });
  const refresh = async () => {
    const [row] = await ctx.store.query<{ n: number | string }>("SELECT COUNT(*) AS n FROM channels_deliveries WHERE state = 'pending'");
    pending = Number(row?.n ?? 0);
  };
  const timer = setInterval(ctx.contain('count pending deliveries', refresh), PENDING_REFRESH_MS);
  timer.unref();
  void refresh().catch(() => {});
  return { refresh, stop: () => clearInterval(timer) };
}
