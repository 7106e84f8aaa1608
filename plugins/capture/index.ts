import { ByteBudget, definePlugin, parseByteSize, parseDuration, type WorkerPool, type WorkerPools } from '@vigil/plugin-sdk';
import type { PolicyService } from '../../gateway/govern/policy-service.js';
import { captureConfigSchema } from '../../gateway/records/capture-config.js';
import { captureMigrations } from '../../gateway/records/migrations.js';
import { RecordWriter } from '../../gateway/records/record-writer.js';
import { deleteExpired } from '../../gateway/records/retention.js';
import type {
  CaptureConfig, FlushedFields, FlushFieldsTask, IngestedRecords, IngestTask, StoredRows, StoreRowsTask, StoreRowsWorkerData,
} from '../../gateway/records/lane-tasks.js';
import { STORE_ROWS_WORKER } from '../../gateway/records/store-rows-worker-url.js';
import { BatchOutcomes } from './batch-outcomes.js';
import { ExchangeIntake } from './exchange-intake.js';
import { FieldFlush } from './field-flush.js';
import { laneMetrics } from './lane-metrics.js';
import { registerRecordRoutes } from './routes/records.js';
import { registerOverviewRoute } from './routes/overview.js';
import { registerUsageRoutes } from './routes/usage.js';
import { registerUsageSeriesRoute } from './routes/usage-series.js';
import { registerRuleUsageRoute } from './routes/rule-usage.js';
import { MAX_INGEST_IN_FLIGHT, registerIngestRoute } from './routes/ingest.js';
import { registerIngestAuth } from './ingest-auth.js';
import { rollupWindows } from '../../gateway/records/rollup-windows.js';
import { indexNewRecords } from '../../gateway/records/record-search-index.js';

/** How often the body search index takes the records stored since its last run. */
const SEARCH_INDEX_INTERVAL_MS = 5_000;

type CapturePool = WorkerPool<StoreRowsTask | FlushFieldsTask | IngestTask, StoredRows | FlushedFields | IngestedRecords>;

/**
 * The telemetry lane: raw exchanges from the bus go in batches to governance workers; the governed records are
 * stored, metered and published on `gateway.record` for exporters. When it falls behind it drops and counts. The
 * parts: the lane's metrics (lane-metrics.ts), its ExchangeProcessor (exchange-intake.ts) and RecordExporter
 * (batch-outcomes.ts), the field observations' writes (field-flush.ts), and the routes; the record store itself is
 * gateway/records.
 */
export default definePlugin<CaptureConfig>({
  name: 'capture',
  version: '0.1.0',
  configSchema: captureConfigSchema,
  needs: ['policy', 'store', 'workers', 'http', 'jobs'],
  optional: ['exporters'],
  provides: ['capture'],
  async setup(ctx, config) {
    // Every body copy on the lane, from the proxy filling it to the worker done with it, is counted here.
    const budget = new ByteBudget(parseByteSize(config.queue_bytes));
    ctx.services.provide('capture', {
      maxBodyBytes: parseByteSize(config.max_body_bytes),
      takeBodyBytes: (bytes) => budget.take(bytes),
      giveBodyBytes: (bytes) => budget.give(bytes),
      rollupWindows: (query) => rollupWindows(ctx.store, query),
    });
    await ctx.store.migrate(captureMigrations);
    const metrics = laneMetrics(ctx.metrics, budget);
    const policy: PolicyService = ctx.services.get('policy');
    const pool = capturePool(ctx.workers, config);
    const fields = new FieldFlush(ctx.store, () => pool as WorkerPool<FlushFieldsTask, FlushedFields>, ctx.log, metrics.countOverflow, config.record_fields !== false);
    const writer = new RecordWriter(ctx.store);
    const outcomes = new BatchOutcomes(ctx.bus, ctx.log, metrics, fields, writer, config.tenant_label);
    const intake = new ExchangeIntake(ctx.workers, pool as WorkerPool<StoreRowsTask, StoredRows>, policy, ctx.bus, budget, metrics, outcomes, {
      maxBatch: config.batch, maxDelayMs: parseDuration(config.batch_delay), maxPending: config.queue,
    });

    registerRecordRoutes(ctx.http, ctx.store, config.tenant_label);
    registerOverviewRoute(ctx.http, ctx.store);
    registerUsageRoutes(ctx.http, ctx.store, config);
    registerUsageSeriesRoute(ctx.http, ctx.store, config);
    registerRuleUsageRoute(ctx.http, ctx.store);
    registerIngestAuth(ctx.http, config.ingest_token);
    registerIngestRoute(ctx.http, {
      store: ctx.store, writer, tenantLabel: config.tenant_label,
      run: (body) => pool.run(
        { ingest: body, policy: policy.current.workerJson, withRecords: ctx.bus.hasSubscribers('gateway.record') },
        { transferList: [body.buffer] },
      ) as Promise<IngestedRecords>,
      stored: (batch) => outcomes.ingested(batch),
    });

    const limits = { recordsMs: parseDuration(config.retention), rollupsMs: parseDuration(config.rollup_retention) };
    let unsubscribe: (() => Promise<void>) | undefined;
    let fieldTimer: NodeJS.Timeout | undefined;
    return {
      start() {
        unsubscribe = ctx.bus.subscribe('gateway.exchange', (batch) => {
          for (const e of batch) intake.push(e);
        }, { queue: config.queue, onDrop: (e) => intake.letGo(e) });
        ctx.jobs.every('retention', parseDuration(config.retention_interval), async () => {
          const deleted = await deleteExpired(ctx.store, { now: Date.now(), ...limits });
          if (deleted.records || deleted.rollups || deleted.rulePaths) ctx.log.debug('retention deleted expired rows', deleted);
        }, { immediate: true });
        // The body search index: off the insert path, in bounded batches (gateway/records/record-search-index.ts).
        ctx.jobs.every('search-index', SEARCH_INDEX_INTERVAL_MS, async () => { await indexNewRecords(ctx.store); }, { immediate: true });
        // Every process flushes its own observations (not a shared job: `jobs.every` runs one process per interval).
        if (config.record_fields) fieldTimer = setInterval(() => { void fields.flush(); }, parseDuration(config.fields_flush)).unref();
      },
      async stop() {
        const off = unsubscribe;
        unsubscribe = undefined;
        await off?.();
        await intake.flush();
        clearInterval(fieldTimer);
        await fields.flush();
      },
    };
  },
});

/**
 * The capture pool. Every batch the intake may hold in flight fits the pool's queue (a batch holds at least one of the
 * `queue` pending exchanges), so the intake's bound is the only place exchanges are refused, one by one and counted;
 * piscina never rejects a task and loses a whole batch; and one flush task per thread besides (field-flush.ts), and
 * the ingest route's bodies, which it bounds itself (MAX_INGEST_IN_FLIGHT).
 */
function capturePool(workers: WorkerPools, config: CaptureConfig): CapturePool {
  const workerData: StoreRowsWorkerData = {
    tenantLabel: config.tenant_label, recordFields: config.record_fields, fieldsFlushMs: parseDuration(config.fields_flush),
  };
  return workers.pool({
    filename: STORE_ROWS_WORKER,
    name: 'capture',
    // Threads hold field observations between writes: piscina must not end one that sat idle (it has no hook to
    // write them first).
    minThreads: config.record_fields ? config.workers : 1,
    maxThreads: config.workers,
    maxQueue: config.queue + config.workers + MAX_INGEST_IN_FLIGHT,
    workerData,
    // Workers write their own rows: binding and inserting would otherwise take the traffic lane's thread.
    store: true,
    // The telemetry lane never slows the traffic lane, CPU included: on a saturated machine the workers yield it to
    // the event loop, and a backlog they cannot work off ends in counted drops at the batcher.
    background: true,
  });
}
