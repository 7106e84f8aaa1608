// One Extism plugin instance inside a sandbox worker, with the host functions Vigil overrides. Runs in the worker
// thread only: calls here cannot be interrupted, which is why the host enforces wall-clock limits by terminating
// the whole worker.
import createPlugin, { type CallContext, type Plugin } from '@extism/extism';

/** A host function as Extism types it; each one below declares the arguments it takes. */
// eslint-disable-next-line @typescript-eslint/no-explicit-any
type HostFunction = (ctx: CallContext, ...args: any[]) => any;
import type { GuestFailureReason, WorkerInit } from './worker-protocol.js';
import { WASM_PAGE_BYTES } from './module-memory.js';
import { createHttpBridge, type HttpBridge } from './http-bridge.js';
import { Wasm, type WasmExports, type WasmMemory } from './webassembly.js';

export type GuestResult =
  | { ok: true; output: Uint8Array; replace: boolean }
  | { ok: false; reason: GuestFailureReason; message: string };

type LogLevel = 'debug' | 'info' | 'warn' | 'error';
export type GuestLog = (level: LogLevel, message: string) => void;

/** Thrown by our host functions; carries the failure reason through the guest's stack. */
class HostLimitError extends Error {
  constructor(readonly reason: GuestFailureReason, message: string) {
    super(message);
  }
}

/** Longest guest string read back for an abort message, in UTF-16 units. */
const MAX_ABORT_CHARS = 1024;
const utf16 = new TextDecoder('utf-16le');

export class GuestInstance {
  private input: Uint8Array = new Uint8Array(0);
  private inputView: DataView = new DataView(new ArrayBuffer(0));
  private hostBytes = 0;
  private logLines = 0;
  private memory: WasmMemory | undefined;
  private exports: WasmExports = {};

  private constructor(
    private readonly init: WorkerInit,
    private readonly log: GuestLog,
    private readonly http: HttpBridge | undefined,
  ) {}

  static async create(init: WorkerInit, log: GuestLog): Promise<GuestInstance> {
    const http = init.allowedHosts.length > 0
      ? createHttpBridge({
        allowedHosts: init.allowedHosts, maxResponseBytes: init.maxHttpResponseBytes, timeoutMs: init.httpTimeoutMs,
      })
      : undefined;
    const guest = new GuestInstance(init, log, http);
    guest.plugin = await createPlugin({ wasm: [{ module: init.module }] }, {
      useWasi: false,
      runInWorker: false,
      config: init.config,
      logger: guest.logger(),
      functions: guest.hostFunctions(),
    });
    const instance = (await guest.plugin.getInstance()) as { exports: WasmExports };
    guest.exports = instance.exports;
    const memory = instance.exports.memory;
    guest.memory = memory instanceof Wasm.Memory ? memory : undefined;
    return guest;
  }

  private plugin!: Plugin;

  /** Runs one export. Never throws: failures come back as results, and `replace` says the instance is spent. */
  async call(fn: string, input: Uint8Array): Promise<GuestResult> {
    // Extism stores a Uint8Array input by its whole backing buffer, so the guest must not see a larger one.
    this.input = input.byteOffset === 0 && input.byteLength === input.buffer.byteLength ? input : input.slice();
    this.inputView = new DataView(this.input.buffer, 0, this.input.byteLength);
    this.hostBytes = 0;
    this.logLines = 0;
    let output: Uint8Array;
    try {
      this.stageInput();
      const out = await this.plugin.call(fn, this.input);
      // PluginOutput is a DataView over the output block, which is dropped by the reset below.
      const view = out as unknown as DataView | null;
      output = view ? new Uint8Array(view.buffer, view.byteOffset, view.byteLength) : new Uint8Array(0);
    } catch (err) {
      return this.failure(err);
    } finally {
      // 1.0.x keeps every block until reset: without this, call 16,384 fails with "cannot assign to this block".
      await this.plugin.reset();
    }
    return { ok: true, output, replace: !this.collectGarbage() };
  }

  async close(): Promise<void> {
    this.http?.close();
    await this.plugin?.close();
  }

  /**
   * Copies the input straight into guest memory when the guest exports `vigil_stage_input` (plugin-sdk's policy
   * helpers do). Reading input through Extism's input_load_u64 costs a host call per 8 bytes.
   */
  private stageInput(): void {
    const stage = this.exports.vigil_stage_input;
    if (typeof stage !== 'function' || !this.memory) return;
    const length = this.input.byteLength;
    const ptr = Number((stage as (n: number) => unknown)(length));
    const buffer = this.memory.buffer;
    if (!Number.isInteger(ptr) || ptr <= 0 || ptr + length > buffer.byteLength) {
      throw new HostLimitError('trap', `vigil_stage_input returned an address outside guest memory (${ptr})`);
    }
    new Uint8Array(buffer, ptr, length).set(this.input);
  }

  /**
   * Runs the guest's collector between calls, when no guest frame is live. Policies built by `vigil policy build`
   * use AssemblyScript's minimal runtime, which collects only when asked; without this their heap only grows.
   * Returns false when the collector failed and the instance must not be used again.
   */
  private collectGarbage(): boolean {
    const collect = this.exports.__collect;
    if (typeof collect !== 'function') return true;
    try {
      (collect as () => void)();
      return true;
    } catch {
      return false;
    }
  }

  private failure(err: unknown): GuestResult {
    const message = err instanceof Error ? err.message : String(err);
    if (err instanceof HostLimitError && err.reason !== 'trap') return { ok: false, reason: err.reason, message };
    const outOfMemory = (err instanceof RangeError && /allocation failed|out of memory|maximum memory/i.test(message)) ||
      /Allocation too large|Invalid length/.test(message) ||
      (err instanceof Wasm.RuntimeError && /unreachable/.test(message) && this.nearMemoryCap());
    if (outOfMemory) {
      const pages = `guest memory at ${this.memoryPages()} of ${this.init.maxMemoryPages} pages`;
      return { ok: false, reason: 'memory', message: `${message} (${pages})` };
    }
    return { ok: false, reason: 'trap', message };
  }

  private memoryPages(): number {
    return this.memory ? this.memory.buffer.byteLength / WASM_PAGE_BYTES : 0;
  }

  /**
   * AssemblyScript's allocator traps with a bare `unreachable` when memory.grow fails, so a trap with memory
   * within a quarter of the cap is reported as a memory failure. Best effort: the trap is contained either way.
   */
  private nearMemoryCap(): boolean {
    return this.memoryPages() * 4 >= this.init.maxMemoryPages * 3;
  }

  private readGuestString(ptr: number): string {
    const memory = this.memory;
    if (!memory || ptr < 4) return '';
    const buffer = memory.buffer;
    if (ptr > buffer.byteLength) return '';
    // AssemblyScript strings: UTF-16 units at ptr, their byte length in the object header just before.
    const bytes = new DataView(buffer).getUint32(ptr - 4, true);
    const length = Math.min(bytes, MAX_ABORT_CHARS * 2, buffer.byteLength - ptr) & ~1;
    return utf16.decode(new Uint8Array(buffer, ptr, length));
  }

  private logger(): Console {
    const forward = (level: LogLevel) => (...args: unknown[]) => {
      if (++this.logLines > this.init.maxLogLinesPerCall) return;
      this.log(level, args.map(String).join(' ').slice(0, 4096));
    };
    return { debug: forward('debug'), info: forward('info'), warn: forward('warn'), error: forward('error') } as unknown as Console;
  }

  private hostFunctions(): Record<string, Record<string, HostFunction>> {
    const env: Record<string, HostFunction> = {
      // Blocks live in host memory, outside the guest's capped linear memory: bound them per call.
      alloc: (ctx: CallContext, size: bigint) => {
        this.hostBytes += Number(size);
        if (this.hostBytes > this.init.maxHostBytes) {
          throw new HostLimitError('memory', `the guest allocated more than ${this.init.maxHostBytes} bytes of host memory in one call`);
        }
        return ctx.alloc(size);
      },
      // Faster equivalents of Extism's input readers (no block lookup per 8 bytes); same results.
      input_length: () => BigInt(this.input.byteLength),
      input_load_u8: (_ctx: CallContext, offset: bigint) => this.input[Number(offset)] ?? 0,
      input_load_u64: (_ctx: CallContext, offset: bigint) => {
        const at = Number(offset);
        return at + 8 <= this.input.byteLength ? this.inputView.getBigUint64(at, true) : 0n;
      },
    };
    const http = this.http;
    if (http) {
      env.http_request = (ctx: CallContext, request: bigint, body: bigint) => http.request(ctx, request, body);
      env.http_status_code = () => http.lastStatus;
    } else {
      // Extism's default logs and returns address 0, which a guest may read as an empty response: trap instead.
      env.http_request = () => {
        throw new HostLimitError('trap', 'http_request: this sandbox allows no HTTP (its allowedHosts list is empty)');
      };
      env.http_status_code = () => 0;
    }
    return {
      'extism:host/env': env,
      // AssemblyScript's default imports. Other Extism hosts need `--use abort=…`; here a trap keeps its message.
      env: {
        abort: (_ctx: CallContext, message: number, file: number, line: number, column: number) => {
          // Before instantiation completes (top-level code failing) the guest's memory is not reachable yet.
          const text = this.readGuestString(message) || (this.memory ? 'abort' : 'abort in the module\'s top-level code, while starting');
          const where = this.readGuestString(file);
          throw new HostLimitError('trap', where ? `${text} (${where}:${line}:${column})` : text);
        },
        trace: (_ctx: CallContext, message: number) => {
          if (++this.logLines <= this.init.maxLogLinesPerCall) this.log('debug', this.readGuestString(message));
        },
        seed: () => Date.now(),
      },
    };
  }
}
