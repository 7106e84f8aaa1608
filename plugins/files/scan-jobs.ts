import { randomBytes } from 'node:crypto';
import { Worker } from 'node:worker_threads';
import type { ScanCounts, ScanLimits, ScanParams, StopReason, WorkerMessage } from './scan/scan-types.js';

/** How a scan ended, or `running`. `failed` is a worker that threw (the message is in `error`). */
export type ScanState = 'running' | 'done' | 'failed';

export interface ScanJobOptions {
  /** Scans running at once; one more is refused (the caller answers 429). */
  maxRunning: number;
  /** How long a finished scan's answer is kept for the page to read and drill into, ms. */
  keepMs: number;
  /** Finished scans kept at most (the oldest goes first). */
  keepMax: number;
  /** Past its budget, a worker gets this long to stop by itself before it is terminated, ms. */
  graceMs: number;
  progressMs: number;
  now?: () => number;
}

/** One scan: its worker, the newest progress, and the answer once it ends. */
export class ScanJob {
  readonly id = randomBytes(9).toString('base64url');
  state: ScanState = 'running';
  counts: ScanCounts = { files: 0, dirs: 0, bytes: 0, errors: 0, skipped: 0 };
  current = '';
  partial: unknown = null;
  result: unknown = null;
  stop: StopReason | 'deadline' = null;
  error: string | null = null;
  finishedAt: number | null = null;
  /** Resolves when the scan has ended, whatever the way. */
  readonly finished: Promise<void>;
  private readonly flag: Int32Array;
  private worker: Worker | undefined;
  private settle!: () => void;
  private timer: NodeJS.Timeout | undefined;

  constructor(readonly params: ScanParams, readonly limits: ScanLimits, readonly startedAt: number, private readonly o: ScanJobOptions) {
    this.finished = new Promise((resolve) => { this.settle = resolve; });
    const cancel = new SharedArrayBuffer(4);
    this.flag = new Int32Array(cancel);
    this.worker = new Worker(new URL('./scan/scan-worker.js', import.meta.url), {
      workerData: { params, limits, cancel, progressMs: o.progressMs },
      // A scan holds little; a runaway one is bounded here as well as by its entry cap.
      resourceLimits: { maxOldGenerationSizeMb: 512 },
    });
    this.worker.unref();
    this.worker.on('message', (m: WorkerMessage) => this.receive(m));
    this.worker.on('error', (err) => this.end('failed', null, err.message));
    this.worker.on('exit', () => this.end('failed', null, 'the scan worker exited without an answer'));
    this.arm(limits.budgetMs + o.graceMs);
  }

  /** Asks the worker to stop; it answers with what it has, or is ended after the grace period. */
  cancel(): void {
    if (this.state !== 'running') return;
    Atomics.store(this.flag, 0, 1);
    this.arm(this.o.graceMs);
  }

  elapsedMs(now: number): number {
    return (this.finishedAt ?? now) - this.startedAt;
  }

  private arm(ms: number): void {
    clearTimeout(this.timer);
    this.timer = setTimeout(() => this.kill(), ms);
    this.timer.unref();
  }

  /**
   * The worker did not stop in time: it is stuck in one step the flag cannot interrupt (a regular expression that
   * backtracks, a read from a hung network filesystem). It is terminated, and the answer is its last progress.
   */
  private kill(): void {
    if (this.state !== 'running') return;
    const cancelled = Atomics.load(this.flag, 0) === 1;
    this.stop = cancelled ? 'cancelled' : 'deadline';
    this.end('done', this.stop, null);
  }

  private receive(m: WorkerMessage): void {
    if (this.state !== 'running') return;
    if (m.type === 'progress') {
      this.counts = m.counts;
      this.current = m.current;
      this.partial = m.partial;
    } else if (m.type === 'done') {
      this.counts = m.counts;
      this.result = m.result;
      this.end('done', m.stop, null);
    } else {
      this.end('failed', null, m.message);
    }
  }

  private end(state: ScanState, stop: StopReason | 'deadline', error: string | null): void {
    if (this.state !== 'running') return;
    this.state = state;
    this.stop = stop;
    this.error = error;
    this.finishedAt = (this.o.now ?? Date.now)();
    clearTimeout(this.timer);
    const worker = this.worker;
    this.worker = undefined;
    void worker?.terminate().catch(() => undefined);
    this.settle();
  }
}

/** The scans of this process: at most `maxRunning` at once, finished ones kept a while for their pages. */
export class ScanJobs {
  private readonly jobs = new Map<string, ScanJob>();

  constructor(private readonly o: ScanJobOptions) {}

  private now(): number {
    return (this.o.now ?? Date.now)();
  }

  running(): number {
    let n = 0;
    for (const job of this.jobs.values()) if (job.state === 'running') n++;
    return n;
  }

  /** Starts a scan; undefined when `maxRunning` scans run already. */
  start(params: ScanParams, limits: ScanLimits): ScanJob | undefined {
    this.prune();
    if (this.running() >= this.o.maxRunning) return undefined;
    const job = new ScanJob(params, limits, this.now(), this.o);
    this.jobs.set(job.id, job);
    return job;
  }

  get(id: string): ScanJob | undefined {
    this.prune();
    return this.jobs.get(id);
  }

  list(): ScanJob[] {
    this.prune();
    return [...this.jobs.values()];
  }

  /** Cancels every scan and waits for them (plugin stop). */
  async stopAll(): Promise<void> {
    const running = [...this.jobs.values()].filter((j) => j.state === 'running');
    for (const job of running) job.cancel();
    await Promise.all(running.map((j) => j.finished));
  }

  private prune(): void {
    const now = this.now();
    const finished = [...this.jobs.values()].filter((j) => j.finishedAt !== null).sort((a, b) => a.finishedAt! - b.finishedAt!);
    let extra = finished.length - this.o.keepMax;
    for (const job of finished) {
      if (extra > 0 || now - job.finishedAt! > this.o.keepMs) { this.jobs.delete(job.id); extra--; }
    }
  }
}
