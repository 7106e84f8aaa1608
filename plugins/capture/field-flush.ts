// Writing the field observations: each worker thread with a store of its own holds and writes its own (held-fields.ts);
// where threads have none (`sqlite::memory:`), their observations come back with the batches and are held here.
import type { Logger, Store, WorkerPool } from '@vigil/plugin-sdk';
import type { FieldObservation, FieldOverflow } from '../../gateway/fields/api-fields.js';
import { FieldAccumulator } from '../../gateway/fields/field-accumulator.js';
import { writeFields } from '../../gateway/fields/field-writer.js';
import type { FlushedFields, FlushFieldsTask } from '../../gateway/records/lane-tasks.js';

export class FieldFlush {
  private readonly held = new FieldAccumulator();
  /** One write at a time: the flush at stop waits for a timer's write still in flight. */
  private written: Promise<void> = Promise.resolve();

  constructor(
    private readonly store: Store,
    private readonly pool: () => WorkerPool<FlushFieldsTask, FlushedFields>,
    private readonly log: Logger,
    private readonly countOverflow: (o: FieldOverflow | undefined) => void,
    private readonly recordFields: boolean,
  ) {}

  /** Observations a thread without a store sent back with its batch. */
  add(fields: FieldObservation[]): void {
    this.countOverflow(this.held.add(fields));
  }

  /** Every thread writes what it holds, then what this thread holds is written. */
  flush(): Promise<void> {
    return (this.written = this.written.then(async () => { await this.flushWorkers(); await this.writeHeld(); }));
  }

  logError(error: string | undefined): void {
    if (error !== undefined) this.log.error('storing observed fields failed; they are kept for the next try', { error });
  }

  /** Adds what the accumulator holds to `capture_fields`; on failure it is kept for the next flush (bounded). */
  private async writeHeld(): Promise<void> {
    const taken = this.held.take();
    try {
      await writeFields(this.store, taken);
    } catch (err) {
      this.countOverflow(this.held.restore(taken));
      this.log.error('storing observed fields failed; they are kept for the next try', { fields: taken.length, error: (err as Error).message });
    }
  }

  /**
   * One flush task per thread of the pool: piscina gives each to an idle thread (least busy first), so every idle
   * thread writes what it holds; a thread busy with batches writes from a batch once its last write is
   * `fields_flush` old. At stop the lane is drained first, so every thread is idle and writes.
   */
  private async flushWorkers(): Promise<void> {
    if (!this.recordFields) return;
    const pool = this.pool();
    const tasks = Array.from({ length: Math.max(1, pool.threads) }, () => pool.run({ flushFields: true }));
    for (const done of await Promise.allSettled(tasks)) {
      if (done.status === 'rejected') {
        this.log.error('a capture worker could not write its observed fields', { error: (done.reason as Error).message });
        continue;
      }
      this.countOverflow(done.value.fieldOverflow);
      this.logError(done.value.fieldsError);
    }
  }
}
