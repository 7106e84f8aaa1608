// The update that runs now or ran last: its stage and its output as lines, kept in memory for the About page to
// follow (`GET /api/perchupdate?since=`), as the privileged helper's jobs are.
import type { UpdateOutcome } from './update-steps.js';

/** Lines an update keeps (older ones are dropped; `first` says how many), and characters of one line. */
export const UPDATE_LINES = 5_000;
const LINE_CHARS = 4_096;
/** Lines one answer carries at most. */
export const UPDATE_PAGE_LINES = 2_000;

export type UpdateState = 'running' | 'done' | 'failed';

export class UpdateJob {
  state: UpdateState = 'running';
  stage = 'Starting';
  readonly startedAt = Date.now();
  endedAt: number | null = null;
  outcome: UpdateOutcome | null = null;
  error: { code: string; message: string } | null = null;
  /** Index of `lines[0]` since the update began. */
  first = 0;
  lines: string[] = [];
  private partial = '';

  constructor(readonly version: string, readonly actor: string) {}

  append(text: string): void {
    const parts = (this.partial + text).split(/\r?\n|\r/);
    this.partial = parts.pop() ?? '';
    if (this.partial.length > LINE_CHARS) { parts.push(this.partial); this.partial = ''; }
    for (const line of parts) this.lines.push(line.length > LINE_CHARS ? `${line.slice(0, LINE_CHARS - 1)}…` : line);
    if (this.lines.length > UPDATE_LINES) {
      const drop = this.lines.length - UPDATE_LINES;
      this.lines.splice(0, drop);
      this.first += drop;
    }
  }

  finish(outcome: UpdateOutcome | null, error: { code: string; message: string } | null): void {
    if (this.partial) { this.lines.push(this.partial); this.partial = ''; }
    this.outcome = outcome;
    this.error = error;
    this.state = error ? 'failed' : 'done';
    this.stage = error ? 'Stopped' : outcome?.result === 'current' ? 'Already up to date' : 'Applied';
    this.endedAt = Date.now();
  }

  /** The job as the API shows it, with its lines from `since`. */
  page(since: number) {
    const from = Math.max(since, this.first);
    const lines = this.lines.slice(from - this.first, from - this.first + UPDATE_PAGE_LINES);
    return {
      state: this.state, stage: this.stage, version: this.version, actor: this.actor,
      started_at: new Date(this.startedAt).toISOString(), ended_at: this.endedAt === null ? null : new Date(this.endedAt).toISOString(),
      outcome: this.outcome, error: this.error, first: this.first, next: from + lines.length, lines,
    };
  }
}
