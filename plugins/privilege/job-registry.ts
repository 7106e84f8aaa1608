import { randomBytes } from 'node:crypto';
import type { PrivilegedResult, PrivilegedVerb } from '@vigil/plugin-sdk';

/** Lines a job keeps; older ones are dropped (`first` says how many). */
export const JOB_LINES = 10_000;
/** Lines one `GET /api/job` answer carries at most. */
export const JOB_PAGE_LINES = 2_000;
/** Characters of one line kept. */
const LINE_CHARS = 4_096;
/** Jobs kept at most, and how long an ended one is kept, in ms. */
const MAX_JOBS = 50;
const KEEP_ENDED_MS = 3_600_000;

export type JobState = 'running' | 'done' | 'failed' | 'cancelled';

export interface Job {
  id: string;
  title: string;
  verb: PrivilegedVerb;
  args: string[];
  actor: string;
  state: JobState;
  startedAt: number;
  endedAt: number | null;
  /** 0..100 when the program reports it (apt's status lines), else null. */
  progress: number | null;
  /** Index of `lines[0]` since the job began. */
  first: number;
  lines: string[];
  partial: string;
  result: PrivilegedResult | null;
  abort: AbortController;
}

/** apt's `-o APT::Status-Fd=1` lines: `pmstatus:<pkg>:<percent>:<what>`, `dlstatus:…`. */
const STATUS_LINE = /^(?:pm|dl)status:[^:]*:(\d+(?:\.\d+)?):/;

/** Privileged runs as jobs in memory: output kept as lines for pages that poll `since` an index, and cancellable. */
export class JobRegistry {
  private readonly jobs = new Map<string, Job>();

  constructor(private readonly now: () => number = Date.now) {}

  create(o: { title: string; verb: PrivilegedVerb; args: readonly string[]; actor: string }): Job {
    this.prune();
    const job: Job = {
      id: `${this.now().toString(36)}${randomBytes(4).toString('hex')}`, title: o.title.slice(0, 200), verb: o.verb, args: [...o.args], actor: o.actor,
      state: 'running', startedAt: this.now(), endedAt: null, progress: null, first: 0, lines: [], partial: '', result: null, abort: new AbortController(),
    };
    this.jobs.set(job.id, job);
    return job;
  }

  /** Appends output to a job: complete lines are kept, a last unfinished one waits for its end. */
  append(job: Job, text: string): void {
    const parts = (job.partial + text).split(/\r?\n|\r/);
    job.partial = parts.pop() ?? '';
    if (job.partial.length > LINE_CHARS) { parts.push(job.partial); job.partial = ''; }
    for (const line of parts) {
      const status = STATUS_LINE.exec(line);
      if (status) job.progress = Math.min(100, Math.max(0, Number(status[1])));
      // apt repeats its status line twice a second while a download waits: one copy says as much.
      if (status && job.lines[job.lines.length - 1] === line) continue;
      job.lines.push(line.length > LINE_CHARS ? `${line.slice(0, LINE_CHARS - 1)}…` : line);
    }
    if (job.lines.length > JOB_LINES) {
      const drop = job.lines.length - JOB_LINES;
      job.lines.splice(0, drop);
      job.first += drop;
    }
  }

  finish(job: Job, result: PrivilegedResult): void {
    if (job.partial) { job.lines.push(job.partial); job.partial = ''; }
    job.result = result;
    job.state = result.cancelled ? 'cancelled' : result.ok ? 'done' : 'failed';
    if (result.ok) job.progress = 100;
    job.endedAt = this.now();
  }

  get(id: string): Job | undefined {
    return this.jobs.get(id);
  }

  /** Newest first. */
  list(): Job[] {
    this.prune();
    return [...this.jobs.values()].reverse();
  }

  running(): Job[] {
    return [...this.jobs.values()].filter((j) => j.state === 'running');
  }

  private prune(): void {
    const cutoff = this.now() - KEEP_ENDED_MS;
    for (const [id, job] of this.jobs) if (job.endedAt !== null && job.endedAt < cutoff) this.jobs.delete(id);
    for (const [id, job] of this.jobs) {
      if (this.jobs.size < MAX_JOBS) break;
      if (job.state !== 'running') this.jobs.delete(id);
    }
  }

  /** Cancels every running job (the plugin stops). */
  cancelAll(): void {
    for (const job of this.running()) job.abort.abort();
  }
}
