// The field observations one capture worker thread holds between its writes to `capture_fields`. Each thread adds
// its batches up and writes them through its own store connection, so no observation crosses to the event loop and
// the event loop merges none (bench/gateway-cpu.ts: that merge and the clone were about 5 µs of its time per
// captured request). The SQL upsert adds the rows of every thread and process up (field-writer.ts).
//
// Writes happen inside tasks only (a batch whose thread's last write is `fields_flush` old, or the pool's flush
// task): piscina ends threads between tasks, and ending one in the middle of a SQLite statement aborts the process.
import type { Store } from '@vigil/plugin-sdk';
import type { FieldObservation, FieldOverflow } from './api-fields.js';
import { FieldAccumulator } from './field-accumulator.js';
import { writeFields } from './field-writer.js';

export interface HeldFieldsWrite {
  /** What a failed write could not keep (the accumulator's bounds), for vigil_capture_fields_overflow_total. */
  overflow: FieldOverflow;
  /** Why the write failed (what it took is kept for the next one); null when it succeeded or had nothing to do. */
  error: string | null;
}

export class HeldFields {
  // The governance worker makes a batch's observations anew each time: held as they are, not copied.
  private readonly fields = new FieldAccumulator(undefined, false);
  private lastWrite = Date.now();

  constructor(private readonly flushMs: number) {}

  /** Adds a batch's observations; returns what did not fit. */
  add(fields: readonly FieldObservation[]): FieldOverflow {
    return this.fields.add(fields);
  }

  /** `fields_flush` has passed since this thread last wrote, and it holds something. */
  due(now = Date.now()): boolean {
    return this.fields.size > 0 && now - this.lastWrite >= this.flushMs;
  }

  /** Writes everything held; on failure it is kept (as far as the bounds allow) for the next write. */
  async write(store: () => Promise<Store>): Promise<HeldFieldsWrite> {
    this.lastWrite = Date.now();
    const taken = this.fields.take();
    if (taken.length === 0) return { overflow: { route: 0, total: 0 }, error: null };
    try {
      await writeFields(await store(), taken);
      return { overflow: { route: 0, total: 0 }, error: null };
    } catch (err) {
      return { overflow: this.fields.restore(taken), error: err instanceof Error ? err.message : String(err) };
    }
  }
}
