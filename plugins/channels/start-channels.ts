import { join } from 'node:path';
import { parseDuration, type ChannelDelivery, type ChannelMessage, type ChannelsService, type PluginContext } from '@vigil/plugin-sdk';
import { Agent } from 'undici';
import { ChannelRegistry } from './channel-registry.js';
import { registerChannelRoutes } from './channel-routes.js';
import { createChannelsService } from './channels-service.js';
import { DeliveryRunner, jobKey, type DeliveryJobPayload, type DeliveryOutcome } from './delivery-job.js';
import { DeliveryStore } from './delivery-store.js';
import { channelsMigrations } from './migrations.js';
import { pendingDeliveriesGauge } from './pending-gauge.js';
import { secretBoxOpener } from './secret-box.js';
import { senders } from './senders/by-type.js';
import type { Channel, ChannelsConfig } from './types.js';

export interface RunningChannels {
  service: ChannelsService;
  stop(): Promise<void>;
  reload(next: ChannelsConfig): void;
}

/** Keys the queue's workers are built with: a reload cannot apply them. */
const RESTART_KEYS = ['max_attempts', 'backoff', 'max_backoff', 'timeout', 'concurrency', 'key_file'] as const;
/** How often pending deliveries whose job may have been lost are queued again, and how old they must be. */
const REQUEUE_EVERY_MS = 60_000;
const REQUEUE_AFTER_MS = 5 * 60_000;

/**
 * Builds the channels: tables, the registry (config file and store), the durable delivery queue and its runner, the
 * service other plugins call, the routes, and the housekeeping (re-queue lost jobs, prune settled deliveries).
 */
export async function startChannels(ctx: PluginContext, config: ChannelsConfig, env: NodeJS.ProcessEnv = process.env): Promise<RunningChannels> {
  await ctx.store.migrate(channelsMigrations);
  let current = config;
  const keyFile = config.key_file ? ctx.resolvePath(config.key_file) : join(ctx.dataDir, 'secrets.key');
  const openBox = secretBoxOpener(keyFile);
  const registry = new ChannelRegistry(ctx.store, openBox, config.targets);
  const deliveries = new DeliveryStore(ctx.store);
  const timeoutMs = parseDuration(config.timeout);
  // A send's lease outlasts its deadline; the job's timeout outlasts the lease, so a job whose process died is taken
  // over only once no send of it can still be under way. Three deadlines: SMTP applies one to each of its phases
  // (connect, greeting, each reply).
  const leaseMs = 3 * timeoutMs + 15_000;
  const dispatcher = new Agent({ keepAliveTimeout: 10_000, connections: 8, connect: { timeout: timeoutMs } });

  const counter = ctx.metrics.counter('deliveries_total', {
    help: 'Notification deliveries by channel and outcome: delivered, failed (permanently, or out of attempts), retried (an attempt failed, another follows).',
    labelNames: ['channel', 'outcome'],
  });
  const tests = ctx.metrics.counter('tests_total', { help: 'Test notifications sent from the dashboard, by channel and outcome (delivered, failed).', labelNames: ['channel', 'outcome'] });
  const counted = (channelId: string, outcome: DeliveryOutcome) => counter.labels(channelId, outcome).inc();
  const pendingGauge = pendingDeliveriesGauge(ctx);

  const send = async (channel: Channel, message: ChannelMessage, eventId: string, key: string, test = false) => {
    try {
      await senders[channel.type](channel, message, { eventId, idempotencyKey: key, timeoutMs, dispatcher, test, env });
      if (test) tests.labels(channel.id, 'delivered').inc();
    } catch (err) {
      if (test) tests.labels(channel.id, 'failed').inc();
      throw err;
    }
  };

  const changed = (delivery: ChannelDelivery) => { ctx.bus.publish('channels.delivery', delivery); };

  const runner = new DeliveryRunner({
    deliveries, channel: (id) => registry.get(id), send: (c, m, e, k) => send(c, m, e, k), maxAttempts: config.max_attempts, leaseMs, changed, counted,
  });
  const queue = ctx.jobs.queue<DeliveryJobPayload>('deliveries', (job) => runner.run(job), {
    concurrency: config.concurrency,
    // Jobs are grouped by channel: one slow or failing receiver holds at most half the slots.
    groupConcurrency: Math.max(1, Math.ceil(config.concurrency / 2)),
    maxAttempts: config.max_attempts,
    backoffMs: parseDuration(config.backoff),
    maxBackoffMs: parseDuration(config.max_backoff),
    timeoutMs: leaseMs + 5_000,
    pollMs: 250,
  });

  const service = createChannelsService({ registry, deliveries, queue, send, changed, counted }, () => safeUrl(ctx));
  ctx.services.provide('channels', service);
  registerChannelRoutes(ctx.http, registry, service);

  ctx.jobs.every('requeue', REQUEUE_EVERY_MS, async () => {
    const stale = await deliveries.stalePending(Date.now() - REQUEUE_AFTER_MS, 500);
    if (stale.length) await queue.enqueueMany(stale.map((d) => ({ payload: d, options: { dedupeKey: jobKey(d.event_id, d.channel_id), group: d.channel_id } })));
  });
  ctx.jobs.every('prune', 60 * 60_000, async () => {
    const deleted = await deliveries.prune(Date.now() - parseDuration(current.retention));
    if (deleted) ctx.log.debug('channels: pruned settled deliveries past retention', { deleted });
  });

  let stopped = false;
  return {
    service,
    async stop() {
      if (stopped) return;
      stopped = true;
      pendingGauge.stop();
      await dispatcher.close();
    },
    reload(next) {
      for (const key of RESTART_KEYS) {
        if (JSON.stringify(next[key]) !== JSON.stringify(current[key])) throw new Error(`channels.${key} changed: restart vigil to apply it`);
      }
      registry.setConfigured(next.targets);
      current = next;
    },
  };
}

function safeUrl(ctx: PluginContext): string | undefined {
  try {
    return ctx.runtime.controlPlaneUrl();
  } catch {
    return undefined;
  }
}
