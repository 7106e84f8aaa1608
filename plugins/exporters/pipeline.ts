import type { Counter, DeliveryQueue, PluginContext, PluginInstance, SubscribeOptions } from '@vigil/plugin-sdk';
import { parseDuration, sandboxFailuresCounter } from '@vigil/plugin-sdk';
import type { ExporterConfig } from './config-schema.js';
import type { Exporter, ExportRecord } from './exporter.js';
import { buildExporter } from './build-exporter.js';

/** Total time `stop` gives the queues to deliver what they hold. */
const DRAIN_MS = 5_000;
const DEFAULT_ATTEMPT_TIMEOUT_MS = 10_000;

interface Stage {
  config: ExporterConfig;
  exporter: Exporter<ExportRecord>;
  queue: DeliveryQueue<ExportRecord>;
}

// Topics come from config strings, so the typed `subscribe` is used through its untyped shape.
type Subscribe = (topic: string, handler: (batch: ExportRecord[]) => void, options?: SubscribeOptions & { subscriber?: string }) => () => void;

/**
 * The exporters and their delivery queues. Each exporter's queue is fed by its topics on the bus, except an exporter
 * named as a wasm exporter's `next`: it receives only what that module returns. Stop is upstream-first: unsubscribe,
 * drain the wasm stages, then the exporters they feed, then release files, sockets and processes.
 */
export async function createExportPipeline(ctx: PluginContext, configs: readonly ExporterConfig[]): Promise<PluginInstance> {
  const stages = new Map<string, Stage>();
  let sandboxFailures: Counter | undefined;
  const sandboxFailure = (reason: string): void => {
    sandboxFailures ??= sandboxFailuresCounter(ctx.metrics);
    sandboxFailures.labels('wasm', reason).inc();
  };
  const built: Exporter<ExportRecord>[] = [];
  try {
    for (const [i, config] of configs.entries()) {
      built.push(await buildExporter(config, {
        ctx,
        where: `exporters[${i}]`,
        attemptTimeoutMs: attemptTimeoutOf(config),
        forward: (name, records) => stages.get(name)!.queue.pushMany(records),
        sandboxFailure,
      }));
    }
  } catch (err) {
    // Setup failed part-way: release what was built (files, a sandbox's workers) before the runtime stops.
    await Promise.all(built.map((e) => e.shutdown().catch(() => {})));
    throw err;
  }
  configs.forEach((config, i) => {
    const attemptTimeoutMs = attemptTimeoutOf(config);
    const exporter = built[i];
    const queue = ctx.deliveryQueue<ExportRecord>({
      name: config.name,
      send: (batch, signal) => exporter.send(batch, signal),
      maxQueue: config.queue_size,
      maxBatch: config.batch_size,
      maxDelayMs: config.batch_timeout === undefined ? undefined : parseDuration(config.batch_timeout),
      attemptTimeoutMs,
      maxAttempts: config.max_attempts,
    });
    stages.set(config.name, { config, exporter, queue });
  });
  const fedByWasm = new Set(configs.flatMap((c) => (c.type === 'wasm' ? [c.next] : [])));
  const unsubscribes: (() => void)[] = [];
  let stopping: Promise<void> | undefined;

  return {
    start() {
      for (const { exporter } of stages.values()) exporter.start?.();
      const subscribe = ctx.bus.subscribe.bind(ctx.bus) as unknown as Subscribe;
      for (const { config, queue } of stages.values()) {
        if (fedByWasm.has(config.name)) continue;
        for (const topic of config.topics ?? ['gateway.record']) {
          unsubscribes.push(subscribe(topic, (batch) => { queue.pushMany(batch); }, { subscriber: `exporters.${config.name}` }));
        }
      }
    },
    stop() {
      stopping ??= (async () => {
        for (const unsubscribe of unsubscribes.splice(0)) unsubscribe();
        const deadline = Date.now() + DRAIN_MS;
        const order = drainOrder(configs);
        for (let i = 0; i < order.length; i++) {
          const share = Math.max(50, (deadline - Date.now()) / (order.length - i));
          await Promise.all(order[i].map((name) => stages.get(name)!.queue.shutdown(share)));
        }
        await Promise.all([...stages.values()].map(({ config, exporter }) => exporter.shutdown().catch((err: unknown) => {
          ctx.log.warn('exporter did not shut down cleanly', { exporter: config.name, error: (err as Error).message });
        })));
      })();
      return stopping;
    },
  };
}

function attemptTimeoutOf(config: ExporterConfig): number {
  return config.timeout === undefined ? DEFAULT_ATTEMPT_TIMEOUT_MS : parseDuration(config.timeout);
}

/** Stages of exporter names, upstream first: exporters fed by the bus, then those fed by their wasm exporters, … */
function drainOrder(configs: readonly ExporterConfig[]): string[][] {
  const feeds = new Map<string, string>();
  for (const c of configs) if (c.type === 'wasm') feeds.set(c.next, c.name);
  const depth = (name: string): number => (feeds.has(name) ? 1 + depth(feeds.get(name)!) : 0);
  const stages: string[][] = [];
  for (const c of configs) (stages[depth(c.name)] ??= []).push(c.name);
  return stages.filter(Boolean);
}
