// Host side of one sandbox worker: starts it, runs one call at a time on it with a wall-clock limit, and replaces
// it when a call overruns (the only way to stop a guest mid-call) or when the thread dies.
import { Worker } from 'node:worker_threads';
import {
  WasmCallError, WasmSandboxErrors, WasmSandboxUnavailableError, type SandboxFailureReason,
} from './errors.js';
import type { CallRequest, WorkerInit, WorkerMessage } from './worker-protocol.js';

export interface PendingCall {
  fn: string;
  input: Uint8Array;
  resolve(output: Uint8Array): void;
  reject(err: Error): void;
}

export interface SlotHooks {
  timeoutMs: number;
  /** JS heap limit of the worker thread (guest linear memory is capped separately, in the module). */
  heapLimitMb: number;
  /** The slot can take a call (after start-up, a finished call, or a replacement). */
  onIdle(): void;
  onFailure(reason: SandboxFailureReason, err: WasmCallError): void;
  onLog?(level: 'debug' | 'info' | 'warn' | 'error', message: string): void;
  /** A replacement worker could not start; the slot is dead until `start` is called again. */
  onDead(err: Error): void;
}

type SlotState = 'starting' | 'idle' | 'busy' | 'dead' | 'closed';

let nextCallId = 1;

export class WorkerSlot {
  private worker: Worker | undefined;
  private state: SlotState = 'dead';
  private current: { id: number; call: PendingCall; timer: NodeJS.Timeout } | undefined;
  /** Replacements made since creation (timeouts, crashes). */
  restarts = 0;

  constructor(private readonly init: WorkerInit, private readonly hooks: SlotHooks) {}

  get idle(): boolean { return this.state === 'idle'; }
  get dead(): boolean { return this.state === 'dead'; }

  /** Spawns the worker; resolves once its guest is instantiated, rejects when the module fails to start. */
  start(): Promise<void> {
    this.state = 'starting';
    const worker = new Worker(new URL('./sandbox-worker.js', import.meta.url), {
      workerData: this.init,
      // Extism imports node:wasi at load time, which prints an ExperimentalWarning into the host's stderr.
      execArgv: ['--no-warnings'],
      resourceLimits: { maxOldGenerationSizeMb: this.hooks.heapLimitMb },
    });
    this.worker = worker;
    let exitError: Error | undefined;
    return new Promise<void>((resolve, reject) => {
      let started = false;
      worker.on('message', (message: WorkerMessage) => {
        if (message.type === 'ready') {
          started = true;
          this.state = 'idle';
          worker.unref();
          resolve();
          this.hooks.onIdle();
        } else if (message.type === 'init_failed') {
          this.discard(worker);
          reject(new Error(message.message));
        } else {
          this.onMessage(worker, message);
        }
      });
      worker.on('error', (err) => { exitError = err; });
      worker.on('exit', (code) => {
        if (!started) {
          if (this.worker === worker) {
            this.worker = undefined;
            if (this.state !== 'closed') this.state = 'dead';
          }
          reject(exitError ?? new Error(`the sandbox worker exited with code ${code} while starting`));
          return;
        }
        if (this.worker !== worker) return; // replaced or terminated on purpose
        this.worker = undefined;
        const outOfMemory = (exitError as { code?: string } | undefined)?.code === 'ERR_WORKER_OUT_OF_MEMORY';
        const reason = outOfMemory ? 'memory' : 'crash';
        this.failCurrent(reason, `the sandbox worker died (${exitError?.message ?? `exit code ${code}`})`, exitError);
        this.replace();
      });
    });
  }

  /** Runs `call` on this slot, which must be idle. */
  run(call: PendingCall): void {
    const worker = this.worker;
    if (!worker || this.state !== 'idle') throw new Error('WorkerSlot.run on a slot that is not idle');
    const id = nextCallId++;
    this.state = 'busy';
    worker.ref();
    const timer = setTimeout(() => this.onTimeout(id), this.hooks.timeoutMs);
    this.current = { id, call, timer };
    const request: CallRequest = { type: 'call', id, fn: call.fn, input: call.input };
    worker.postMessage(request, [call.input.buffer as ArrayBuffer]);
  }

  async close(): Promise<void> {
    this.state = 'closed';
    const worker = this.worker;
    this.worker = undefined;
    const current = this.current;
    if (current) {
      clearTimeout(current.timer);
      this.current = undefined;
      current.call.reject(new WasmSandboxUnavailableError(WasmSandboxErrors.CLOSED, 'the wasm sandbox was closed during the call'));
    }
    if (worker) await worker.terminate();
  }

  private onMessage(worker: Worker, message: WorkerMessage): void {
    if (message.type === 'log') {
      this.hooks.onLog?.(message.level, message.message);
      return;
    }
    if (message.type !== 'result' && message.type !== 'failure') return;
    const current = this.current;
    if (!current || current.id !== message.id || this.worker !== worker) return;
    clearTimeout(current.timer);
    this.current = undefined;
    this.state = 'idle';
    worker.unref();
    if (message.type === 'result') {
      current.call.resolve(message.output);
    } else {
      const err = new WasmCallError(message.reason, `wasm call ${current.call.fn} failed (${message.reason}): ${message.message}`);
      this.hooks.onFailure(message.reason, err);
      current.call.reject(err);
    }
    this.hooks.onIdle();
  }

  private onTimeout(id: number): void {
    if (this.current?.id !== id) return;
    this.failCurrent('timeout', `wasm call ${this.current.call.fn} exceeded its ${this.hooks.timeoutMs} ms limit`);
    this.replace();
  }

  private failCurrent(reason: SandboxFailureReason, message: string, cause?: unknown): void {
    const current = this.current;
    if (!current) return;
    clearTimeout(current.timer);
    this.current = undefined;
    const err = new WasmCallError(reason, message, { cause });
    this.hooks.onFailure(reason, err);
    current.call.reject(err);
  }

  /** Kills the current worker (it may be stuck in guest code) and starts a fresh one. */
  private replace(): void {
    if (this.state === 'closed') return;
    const old = this.worker;
    if (old) this.discard(old);
    this.restarts++;
    this.start().catch((err: Error) => {
      this.state = 'dead';
      this.hooks.onDead(err);
    });
  }

  private discard(worker: Worker): void {
    if (this.worker === worker) this.worker = undefined;
    void worker.terminate();
  }
}
