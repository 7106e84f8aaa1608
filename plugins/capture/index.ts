import { definePlugin, parseByteSize, parseDuration } from '@vigil/plugin-sdk';
import type { PolicyConfig } from '../../policies/schema.js';
import type { GovernedRecord, GovernTask, RawExchange } from '../redaction/types.js';
import { captureConfigSchema } from './config-schema.js';
import { captureMigrations } from './migrations.js';
import { RecordWriter, primaryRoute } from './record-writer.js';
import { registerRecordRoutes } from './routes/records.js';
import { registerOverviewRoute } from './routes/overview.js';
import { registerUsageRoutes } from './routes/usage.js';
import type { CaptureConfig } from './types.js';
import './types.js';

/**
 * The telemetry lane: raw exchanges from the bus go in batches to governance workers; the governed records are
 * stored, metered and published on `gateway.record` for exporters. When it falls behind it drops and counts.
 */
export default definePlugin<CaptureConfig>({
  name: 'capture',
  version: '0.1.0',
  configSchema: captureConfigSchema,
  needs: ['redaction', 'store', 'workers', 'http', 'jobs'],
  optional: ['exporters'],
  provides: ['capture'],
  async setup(ctx, config) {
    const maxBodyBytes = parseByteSize(config.max_body_bytes);
    let policy: PolicyConfig = { rules: [] };
    ctx.services.provide('capture', { maxBodyBytes, usePolicy: (p) => { policy = { rules: p.rules ?? [] }; } });

    await ctx.store.migrate(captureMigrations);
    const writer = new RecordWriter(ctx.store, config.tenant_label);
    const records = ctx.metrics.counter('vigil_capture_records_total', { help: 'Governed records, by outcome.', labelNames: ['outcome'] });
    const stored = records.labels('stored');
    const failed = records.labels('store_failed');
    const tokens = ctx.metrics.counter('vigil_tokens_total', { help: 'Tokens metered from governed records (meter.tokens).', labelNames: ['route', 'tenant'] });

    const redaction = ctx.services.get('redaction');
    const pool = ctx.workers.pool<GovernTask, GovernedRecord[]>({
      filename: redaction.workerModule, name: 'capture', minThreads: 1, maxThreads: config.workers, maxQueue: Math.max(4, config.workers * 4),
    });
    // The batcher's task is `GovernTask`, built from each batch of exchanges with the current policy.
    const governPool = {
      ...pool,
      run: (exchanges: RawExchange[]) => pool.run({ policy, exchanges }),
    };
    const batcher = ctx.workers.batcher<RawExchange, GovernedRecord[]>(governPool as never, {
      maxBatch: config.batch,
      maxDelayMs: 20,
      maxPending: config.queue,
      onResult: async (out) => {
        try {
          await writer.write(out);
          stored.inc(out.length);
        } catch (err) {
          failed.inc(out.length);
          ctx.log.error('storing governed records failed', { records: out.length, error: err });
        }
        for (const r of out) {
          if (r.tokens) tokens.labels(primaryRoute(r), r.labels[config.tenant_label] ?? '').inc(r.tokens);
          ctx.bus.publish('gateway.record', r);
        }
      },
    });

    registerRecordRoutes(ctx.http, ctx.store);
    registerOverviewRoute(ctx.http, ctx.store);
    registerUsageRoutes(ctx.http, ctx.store, config);

    const retentionMs = parseDuration(config.retention);
    const rollupRetentionMs = parseDuration(config.rollup_retention);
    let unsubscribe: (() => Promise<void>) | undefined;
    return {
      start() {
        // Exchanges are already bounded copies; a full batcher drops (vigil_workers_dropped_total{pool="capture"}).
        unsubscribe = ctx.bus.subscribe('gateway.exchange', (batch) => { for (const e of batch) batcher.push(e); }, { queue: config.queue });
        ctx.jobs.every('retention', 10 * 60_000, async () => {
          const now = Date.now();
          await ctx.store.run(`DELETE FROM ${ctx.store.table('records')} WHERE time < ?`, [now - retentionMs]);
          await ctx.store.run(`DELETE FROM ${ctx.store.table('rollups')} WHERE bucket < ?`, [now - rollupRetentionMs]);
        }, { immediate: true });
      },
      async stop() {
        await unsubscribe?.();
        await batcher.flush();
      },
    };
  },
});
