import { httpError } from '@vigil/plugin-sdk';
import { LlmErrors } from '../errors.js';

export interface FairDispatchOptions {
  /** Tasks handed to the pool at once: its threads, so that the pool's own queue stays empty and order stays ours. */
  slots: number;
  /** Tasks one tenant may have waiting; more is 429 (the tenant sends faster than its share). */
  perTenant: number;
  /** Bytes of every waiting and running task together; more is 503 (the lane is saturated). */
  maxBytes: number;
}

interface Waiting<R> {
  run(): Promise<R>;
  bytes: number;
  resolve(value: R): void;
  reject(err: unknown): void;
}

/**
 * Hands tasks to a pool in turns across tenants: each free slot goes to the waiting tenant with the fewest tasks
 * running, the one that has waited longest among equals. A tenant that sends nothing while another floods the lane
 * is served at the first free slot: its request waits for one task to end, never for the flood. What waits is
 * bounded per tenant (count) and in all (bytes), and refused with Retry-After past either, so a flood costs its
 * sender retries instead of costing everyone memory and time.
 */
export class FairDispatch {
  private readonly queues = new Map<string, Waiting<unknown>[]>();
  /** Tenants with a task waiting, in the order they started waiting (or were last served). */
  private readonly ring: string[] = [];
  private readonly runningBy = new Map<string, number>();
  private running = 0;
  private heldBytes = 0;

  constructor(private readonly options: FairDispatchOptions) {}

  get waiting(): number {
    let n = 0;
    for (const q of this.queues.values()) n += q.length;
    return n;
  }

  get bytes(): number {
    return this.heldBytes;
  }

  /**
   * Runs `run` in `tenant`'s turn; rejects at once when a bound refuses it: LANE_BUSY (429) when the project's own
   * queue is full, LANE_SATURATED (503) when the bytes of all projects are.
   */
  submit<R>(tenant: string, bytes: number, run: () => Promise<R>): Promise<R> {
    const queue = this.queues.get(tenant) ?? [];
    if (queue.length >= this.options.perTenant) {
      return Promise.reject(httpError(LlmErrors.LANE_BUSY,
        `this project has ${queue.length} ingest requests waiting already; send fewer at once, or retry after the Retry-After seconds`,
        { headers: { 'Retry-After': '1' } }));
    }
    if (this.heldBytes + bytes > this.options.maxBytes && this.heldBytes > 0) {
      return Promise.reject(httpError(LlmErrors.LANE_SATURATED,
        'ingest is saturated: the requests waiting now hold as many bytes as it takes at once; retry after the Retry-After seconds',
        { headers: { 'Retry-After': '1' } }));
    }
    this.heldBytes += bytes;
    return new Promise<R>((resolve, reject) => {
      if (!queue.length) {
        this.queues.set(tenant, queue);
        this.ring.push(tenant);
      }
      queue.push({ run, bytes, resolve: resolve as (v: unknown) => void, reject });
      this.pump();
    });
  }

  /** The ring's index of the tenant to serve next: the fewest running, the earliest in the ring among equals. */
  private next(): number {
    let best = 0;
    let fewest = Infinity;
    for (let i = 0; i < this.ring.length && fewest > 0; i++) {
      const running = this.runningBy.get(this.ring[i]) ?? 0;
      if (running < fewest) { fewest = running; best = i; }
    }
    return best;
  }

  private pump(): void {
    while (this.running < this.options.slots && this.ring.length) {
      const [tenant] = this.ring.splice(this.next(), 1);
      const queue = this.queues.get(tenant)!;
      const task = queue.shift()!;
      if (queue.length) this.ring.push(tenant);
      else this.queues.delete(tenant);
      this.running++;
      this.runningBy.set(tenant, (this.runningBy.get(tenant) ?? 0) + 1);
      let out: Promise<unknown>;
      try {
        out = task.run();
      } catch (err) {
        out = Promise.reject(err);
      }
      out.then(task.resolve, task.reject).finally(() => {
        this.running--;
        const left = this.runningBy.get(tenant)! - 1;
        if (left) this.runningBy.set(tenant, left); else this.runningBy.delete(tenant);
        this.heldBytes -= task.bytes;
        this.pump();
      });
    }
  }
}
