/**
 * The JavaScript sandbox: a pool of child processes, each with a few warm isolated-vm isolates. Calls queue here and
 * go to the least busy process with a free isolate. A process that dies or hits a memory limit is replaced, and the
 * pool carries on.
 *
 * A crash costs only the call that caused it. Which call that was is seldom known (an abort names no isolate), so
 * every call in flight on a process that died (or was killed because another call on it stopped answering) is retried
 * once, alone on a healthy process (the replacement, or another idle one): an innocent call succeeds there, and the
 * culprit kills that process too and fails, taking no other call with it.
 */
import { createHash } from 'node:crypto';
import { JsSandboxError, JsSandboxErrors, failureCode, loadFailure } from './errors.js';
import { resolveJsSandboxOptions, type ResolvedJsSandboxOptions } from './options.js';
import { SandboxProcess, type RunResult } from './sandbox-process.js';
import type { FunctionRef, TaskMessage, TaskOutcome } from './protocol.js';
import type { JsFunction, JsProcessStats, JsResult, JsSandbox, JsSandboxOptions } from './types.js';

interface QueuedTask {
  task: Omit<TaskMessage, 't' | 'seq' | 'fn'>;
  fn: Required<FunctionRef>;
  resolve(outcome: TaskOutcome): void;
  /** Why the process of its first attempt died, once it has been requeued for its one retry. */
  retriedAfter?: string;
}

/** Replacements that die before they are ready, in a row, before the pool stops trying and fails its calls. */
const maxStartFailures = 3;

class JsSandboxPool implements JsSandbox {
  private readonly procs = new Set<SandboxProcess>();
  private readonly queue: QueuedTask[] = [];
  private readonly loaded = new Map<string, Promise<JsFunction>>();
  private restartCount = 0;
  private retryCount = 0;
  private startFailures = 0;
  private closed = false;
  private startupError: JsSandboxError | undefined;
  private readonly firstReady: Array<{ resolve(): void; reject(err: Error): void }> = [];

  constructor(private readonly o: ResolvedJsSandboxOptions) {}

  get restarts(): number { return this.restartCount; }
  get retries(): number { return this.retryCount; }

  /** Resolves once every first process is ready; rejects when one cannot start at all. */
  start(): Promise<void> {
    const waits: Array<Promise<void>> = [];
    for (let i = 0; i < this.o.processes; i++) {
      waits.push(new Promise<void>((resolve, reject) => this.firstReady.push({ resolve, reject })));
      this.spawn();
    }
    return Promise.all(waits).then(() => undefined);
  }

  async load(source: string, filename = 'function.js'): Promise<JsFunction> {
    if (this.closed) throw new JsSandboxError(JsSandboxErrors.CLOSED, 'js sandbox: load() after close()');
    if (typeof source !== 'string') throw new JsSandboxError(JsSandboxErrors.INPUT, 'js sandbox: load() needs the source text of a function file');
    const id = `sha256:${createHash('sha256').update(source).digest('hex')}`;
    const cached = this.loaded.get(id);
    if (cached) return cached;
    const fn = { id, filename, source };
    const loading = this.enqueue({ mode: 'check', ...this.limits() }, fn).then(
      (outcome): JsFunction => {
        if (!outcome.ok) throw loadFailure(outcome.reason, outcome.message, filename);
        return { id, call: (input: unknown) => this.call(fn, input) };
      },
    );
    this.loaded.set(id, loading);
    // A file that failed can be fixed and loaded again; only successes stay cached.
    loading.catch(() => this.loaded.delete(id));
    return loading;
  }

  private async call(fn: Required<FunctionRef>, input: unknown): Promise<JsResult> {
    if (this.closed) throw new JsSandboxError(JsSandboxErrors.CLOSED, 'js sandbox: call() after close()');
    let json: string | undefined;
    if (input !== undefined) {
      try {
        json = JSON.stringify(input);
      } catch (err) {
        // A RangeError is the host's own stack or string limit: the input is valid, but too deep or large to copy.
        const message = err instanceof RangeError
          ? `js sandbox: the input is too deep or too large to serialise as JSON (${err.message})`
          : `js sandbox: the input is not JSON: ${(err as Error).message}`;
        throw new JsSandboxError(JsSandboxErrors.INPUT, message, { cause: err });
      }
      if (json === undefined) throw new JsSandboxError(JsSandboxErrors.INPUT, `js sandbox: the input is not JSON (a ${typeof input})`);
    }
    if (this.queue.length >= this.o.maxQueue) {
      throw new JsSandboxError(JsSandboxErrors.BUSY, `js sandbox: ${this.queue.length} calls are already waiting for an isolate (maxQueue)`, { status: 503 });
    }
    const outcome = await this.enqueue({ mode: 'call', input: json, ...this.limits() }, fn);
    const logs = outcome.logs?.length ? { logs: outcome.logs } : {};
    if (outcome.ok) {
      try {
        return { ok: true, value: JSON.parse(outcome.json), durationMs: outcome.durationMs, ...logs };
      } catch {
        return this.failed({ ok: false, reason: 'invalid_output', message: 'the result is not valid JSON', durationMs: outcome.durationMs, ...logs });
      }
    }
    return this.failed(outcome);
  }

  private limits(): Pick<TaskMessage, 'timeoutMs' | 'maxOutputBytes' | 'maxOutputDepth'> {
    return { timeoutMs: this.o.timeoutMs, maxOutputBytes: this.o.maxOutputBytes, maxOutputDepth: this.o.maxOutputDepth };
  }

  private failed(outcome: TaskOutcome & { ok: false }): JsResult {
    const error = { reason: outcome.reason, message: outcome.message, ...(outcome.stack ? { stack: outcome.stack } : {}) };
    try {
      this.o.onFailure(outcome.reason, new JsSandboxError(failureCode(outcome.reason), outcome.message, { reason: outcome.reason }));
    } catch { /* a failing hook must not fail the call */ }
    return { ok: false, error, durationMs: outcome.durationMs, ...(outcome.logs?.length ? { logs: outcome.logs } : {}) };
  }

  private enqueue(task: QueuedTask['task'], fn: Required<FunctionRef>): Promise<TaskOutcome> {
    if (this.startupError) {
      return Promise.resolve({ ok: false, reason: 'crash', message: this.startupError.message, durationMs: 0 });
    }
    return new Promise<TaskOutcome>((resolve) => {
      this.queue.push({ task, fn, resolve });
      this.pump();
    });
  }

  /**
   * Hands queued tasks, in order, to processes with a free isolate, least busy first. A retried task waits for an
   * idle process and runs there alone.
   */
  private pump(): void {
    while (this.queue.length > 0) {
      const alone = this.queue[0].retriedAfter !== undefined;
      let best: SandboxProcess | undefined;
      for (const p of this.procs) {
        if (!p.accepting || p.exclusive || p.load >= (alone ? 1 : this.o.isolatesPerProcess)) continue;
        if (!best || p.load < best.load) best = p;
      }
      if (!best) break;
      const queued = this.queue.shift()!;
      void best.run(queued.task, queued.fn, this.o.graceMs, alone).then((r) => this.finish(queued, r));
    }
    this.updateKeepAlive();
  }

  /** Settles a task, or requeues it once when its process died under it. */
  private finish(queued: QueuedTask, { outcome, lostTo }: RunResult): void {
    if (lostTo === undefined || this.closed) return queued.resolve(outcome);
    if (outcome.ok) return queued.resolve(outcome);
    if (queued.retriedAfter !== undefined) {
      const message = `${outcome.message}; the call had been retried once on a fresh process after its first process died (${queued.retriedAfter}), and that process died too`;
      return queued.resolve({ ...outcome, message });
    }
    queued.retriedAfter = lostTo;
    this.retryCount++;
    try { this.o.onRetry(lostTo); } catch { /* a failing hook must not fail the call */ }
    // Ahead of new calls, behind retries already waiting, so retries keep the order in which they were sent.
    const at = this.queue.findIndex((q) => q.retriedAfter === undefined);
    this.queue.splice(at === -1 ? this.queue.length : at, 0, queued);
    this.pump();
  }

  private updateKeepAlive(): void {
    let busy = this.queue.length > 0 || this.firstReady.length > 0;
    for (const p of this.procs) busy ||= p.load > 0 || !p.ready;
    for (const p of this.procs) if (!p.dead) p.setKeepAlive(busy);
  }

  private spawn(): void {
    const proc = new SandboxProcess({ isolates: this.o.isolatesPerProcess, memoryLimitMb: this.o.memoryLimitMb }, {
      ready: () => {
        this.startFailures = 0;
        this.firstReady.shift()?.resolve();
        this.pump();
      },
      settled: (p) => {
        if (p.retiring && p.load === 0) p.stop('retired');
        this.pump();
      },
      retire: (_p, cause) => this.replace(cause),
      exit: (p, cause, beforeReady) => this.onExit(p, cause, beforeReady),
    });
    this.procs.add(proc);
    this.updateKeepAlive();
  }

  private replace(cause: string): void {
    if (this.closed) return;
    this.restartCount++;
    try { this.o.onRestart(cause); } catch { /* a failing hook must not stop the pool */ }
    this.spawn();
  }

  private onExit(proc: SandboxProcess, cause: string, beforeReady: boolean): void {
    this.procs.delete(proc);
    if (this.closed) return;
    if (beforeReady) {
      this.startFailures++;
      const err = new JsSandboxError(
        JsSandboxErrors.CRASH,
        `js sandbox: a sandbox process failed to start${proc.lastWords ? `: ${proc.lastWords}` : ''}`,
        { reason: 'crash', status: 503 },
      );
      try { this.o.onFailure('crash', err); } catch { /* contained */ }
      const waiter = this.firstReady.shift();
      if (waiter || this.startFailures >= maxStartFailures) {
        this.giveUp(err);
        waiter?.reject(err);
        return;
      }
    }
    // A retired process was already replaced when it asked to be.
    if (cause !== 'retired' && !proc.retiring) this.replace(cause);
    this.pump();
  }

  /** Processes cannot start: fail what waits and what comes, rather than retrying forever. */
  private giveUp(err: JsSandboxError): void {
    this.startupError = err;
    for (const q of this.queue.splice(0)) q.resolve({ ok: false, reason: 'crash', message: err.message, durationMs: 0 });
    for (const p of this.procs) p.kill('closed');
    for (const w of this.firstReady.splice(0)) w.reject(err);
  }

  async stats(): Promise<JsProcessStats[]> {
    const all = await Promise.all([...this.procs].map(async (p) => ({ pid: p.pid, s: await p.stats() })));
    return all.flatMap(({ pid, s }) => (s ? [{ pid, calls: s.calls, isolates: s.isolates, hostHeapUsedBytes: s.hostHeapUsedBytes }] : []));
  }

  async close(): Promise<void> {
    if (this.closed) return;
    this.closed = true;
    for (const q of this.queue.splice(0)) q.resolve({ ok: false, reason: 'crash', message: 'the sandbox was closed', durationMs: 0 });
    const exits = [...this.procs].map((p) => new Promise<void>((resolve) => {
      if (p.dead) return resolve();
      const timer = setTimeout(resolve, 2000);
      p.onceDead(() => { clearTimeout(timer); resolve(); });
      p.stop('closed');
    }));
    await Promise.all(exits);
  }
}

/** Starts the processes and resolves once they are ready. Rejects (VIGIL_ERR_SANDBOX_CRASH) when they cannot start. */
export async function createJsSandbox(options?: JsSandboxOptions): Promise<JsSandbox> {
  const pool = new JsSandboxPool(resolveJsSandboxOptions(options));
  try {
    await pool.start();
  } catch (err) {
    await pool.close();
    throw err;
  }
  return pool;
}
