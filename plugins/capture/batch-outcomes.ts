// The lane's RecordExporter: what each batch became, finished on the event loop. Counts and metrics, the rows a
// thread could not write itself (`sqlite::memory:`), and the records on `gateway.record` for the exporters. The
// ingest route's batches end here too.
import type { Bus, Logger, SqlValue } from '@vigil/plugin-sdk';
import type { RecordExporter } from '../../gateway/lane-stages.js';
import { recordFields, unpackRecords, type PackedRecords } from '../../gateway/records/record-batch.js';
import { labelValue, meteredTokens, primaryRoute, RecordWriter, storeOutcome } from '../../gateway/records/record-writer.js';
import type { StoredRows } from '../../gateway/records/lane-tasks.js';
import type { FieldFlush } from './field-flush.js';
import type { LaneMetrics } from './lane-metrics.js';
import { announceStored } from './live-events.js';
import type { IngestStored } from './routes/ingest.js';

export class BatchOutcomes implements RecordExporter {
  constructor(
    private readonly bus: Bus, private readonly log: Logger, private readonly metrics: LaneMetrics,
    private readonly fields: FieldFlush, private readonly writer: RecordWriter, private readonly tenantLabel: string,
  ) {}

  async export(result: StoredRows): Promise<void> {
    const m = this.metrics;
    for (const [reason, n] of Object.entries(result.sandboxFailures)) m.sandboxFailures.labels('wasm', reason).inc(n);
    m.countOverflow(result.fieldOverflow);
    if (result.fields?.length) this.fields.add(result.fields);
    this.fields.logError(result.fieldsError);
    if (result.failed > 0) {
      m.refused.inc(result.failed);
      this.log.error('governance refused exchanges; they are not stored', { exchanges: result.failed, error: result.firstError });
    }
    const outcome = result.rows && result.rollups ? await this.writeHere(result.rows, result.rollups, result.rulePaths ?? []) : result;
    m.stored.inc(outcome.stored);
    announceStored(this.bus, outcome.stored);
    if (outcome.storeFailed > 0) {
      m.storeFailed.inc(outcome.storeFailed);
      this.log.error('storing governed records failed', { records: outcome.storeFailed, error: outcome.storeError });
    }
    for (const [route, tenant, n] of result.tokens) m.tokens.labels(route, tenant).inc(n);
    // Exporters get the records even when the store failed: they are governed, and may be the only copy.
    this.publish(result.records);
  }

  /** A batch the ingest route stored (POST /api/gateway/records). */
  ingested(batch: IngestStored): void {
    const m = this.metrics;
    m.stored.inc(batch.stored);
    announceStored(this.bus, batch.stored);
    if (batch.restricted > 0) m.regoverned.labels('route_restricted').inc(batch.restricted);
    for (const [reason, n] of Object.entries(batch.reasons)) m.regoverned.labels(reason).inc(n);
    const here = batch.storedHere;
    if (here) {
      for (const r of here.records) {
        const t = meteredTokens(r);
        if (t) m.tokens.labels(primaryRoute(r), labelValue(r, this.tenantLabel)).inc(t);
      }
      if (this.bus.hasSubscribers('gateway.record')) here.records.forEach((r, i) => this.bus.publish('gateway.record', recordFields(r, here.json[i])));
      return;
    }
    for (const [route, tenant, n] of batch.tokens) m.tokens.labels(route, tenant).inc(n);
    this.publish(batch.records);
  }

  private publish(records: PackedRecords | undefined): void {
    if (records) for (const record of unpackRecords(records)) this.bus.publish('gateway.record', record);
  }

  /** Where worker threads cannot open the store (`sqlite::memory:`), their rows are written here. */
  private writeHere(rows: SqlValue[][], rollups: SqlValue[][], rulePaths: SqlValue[][]) {
    return storeOutcome(rows.length, () => this.writer.write({ rows, rollups, rulePaths }));
  }
}
