import { randomBytes } from 'node:crypto';
import { OutputTail } from './output-tail.js';
import { startGroupRun, type GroupRun, type GroupRunEnd } from './process-group-run.js';
import type { ProjectScript } from './project-script.js';
import { OUTPUT_TAIL_CHARS, type FinishedRun, type RunHistory, type RunState } from './run-history.js';

/** Lines one `GET /api/projectrun` answer carries at most. */
export const RUN_PAGE_LINES = 2_000;
/** Live notices of one run are batched this long: a chatty build sends a few a second, not one per chunk. */
const PUBLISH_EVERY_MS = 150;
/** Ended runs kept in memory with their whole kept output (the history keeps only the tail), and for how long. */
const KEEP_ENDED = 20;
const KEEP_ENDED_MS = 3_600_000;

export interface Run {
  id: string;
  folder: string;
  script: ProjectScript;
  actor: string;
  state: RunState;
  startedAt: number;
  endedAt: number | null;
  exitCode: number | null;
  signal: string | null;
  /** Why it ended as it did, in a sentence (not installed, stopped by whom, the time limit). */
  note: string | null;
  output: OutputTail;
  group: GroupRun | null;
}

export interface RunLimits {
  maxRunning: number;
  timeoutMs: number;
  outputCapBytes: number;
}

/**
 * A live notice on the `host.projectrun` stream topic: a run has new output (`next`) or a new state. It carries no
 * output: the stream reaches every signed-in role, a run's output is the owner's, so the page fetches the lines from
 * the owner-only `GET /api/projectrun?id&since` when told there are some.
 */
export interface RunLiveMessage {
  id: string;
  state: RunState;
  next: number;
  dropped_bytes: number;
}

function stateOf(end: GroupRunEnd): RunState {
  if (end.timedOut) return 'timed_out';
  if (end.stopped) return 'stopped';
  return end.exitCode === 0 && !end.spawnError ? 'succeeded' : 'failed';
}

/**
 * The launcher's runs: at most `maxRunning` at once (the slot is taken synchronously in `start`, so two requests
 * cannot both pass a check and both start), each a process group with a wall-clock limit and an output cap, its new
 * output published live, and its end recorded in the history.
 */
export class RunRegistry {
  private readonly runs = new Map<string, Run>();
  private readonly pending = new Map<string, NodeJS.Timeout>();

  constructor(private readonly o: {
    limits: RunLimits;
    history: RunHistory;
    env: () => NodeJS.ProcessEnv;
    publish(message: RunLiveMessage): void;
    onEnd(run: Run): void;
    /** A run the history could not record (the store down): logged, the run itself is unaffected. */
    onRecordFailed(run: Run, err: Error): void;
    now?: () => number;
  }) {}

  private now(): number {
    return (this.o.now ?? Date.now)();
  }

  running(): Run[] {
    return [...this.runs.values()].filter((r) => r.state === 'running');
  }

  /** Newest first. */
  list(): Run[] {
    this.prune();
    return [...this.runs.values()].reverse();
  }

  get(id: string): Run | undefined {
    return this.runs.get(id);
  }

  /** Starts a run, or returns null when `maxRunning` run already (nothing started). */
  start(folder: string, script: ProjectScript, actor: string): Run | null {
    if (this.running().length >= this.o.limits.maxRunning) return null;
    this.prune();
    const run: Run = {
      id: `${this.now().toString(36)}${randomBytes(4).toString('hex')}`, folder, script, actor, state: 'running', startedAt: this.now(), endedAt: null,
      exitCode: null, signal: null, note: null, output: new OutputTail(this.o.limits.outputCapBytes), group: null,
    };
    this.runs.set(run.id, run);
    run.group = startGroupRun({
      argv: script.argv, cwd: folder, env: this.o.env(), timeoutMs: this.o.limits.timeoutMs,
      onOutput: (text) => { run.output.append(text); this.schedule(run); },
    });
    void run.group.ended.then((end) => this.finish(run, end));
    return run;
  }

  /** Asks a running run to end (SIGTERM to its group, SIGKILL after the grace); false when it had ended. */
  stop(run: Run, who: string): boolean {
    if (run.state !== 'running' || !run.group) return false;
    run.note ??= `stopped by ${who}`;
    run.group.stop();
    return true;
  }

  /** Stops every run (the plugin stops) and waits for them to be recorded. */
  async stopAll(): Promise<void> {
    const ending = this.running().map((r) => { this.stop(r, 'Vigil stopping'); return r.group?.ended; });
    await Promise.all(ending);
  }

  private finish(run: Run, end: GroupRunEnd): void {
    run.output.flush();
    run.state = stateOf(end);
    run.exitCode = end.exitCode;
    run.signal = end.signal;
    run.endedAt = this.now();
    if (end.spawnError) run.note = end.spawnError;
    else if (end.timedOut) run.note = `stopped at the time limit (${Math.round(this.o.limits.timeoutMs / 1000)} s)`;
    else if (!end.stopped) run.note = null;
    const finished: FinishedRun = {
      id: run.id, folder: run.folder, kind: run.script.kind, name: run.script.name, argv: run.script.argv, actor: run.actor,
      state: run.state as FinishedRun['state'], exit_code: run.exitCode, signal: run.signal, note: run.note, started_at: run.startedAt, ended_at: run.endedAt,
      output_tail: run.output.tail(OUTPUT_TAIL_CHARS), output_bytes: run.output.totalBytes, dropped_bytes: run.output.droppedBytes,
    };
    // The end is announced once it is in the history, so a page that reloads the history on it finds the run there.
    this.o.history.record(finished).catch((err: Error) => this.o.onRecordFailed(run, err)).finally(() => {
      this.flush(run);
      this.o.onEnd(run);
    });
  }

  private schedule(run: Run): void {
    if (this.pending.has(run.id)) return;
    const timer = setTimeout(() => this.flush(run), PUBLISH_EVERY_MS);
    timer.unref();
    this.pending.set(run.id, timer);
  }

  private flush(run: Run): void {
    clearTimeout(this.pending.get(run.id));
    this.pending.delete(run.id);
    this.o.publish({ id: run.id, state: run.state, next: run.output.next, dropped_bytes: run.output.droppedBytes });
  }

  private prune(): void {
    const cutoff = this.now() - KEEP_ENDED_MS;
    const ended = [...this.runs.values()].filter((r) => r.endedAt !== null);
    ended.forEach((r, i) => {
      if (r.endedAt! < cutoff || ended.length - i > KEEP_ENDED) this.runs.delete(r.id);
    });
  }
}
