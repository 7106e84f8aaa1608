/**
 * The parent's handle on one sandbox child process: starts it, sends it tasks, bounds each task from outside
 * (timeout + grace, then the process is killed), and turns the death of the process into failed tasks.
 */
import { fork, type ChildProcess } from 'node:child_process';
import type { ChildMessage, ChildSettings, FunctionRef, StatsMessage, TaskMessage, TaskOutcome } from './protocol.js';

const childMain = new URL('./child-main.js', import.meta.url);
/** Bytes of the child's stderr kept to explain its death (V8 prints its out-of-memory report there). */
const stderrTailBytes = 8192;
const outOfMemory = /out of memory|heap limit|allocation failed|memory limit/i;

interface InFlight {
  resolve(result: RunResult): void;
  timer: NodeJS.Timeout;
}

export interface RunResult {
  outcome: TaskOutcome;
  /**
   * Set when the process died under the task, for a cause the task may not have caused (`crash`, `memory`,
   * `overrun` of another task, `catastrophic`): the task may deserve a retry on another process.
   */
  lostTo?: string;
}

const overrunLoss = 'the sandbox process was replaced because another call on it stopped answering';

/** Causes of death that end a task without a retry: the sandbox is closing, or the process had no task left. */
const deliberateStops = new Set(['closed', 'retired']);

export interface SandboxProcessEvents {
  ready(proc: SandboxProcess): void;
  /** The process stopped: `cause` is `memory`, `crash`, `overrun`, `catastrophic`, `retired` or `closed`. */
  exit(proc: SandboxProcess, cause: string, beforeReady: boolean): void;
  /** The process asks to be replaced; it finishes its running tasks first. */
  retire(proc: SandboxProcess, cause: string): void;
  /** A task finished (successfully or not); the process may take another. */
  settled(proc: SandboxProcess): void;
}

/** What guest code observes (time zone, locale for Intl) and what coverage tools need; never the parent's secrets. */
const passedEnv = ['TZ', 'LANG', 'LC_ALL', 'NODE_V8_COVERAGE'];

function childEnv(): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = {};
  for (const key of passedEnv) if (process.env[key] !== undefined) env[key] = process.env[key];
  return env;
}

export class SandboxProcess {
  ready = false;
  retiring = false;
  dead = false;
  /** Ids of the functions whose source this process already holds. */
  readonly known = new Set<string>();
  private readonly child: ChildProcess;
  private readonly inFlight = new Map<number, InFlight>();
  private readonly statsWaiters = new Map<number, (stats: StatsMessage | undefined) => void>();
  private seq = 0;
  /** The task this process runs alone, if any: no other task is sent to it meanwhile. */
  private aloneSeq: number | undefined;
  private stderrTail = '';
  /** Why this process is being stopped by us, if it is. */
  private stopCause: string | undefined;
  private readonly deathWatchers: Array<() => void> = [];

  constructor(settings: ChildSettings, private readonly events: SandboxProcessEvents) {
    this.child = fork(childMain, [JSON.stringify(settings)], {
      execArgv: ['--no-node-snapshot'],
      serialization: 'advanced',
      stdio: ['ignore', 'ignore', 'pipe', 'ipc'],
      env: childEnv(),
    });
    this.child.stderr?.setEncoding('utf8');
    this.child.stderr?.on('data', (chunk: string) => {
      this.stderrTail = (this.stderrTail + chunk).slice(-stderrTailBytes);
    });
    this.child.on('message', (m: ChildMessage) => this.onMessage(m));
    // Spawn failures and a broken channel: either way this process cannot be used, so it goes.
    this.child.on('error', () => {
      this.kill('crash');
      this.onExit(null, null);
    });
    this.child.on('exit', (code, signal) => this.onExit(code, signal));
  }

  get pid(): number { return this.child.pid ?? 0; }
  /** Ready, and neither retiring nor being stopped: it may take a task. */
  get accepting(): boolean { return this.ready && !this.retiring && !this.dead && this.stopCause === undefined; }
  get load(): number { return this.inFlight.size; }
  /** Running a task that must not share the process (a retried task). */
  get exclusive(): boolean { return this.aloneSeq !== undefined; }
  /** What the process last printed on stderr, for messages about its death. */
  get lastWords(): string { return this.stderrTail.trim().split('\n').slice(-3).join(' | '); }

  /**
   * Sends a task; resolves when the child answers, the host bound fires, or the process dies. `alone`: the process
   * takes no other task until this one settles.
   */
  run(task: Omit<TaskMessage, 't' | 'seq' | 'fn'>, fn: Required<FunctionRef>, graceMs: number, alone = false): Promise<RunResult> {
    const seq = ++this.seq;
    const ref: FunctionRef = this.known.has(fn.id) ? { id: fn.id, filename: fn.filename } : fn;
    this.known.add(fn.id);
    if (alone) this.aloneSeq = seq;
    return new Promise<RunResult>((resolve) => {
      const started = performance.now();
      const timer = setTimeout(() => {
        if (this.stopCause === 'overrun') {
          // Another call's bound already had the process killed: this call was stuck behind it, so it is lost with
          // the process, like any other call on it, rather than blamed.
          this.settle(seq, { ok: false, reason: 'crash', message: overrunLoss, durationMs: 0 }, 'overrun');
          return;
        }
        // The child did not answer within timeout + grace: it is stuck where its isolates cannot interrupt it.
        // Killed first, so that no task is handed to it when this one settles.
        this.kill('overrun');
        this.settle(seq, {
          ok: false,
          reason: 'timeout',
          message: `the call ran past its time limit of ${task.timeoutMs} ms and its sandbox process stopped answering; the process was replaced`,
          durationMs: Math.round(performance.now() - started),
        });
      }, task.timeoutMs + graceMs);
      this.inFlight.set(seq, { resolve, timer });
      const message: TaskMessage = { t: 'task', seq, fn: ref, ...task };
      try {
        this.child.send(message);
      } catch {
        this.settle(seq, { ok: false, reason: 'crash', message: 'the sandbox process is gone', durationMs: 0 });
      }
    });
  }

  /** Heap figures from the child, or undefined when it does not answer within `waitMs`. */
  stats(waitMs = 2000): Promise<StatsMessage | undefined> {
    if (!this.ready || this.dead) return Promise.resolve(undefined);
    const seq = ++this.seq;
    return new Promise((resolve) => {
      const timer = setTimeout(() => { this.statsWaiters.delete(seq); resolve(undefined); }, waitMs);
      this.statsWaiters.set(seq, (s) => { clearTimeout(timer); resolve(s); });
      try { this.child.send({ t: 'stats', seq }); } catch { this.statsWaiters.get(seq)?.(undefined); }
    });
  }

  /** Stops the process now; its running tasks fail with `crash` (unless the cause already settled them). */
  kill(cause: string): void {
    this.stopCause ??= cause;
    if (!this.dead) this.child.kill('SIGKILL');
  }

  /**
   * Ends a process that is retired or closing. It holds nothing worth a clean exit, so it is killed outright (which
   * keeps `vigil fn run` quick), except while coverage is collected: then its channel is closed so it exits by
   * itself and writes its coverage, and it is killed only if it has not gone within `waitMs`.
   */
  stop(cause: string, waitMs = 250): void {
    this.stopCause ??= cause;
    if (this.dead) return;
    if (!process.env.NODE_V8_COVERAGE || !this.child.connected) return this.kill(cause);
    const timer = setTimeout(() => this.kill(cause), waitMs);
    this.onceDead(() => clearTimeout(timer));
    this.child.disconnect();
  }

  /** Calls `fn` once the process has exited (at once if it already has). */
  onceDead(fn: () => void): void {
    if (this.dead) fn();
    else this.deathWatchers.push(fn);
  }

  /** Whether the process keeps the parent's event loop alive: only while it has work. */
  setKeepAlive(on: boolean): void {
    const stderr = this.child.stderr as (NodeJS.ReadableStream & { ref?(): void; unref?(): void }) | null;
    const channel = this.child.channel as { ref?(): void; unref?(): void } | null | undefined;
    if (on) { this.child.ref(); channel?.ref?.(); stderr?.ref?.(); } else { this.child.unref(); channel?.unref?.(); stderr?.unref?.(); }
  }

  private settle(seq: number, outcome: TaskOutcome, lostTo?: string): void {
    const task = this.inFlight.get(seq);
    if (!task) return;
    this.inFlight.delete(seq);
    if (this.aloneSeq === seq) this.aloneSeq = undefined;
    clearTimeout(task.timer);
    task.resolve(lostTo === undefined ? { outcome } : { outcome, lostTo });
    this.events.settled(this);
  }

  private onMessage(m: ChildMessage): void {
    switch (m.t) {
      case 'ready':
        this.ready = true;
        this.events.ready(this);
        break;
      case 'result':
        if (m.retire && !this.retiring) {
          this.retiring = true;
          this.events.retire(this, m.retire);
        }
        this.settle(m.seq, m.outcome);
        break;
      case 'stats':
        this.statsWaiters.get(m.seq)?.(m);
        this.statsWaiters.delete(m.seq);
        break;
      case 'catastrophic':
        this.stopCause ??= 'catastrophic';
        this.stderrTail += `\nisolated-vm: ${m.message}`;
        break;
    }
  }

  private onExit(code: number | null, signal: NodeJS.Signals | null): void {
    if (this.dead) return;
    this.dead = true;
    const beforeReady = !this.ready;
    this.ready = false;
    const words = this.lastWords;
    const oom = outOfMemory.test(this.stderrTail);
    const cause = this.stopCause ?? (oom ? 'memory' : 'crash');
    const how = signal ? `signal ${signal}` : `code ${code}`;
    const message =
      cause === 'memory' ? `the sandbox process ran out of memory and was replaced (${how})`
      : cause === 'overrun' ? overrunLoss
      : cause === 'closed' ? 'the sandbox was closed'
      : `the sandbox process died (${how})${words ? `: ${words}` : ''}`;
    const lostTo = deliberateStops.has(cause) ? undefined : cause;
    for (const seq of [...this.inFlight.keys()]) {
      this.settle(seq, { ok: false, reason: cause === 'memory' ? 'memory' : 'crash', message, durationMs: 0 }, lostTo);
    }
    for (const waiter of this.statsWaiters.values()) waiter(undefined);
    this.statsWaiters.clear();
    this.events.exit(this, cause, beforeReady);
    for (const fn of this.deathWatchers.splice(0)) fn();
  }
}
