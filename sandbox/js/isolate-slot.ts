/**
 * One warm isolate in a child process, running one task at a time. Each task gets a fresh context (prepared in the
 * background after the previous task), so nothing a call leaves in its globals reaches the next call.
 *
 * Work a call leaves behind belongs to the isolate, not to the context, so a fresh context alone does not stop it.
 * The runner removes what schedules work past the call (see guest-runner.ts); a call that ends normally has had its
 * microtasks drained and its rejections reported inside its own time limit. Any other end (a timeout, a throw out of
 * isolated-vm, top-level code that failed) can leave queued microtasks or a pending rejection in the isolate, so the
 * isolate is replaced before it serves another call; so is one that a call left more than half full.
 */
import ivm from 'isolated-vm';
import { guestRunnerFilename, guestRunnerSource } from './guest-runner.js';
import { classifyIsolateError, classifyThrown, type ThrownDescriptor } from './classify-guest-error.js';
import { jsonDeeperThan } from './json-depth.js';
import type { TaskMessage, TaskOutcome } from './protocol.js';

/** A function file as the child keeps it. The compile cache is produced here, never supplied by a user. */
export interface FunctionEntry {
  filename: string;
  source: string;
  cachedData?: ivm.ExternalCopy<ArrayBuffer>;
}

interface PreparedContext {
  context: ivm.Context;
  run: ivm.Reference<unknown>;
}

export interface SlotResult {
  outcome: TaskOutcome;
  /** Why this process should be replaced, when it should. */
  retire?: string;
}

/** Extra time the child allows past a call's limit before it disposes the isolate itself (isolated-vm's own timeout fires first). */
const overrunSlackMs = 15;

const forbiddenImport = (specifier: string): string =>
  `import of "${specifier}" is not available: a function file is a single module with no imports; ` +
  'bundle what it needs into the file';

export class IsolateSlot {
  busy = false;
  /** A fresh context is ready: a task started now skips context creation (about 0.5 ms). */
  warm = false;
  private isolate!: ivm.Isolate;
  private runner!: Promise<ivm.Script>;
  private spare: Promise<PreparedContext> | undefined;
  /** Counts spares made, so a spare finishing late knows whether it is still the current one. */
  private generation = 0;

  constructor(private readonly memoryLimitMb: number, private readonly onCatastrophicError: (message: string) => void) {
    this.boot();
  }

  private boot(): void {
    this.isolate = new ivm.Isolate({ memoryLimit: this.memoryLimitMb, onCatastrophicError: this.onCatastrophicError });
    this.runner = this.isolate.compileScript(guestRunnerSource, { filename: guestRunnerFilename });
    this.runner.catch(() => {});
    this.spare = undefined;
    this.prepareSpare();
  }

  private prepareSpare(): void {
    if (this.isolate.isDisposed) return;
    const isolate = this.isolate;
    this.warm = false;
    const generation = ++this.generation;
    const spare = (async (): Promise<PreparedContext> => {
      const context = await isolate.createContext();
      const run = (await (await this.runner).run(context, { reference: true })) as ivm.Reference<unknown>;
      if (this.generation === generation) this.warm = true;
      return { context, run };
    })();
    spare.catch(() => {});
    this.spare = spare;
  }

  /** Whether a call left the heap more than half the memory limit full, garbage included (bytes). */
  private heapOverHalf(isolate: ivm.Isolate): boolean {
    try {
      const h = isolate.getHeapStatisticsSync();
      return h.used_heap_size + h.externally_allocated_size > (this.memoryLimitMb * 1024 * 1024) / 2;
    } catch {
      return true;
    }
  }

  /** Disposes the isolate (ending whatever runs in it) and starts a fresh one. */
  recycle(): void {
    try { this.isolate.dispose(); } catch { /* already disposed */ }
    this.boot();
  }

  async heapStatistics(): Promise<{ usedHeapBytes: number; totalHeapBytes: number; externalBytes: number; references: number }> {
    if (this.isolate.isDisposed) return { usedHeapBytes: 0, totalHeapBytes: 0, externalBytes: 0, references: 0 };
    const h = await this.isolate.getHeapStatistics();
    return {
      usedHeapBytes: h.used_heap_size,
      totalHeapBytes: h.total_heap_size,
      externalBytes: h.externally_allocated_size,
      references: this.isolate.referenceCount,
    };
  }

  /** Runs a task; bounded by the task's time limit even when the guest awaits forever. */
  async execute(task: TaskMessage, fn: FunctionEntry): Promise<SlotResult> {
    // The call's time starts once its context is ready: making one is the host's work, not the guest's, and on a
    // busy machine it alone could use up a 250 ms limit (a failed eval the function did nothing to earn).
    await this.spare?.catch(() => undefined);
    const started = performance.now();
    const elapsed = (): number => Math.round((performance.now() - started) * 1000) / 1000;
    let overrun: NodeJS.Timeout | undefined;
    const guard = new Promise<SlotResult>((resolve) => {
      overrun = setTimeout(() => {
        // Still running past the limit: the guest is awaiting, or stuck where isolated-vm's timeout cannot reach.
        this.recycle();
        resolve({ outcome: { ok: false, reason: 'timeout', message: `the call ran past its time limit of ${task.timeoutMs} ms`, durationMs: elapsed() } });
      }, task.timeoutMs + overrunSlackMs);
    });
    try {
      const work = this.attempt(task, fn, started).then((r) => {
        r.outcome.durationMs = elapsed();
        return r;
      });
      work.catch(() => {});
      return await Promise.race([work, guard]);
    } finally {
      clearTimeout(overrun);
    }
  }

  private async attempt(task: TaskMessage, fn: FunctionEntry, started: number): Promise<SlotResult> {
    const remaining = (): number => Math.max(1, Math.ceil(started + task.timeoutMs - performance.now()));
    const isolate = this.isolate;
    const fail = (reason: TaskOutcome & { ok: false }, retire?: string): SlotResult => ({ outcome: reason, retire });
    let prepared: PreparedContext | undefined;
    let module: ivm.Module | undefined;
    let namespace: ivm.Reference<unknown> | undefined;
    // The isolate holds nothing of this call: no guest code ran, or it ran to a normal end.
    let clean = false;
    try {
      const ready = await (this.spare ?? Promise.reject(new Error('Isolate is disposed')));
      prepared = ready;
      this.spare = undefined;
      this.warm = false;
      this.generation++;

      let phase: 'compile' | 'run' = 'compile';
      try {
        // Compiling and linking run no guest code, so the synchronous forms (no thread hop) are safe here.
        module = isolate.compileModuleSync(fn.source, {
          filename: fn.filename,
          ...(fn.cachedData ? { cachedData: fn.cachedData } : { produceCachedData: true }),
        });
        const compiled = module as unknown as { cachedData?: ivm.ExternalCopy<ArrayBuffer>; cachedDataRejected?: boolean };
        if (!fn.cachedData && compiled.cachedData) fn.cachedData = compiled.cachedData;
        else if (compiled.cachedDataRejected) fn.cachedData = undefined;
        const specifiers = module.dependencySpecifiers;
        if (specifiers.length > 0) {
          clean = true;
          return fail({ ok: false, reason: 'forbidden', message: forbiddenImport(specifiers[0]), durationMs: 0 });
        }
        module.instantiateSync(ready.context, (specifier: string) => {
          throw new Error(forbiddenImport(specifier));
        });
        phase = 'run';
        await module.evaluate({ timeout: remaining() });
        // Each read of `module.namespace` makes a new handle; it is released below with the rest.
        namespace = module.namespace;
        const tuple = await ready.run.apply(
          undefined,
          [namespace.derefInto(), task.input, task.maxOutputBytes, task.mode === 'check'],
          { timeout: remaining(), result: { copy: true, promise: true } },
        );
        clean = true;
        return this.readTuple(tuple, task, fn);
      } catch (err) {
        // Compiling and linking run no guest code.
        clean = phase === 'compile';
        const c = classifyIsolateError(err, fn.source, phase, { timeoutMs: task.timeoutMs, memoryLimitMb: this.memoryLimitMb });
        const retire = isolate.isDisposed && this.isolate === isolate ? c.reason : undefined;
        // The process will be replaced; until then a task already on its way still finds a working isolate here.
        if (retire) this.boot();
        return fail({ ok: false, reason: c.reason, message: c.message, ...(c.stack ? { stack: c.stack } : {}), durationMs: 0 }, retire);
      }
    } catch (err) {
      const c = classifyIsolateError(err, fn.source, 'run', { timeoutMs: task.timeoutMs, memoryLimitMb: this.memoryLimitMb });
      return fail({ ok: false, reason: 'crash', message: c.message, durationMs: 0 }, 'crash');
    } finally {
      // Releasing handles of an isolate that was disposed meanwhile throws; there is nothing left to free then.
      try { namespace?.release(); } catch { /* disposed */ }
      try { module?.release(); } catch { /* disposed */ }
      try { prepared?.run.release(); } catch { /* disposed */ }
      try { prepared?.context.release(); } catch { /* disposed */ }
      if (this.isolate === isolate) {
        if (clean && !this.heapOverHalf(isolate)) this.prepareSpare();
        else this.recycle();
      }
    }
  }

  /** Checks the runner's tuple: it comes from inside the isolate, so its shape is not taken on trust. */
  private readTuple(tuple: unknown, task: TaskMessage, fn: FunctionEntry): SlotResult {
    const malformed: SlotResult = {
      outcome: { ok: false, reason: 'invalid_output', message: 'the sandbox runner was tampered with and returned a malformed result', durationMs: 0 },
    };
    if (!Array.isArray(tuple) || tuple.length !== 3) return malformed;
    const [tag, payload, rawLogs] = tuple as [unknown, unknown, unknown];
    const logs = Array.isArray(rawLogs) && rawLogs.length > 0 ? rawLogs.filter((l): l is string => typeof l === 'string') : undefined;
    const withLogs = <T extends TaskOutcome>(o: T): T => (logs?.length ? { ...o, logs } : o);
    switch (tag) {
      case 'v': {
        if (typeof payload !== 'string') return malformed;
        const bytes = Buffer.byteLength(payload, 'utf8');
        if (bytes > task.maxOutputBytes) {
          return { outcome: withLogs({ ok: false, reason: 'invalid_output', message: `the result is ${bytes} bytes of JSON, over the limit of ${task.maxOutputBytes} bytes`, durationMs: 0 }) };
        }
        if (jsonDeeperThan(payload, task.maxOutputDepth)) {
          const message = `the result nests arrays and objects more than ${task.maxOutputDepth} levels deep, deeper than the host accepts (maxOutputDepth); flatten it`;
          return { outcome: withLogs({ ok: false, reason: 'invalid_output', message, durationMs: 0 }) };
        }
        return { outcome: withLogs({ ok: true, json: payload, durationMs: 0 }) };
      }
      case 'x': {
        const d = payload as Partial<ThrownDescriptor> | null;
        if (!d || typeof d.message !== 'string') return malformed;
        const c = classifyThrown({ name: String(d.name ?? ''), message: d.message, stack: String(d.stack ?? '') }, fn.source);
        return { outcome: withLogs({ ok: false, reason: c.reason, message: c.message, ...(c.stack ? { stack: c.stack } : {}), durationMs: 0 }) };
      }
      case 'o':
      case 'n':
        if (typeof payload !== 'string') return malformed;
        return { outcome: withLogs({ ok: false, reason: tag === 'o' ? 'invalid_output' : 'compile', message: payload, durationMs: 0 }) };
      default:
        return malformed;
    }
  }
}
