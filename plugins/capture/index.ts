import { ByteBudget, definePlugin, parseByteSize, parseDuration, sandboxFailuresCounter } from '@vigil/plugin-sdk';
import type { RawExchange, SqlValue } from '@vigil/plugin-sdk';
import { recordFields } from './record-batch.js';
import type { PolicyService } from '../../policies/policy-service.js';
import { captureConfigSchema } from './config-schema.js';
import { packExchanges } from './exchange-batch.js';
import { FieldAccumulator } from './field-accumulator.js';
import { writeFields } from './field-writer.js';
import { announceStored } from './live-events.js';
import { captureMigrations } from './migrations.js';
import { unpackRecords } from './record-batch.js';
import { labelValue, meteredTokens, primaryRoute, RecordWriter, storeOutcome } from './record-writer.js';
import { deleteExpired } from './retention.js';
import { registerRecordRoutes } from './routes/records.js';
import { registerOverviewRoute } from './routes/overview.js';
import { registerUsageRoutes } from './routes/usage.js';
import { registerUsageSeriesRoute } from './routes/usage-series.js';
import { registerRuleUsageRoute } from './routes/rule-usage.js';
import { registerIngestRoute } from './routes/ingest.js';
import { registerIngestAuth } from './ingest-auth.js';
import type { CaptureConfig, FlushedFields, FlushFieldsTask, StoredRows, StoreRowsTask, StoreRowsWorkerData } from './types.js';
import type { WorkerPool } from '@vigil/plugin-sdk';

/**
 * The telemetry lane: raw exchanges from the bus go in batches to governance workers; the governed records are
 * stored, metered and published on `gateway.record` for exporters. When it falls behind it drops and counts.
 */
export default definePlugin<CaptureConfig>({
  name: 'capture',
  version: '0.1.0',
  configSchema: captureConfigSchema,
  needs: ['policy', 'store', 'workers', 'http', 'jobs'],
  optional: ['exporters'],
  provides: ['capture'],
  async setup(ctx, config) {
    const maxBodyBytes = parseByteSize(config.max_body_bytes);
    // Every body copy on the lane, from the proxy filling it to the worker done with it, is counted here.
    const budget = new ByteBudget(parseByteSize(config.queue_bytes));
    /** Gives back what an exchange holds, once: the first to let go of it zeroes it. */
    const letGo = (e: RawExchange) => {
      if (e.heldBytes) budget.give(e.heldBytes);
      e.heldBytes = 0;
    };
    const limits = { recordsMs: parseDuration(config.retention), rollupsMs: parseDuration(config.rollup_retention) };
    const sweepMs = parseDuration(config.retention_interval);
    const batchDelayMs = parseDuration(config.batch_delay);
    ctx.services.provide('capture', {
      maxBodyBytes,
      takeBodyBytes: (bytes) => budget.take(bytes),
      giveBodyBytes: (bytes) => budget.give(bytes),
    });

    await ctx.store.migrate(captureMigrations);
    const outcomes = ctx.metrics.counter('vigil_capture_records_total', {
      help: 'Exchanges through the telemetry lane, by outcome: stored, store_failed, govern_failed (refused by governance), or dropped (lane full).',
      labelNames: ['outcome'],
    });
    const stored = outcomes.labels('stored');
    const failed = outcomes.labels('store_failed');
    const dropped = outcomes.labels('dropped');
    const refused = outcomes.labels('govern_failed');
    const droppedBodies = ctx.metrics.counter('vigil_capture_bodies_dropped_total', {
      help: 'Bodies captured exchanges came without, because the lane held capture.queue_bytes of body copies already (the record says so).',
      labelNames: ['part'],
    });
    const droppedRequestBodies = droppedBodies.labels('request_body');
    const droppedResponseBodies = droppedBodies.labels('response_body');
    ctx.metrics.gauge('vigil_capture_queue_bytes', {
      help: 'Bytes of body copies the telemetry lane holds now: being filled by the proxy, queued, batched, or in a worker (bounded by capture.queue_bytes).',
      collect: (g) => g.set(budget.held),
    });
    const sandboxFailures = sandboxFailuresCounter(ctx.metrics);
    const fieldOverflow = ctx.metrics.counter('vigil_capture_fields_overflow_total', {
      help: 'Field observations left out because a bound was reached: cap="route" (fields of one route), cap="total" (routes).',
      labelNames: ['cap'],
    });
    const routeOverflow = fieldOverflow.labels('route');
    const totalOverflow = fieldOverflow.labels('total');
    // Only where worker threads have no store of their own (`sqlite::memory:`): the others hold and write their
    // observations themselves (held-fields.ts), and this stays empty.
    const fields = new FieldAccumulator();
    const countOverflow = (o: { route: number; total: number } | undefined) => {
      if (o?.route) routeOverflow.inc(o.route);
      if (o?.total) totalOverflow.inc(o.total);
    };
    /** Adds what the accumulator holds to `capture_fields`; on failure it is kept for the next flush (bounded). */
    const writeHeldFields = async () => {
      const taken = fields.take();
      try {
        await writeFields(ctx.store, taken);
      } catch (err) {
        countOverflow(fields.restore(taken));
        ctx.log.error('storing observed fields failed; they are kept for the next try', { fields: taken.length, error: (err as Error).message });
      }
    };
    // One write at a time: the flush at stop waits for a timer's write still in flight.
    let fieldsWritten: Promise<void> = Promise.resolve();
    const flushFields = () => (fieldsWritten = fieldsWritten.then(async () => { await flushWorkers(); await writeHeldFields(); }));
    /**
     * One flush task per thread of the pool: piscina gives each to an idle thread (least busy first), so every idle
     * thread writes what it holds; a thread busy with batches writes from a batch once its last write is
     * `fields_flush` old. At stop the lane is drained first, so every thread is idle and writes.
     */
    const flushWorkers = async () => {
      if (!config.record_fields) return;
      const tasks = Array.from({ length: Math.max(1, pool.threads) }, () => pool.run({ flushFields: true }) as Promise<FlushedFields>);
      for (const done of await Promise.allSettled(tasks)) {
        if (done.status === 'rejected') {
          ctx.log.error('a capture worker could not write its observed fields', { error: (done.reason as Error).message });
          continue;
        }
        countOverflow(done.value.fieldOverflow);
        logFieldsError(done.value.fieldsError);
      }
    };
    const logFieldsError = (error: string | undefined) => {
      if (error !== undefined) ctx.log.error('storing observed fields failed; they are kept for the next try', { error });
    };
    const tokens = ctx.metrics.counter('vigil_tokens_total', { help: 'Tokens metered from governed records (meter.tokens).', labelNames: ['route', 'tenant'] });

    const policy: PolicyService = ctx.services.get('policy');
    const workerData: StoreRowsWorkerData = {
      governModule: policy.workerModule.href, tenantLabel: config.tenant_label, recordFields: config.record_fields,
      fieldsFlushMs: parseDuration(config.fields_flush),
    };
    // Every batch the batcher may hold in flight fits the pool's queue (a batch holds at least one of the `queue`
    // pending exchanges), so the batcher's bound is the only place exchanges are refused, one by one and counted;
    // piscina never rejects a task and loses a whole batch; and one flush task per thread besides (flushWorkers).
    const pool = ctx.workers.pool<StoreRowsTask | FlushFieldsTask, StoredRows | FlushedFields>({
      filename: new URL('./store-rows-worker.js', import.meta.url),
      name: 'capture',
      // Threads hold field observations between writes: piscina must not end one that sat idle (it has no hook to
      // write them first).
      minThreads: config.record_fields ? config.workers : 1,
      maxThreads: config.workers,
      maxQueue: config.queue + config.workers,
      workerData,
      // Workers write their own rows: binding and inserting would otherwise take the traffic lane's thread.
      store: true,
      // The telemetry lane never slows the traffic lane, CPU included: on a saturated machine the workers yield it to
      // the event loop, and a backlog they cannot work off ends in counted drops at the batcher.
      background: true,
    });
    const batcher = ctx.workers.batcher<RawExchange, StoredRows, StoreRowsTask>(pool as WorkerPool<StoreRowsTask, StoredRows>, {
      // Each task carries the policy current when it is sent (its JSON, made once per version); its exchanges' buffers
      // move to the worker. The bytes the
      // exchanges held move to the task: the packed copy holds as much until the worker is done with it.
      toTask: (exchanges) => {
        let heldBytes = 0;
        for (const e of exchanges) { heldBytes += e.heldBytes ?? 0; e.heldBytes = 0; }
        try {
          return { policy: policy.current.workerJson, exchanges: packExchanges(exchanges), withRecords: ctx.bus.hasSubscribers('gateway.record'), heldBytes };
        } catch (err) {
          budget.give(heldBytes);
          throw err;
        }
      },
      onSettled: (task) => budget.give(task.heldBytes),
      transferList: (task) => [task.exchanges.numbers.buffer, task.exchanges.bodies.buffer],
      maxBatch: config.batch,
      maxDelayMs: batchDelayMs,
      maxPending: config.queue,
      onResult: async (result) => {
        for (const [reason, n] of Object.entries(result.sandboxFailures)) sandboxFailures.labels('wasm', reason).inc(n);
        countOverflow(result.fieldOverflow);
        if (result.fields?.length) countOverflow(fields.add(result.fields));
        logFieldsError(result.fieldsError);
        if (result.failed > 0) {
          refused.inc(result.failed);
          ctx.log.error('governance refused exchanges; they are not stored', { exchanges: result.failed, error: result.firstError });
        }
        const outcome = result.rows && result.rollups ? await writeHere(result.rows, result.rollups, result.rulePaths ?? []) : result;
        stored.inc(outcome.stored);
        announceStored(ctx.bus, outcome.stored);
        if (outcome.storeFailed > 0) {
          failed.inc(outcome.storeFailed);
          ctx.log.error('storing governed records failed', { records: outcome.storeFailed, error: outcome.storeError });
        }
        for (const [route, tenant, n] of result.tokens) tokens.labels(route, tenant).inc(n);
        // Exporters get the records even when the store failed: they are governed, and may be the only copy.
        if (result.records) for (const record of unpackRecords(result.records)) ctx.bus.publish('gateway.record', record);
      },
    });
    /** Where worker threads cannot open the store (`sqlite::memory:`), their rows are written here. */
    const writer = new RecordWriter(ctx.store);
    const writeHere = (rows: SqlValue[][], rollups: SqlValue[][], rulePaths: SqlValue[][]) =>
      storeOutcome(rows.length, () => writer.write({ rows, rollups, rulePaths }));

    registerRecordRoutes(ctx.http, ctx.store);
    registerOverviewRoute(ctx.http, ctx.store);
    registerUsageRoutes(ctx.http, ctx.store, config);
    registerUsageSeriesRoute(ctx.http, ctx.store, config);
    registerRuleUsageRoute(ctx.http, ctx.store);
    registerIngestAuth(ctx.http, config.ingest_token);
    registerIngestRoute(ctx.http, {
      store: ctx.store, writer, tenantLabel: config.tenant_label,
      stored(records, json) {
        stored.inc(records.length);
        announceStored(ctx.bus, records.length);
        for (const r of records) {
          const t = meteredTokens(r);
          if (t) tokens.labels(primaryRoute(r), labelValue(r, config.tenant_label)).inc(t);
        }
        if (ctx.bus.hasSubscribers('gateway.record')) records.forEach((r, i) => ctx.bus.publish('gateway.record', recordFields(r, json[i])));
      },
    });

    let unsubscribe: (() => Promise<void>) | undefined;
    let fieldTimer: NodeJS.Timeout | undefined;
    // Every process flushes its own accumulator (not a shared job: `jobs.every` runs one process per interval).
    const fieldsFlushMs = parseDuration(config.fields_flush);
    return {
      start() {
        unsubscribe = ctx.bus.subscribe('gateway.exchange', (batch) => {
          for (const e of batch) {
            if (e.requestBodyDropped) droppedRequestBodies.inc();
            if (e.responseBodyDropped) droppedResponseBodies.inc();
            if (!batcher.push(e)) {
              dropped.inc();
              letGo(e);
            }
          }
        }, { queue: config.queue, onDrop: letGo });
        ctx.jobs.every('retention', sweepMs, async () => {
          const deleted = await deleteExpired(ctx.store, { now: Date.now(), ...limits });
          if (deleted.records || deleted.rollups || deleted.rulePaths) ctx.log.debug('retention deleted expired rows', deleted);
        }, { immediate: true });
        if (config.record_fields) fieldTimer = setInterval(() => { void flushFields(); }, fieldsFlushMs).unref();
      },
      async stop() {
        const off = unsubscribe;
        unsubscribe = undefined;
        await off?.();
        await batcher.flush();
        clearInterval(fieldTimer);
        await flushFields();
      },
    };
  },
});
