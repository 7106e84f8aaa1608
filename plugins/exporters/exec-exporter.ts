import type { Exporter, ExporterDeps, ExportRecord } from './exporter.js';
import { ExporterClosedError, ProcessDownError } from './errors.js';
import { ExecProcess } from './exec-process.js';
import { jsonLine } from './json-lines.js';

export interface ExecExporterOptions {
  name: string;
  /** A path, or a bare name looked up in PATH. */
  command: string;
  args?: string[];
  /**
   * When true, the process writes one line on stdout per record it has handled, and a batch counts as delivered only
   * once all its lines are acknowledged; a process killed mid-batch then loses nothing (records it acknowledged are
   * not sent again). When false, a batch is delivered once it is in the pipe.
   */
  ack?: boolean;
  /** Restart backoff: base and cap. Defaults 500 ms and 30,000 ms. */
  restartBackoffMs?: number;
  maxRestartBackoffMs?: number;
  /** On shutdown: how long the process gets to exit after stdin closes, before SIGTERM (and as long again before SIGKILL). Default 3,000. */
  stopGraceMs?: number;
}

/** A run at least this long resets the restart backoff. */
const STABLE_RUN_MS = 10_000;

/**
 * Streams NDJSON to a user executable's stdin: each record's JSON text on a line, as it is. The process is restarted
 * with backoff when it exits; while it is down, `send` fails with a retryable error, so records wait in the delivery
 * queue (within its bound).
 */
export function createExecExporter(options: ExecExporterOptions, deps: ExporterDeps): Exporter<ExportRecord> {
  const { log } = deps;
  const ack = options.ack ?? false;
  const baseMs = options.restartBackoffMs ?? 500;
  const capMs = options.maxRestartBackoffMs ?? 30_000;
  let current: ExecProcess | undefined;
  let quickExits = 0;
  let restartTimer: NodeJS.Timeout | undefined;
  let restartAt = 0;
  let closed = false;
  let shuttingDown: Promise<void> | undefined;
  // Records of a batch already acknowledged by an earlier attempt: the queue retries with the same array.
  const progress = new WeakMap<readonly ExportRecord[], number>();

  function launch(): void {
    restartTimer = undefined;
    if (closed) return;
    current = new ExecProcess(options.command, options.args ?? [], ack, log, onGone);
    log.info('exporter process started', { pid: current.child.pid });
  }

  function onGone(proc: ExecProcess, why: string): void {
    if (closed || proc !== current) return;
    quickExits = Date.now() - proc.startedAt >= STABLE_RUN_MS ? 0 : quickExits + 1;
    const step = Math.min(capMs, baseMs * 2 ** Math.max(0, quickExits - 1));
    const delayMs = Math.round(step / 2 + (Math.random() * step) / 2);
    restartAt = Date.now() + delayMs;
    log.warn('exporter process ended; restarting', { why, delayMs });
    restartTimer = setTimeout(launch, delayMs);
    restartTimer.unref();
  }

  function down(): ProcessDownError {
    const wait = restartTimer ? `; restarting in ${Math.max(0, restartAt - Date.now())} ms` : '';
    return new ProcessDownError(`exec exporter ${options.name}: the process is not running${wait}`);
  }

  async function send(batch: ExportRecord[], signal: AbortSignal): Promise<void> {
    if (closed) throw new ExporterClosedError(options.name);
    const proc = current;
    if (!proc || proc.gone) throw down();
    const from = progress.get(batch) ?? 0;
    if (from >= batch.length) return;
    const lines = batch.slice(from).map(jsonLine);
    const onAbort = new Promise<never>((_r, reject) => {
      if (signal.aborted) reject(signal.reason);
      signal.addEventListener('abort', () => reject(signal.reason), { once: true });
    });
    onAbort.catch(() => {});
    const first = proc.written;
    proc.written += lines.length;
    try {
      await Promise.race([proc.write(Buffer.concat(lines)), onAbort]);
    } catch (err) {
      if (signal.aborted) throw signal.reason;
      throw proc.gone ? down() : err;
    }
    if (!ack) return;
    // Lines first+1 … first+lines.length of this process's stream are this batch's.
    const target = first + lines.length;
    while (proc.acked < target) {
      if (proc.gone) {
        const done = proc.acked - first;
        if (done > 0) progress.set(batch, from + done);
        throw down();
      }
      await Promise.race([proc.nextAck(), onAbort]).catch((err) => {
        const done = proc.acked - first;
        if (done > 0) progress.set(batch, from + done);
        throw err;
      });
    }
  }

  return {
    start() {
      if (!current && !closed) launch();
    },
    send,
    shutdown() {
      shuttingDown ??= (async () => {
        closed = true;
        if (restartTimer) clearTimeout(restartTimer);
        const proc = current;
        if (!proc || proc.gone) return;
        const grace = options.stopGraceMs ?? 3_000;
        proc.child.stdin!.end();
        if (await proc.waitGone(grace)) return;
        proc.child.kill('SIGTERM');
        if (await proc.waitGone(grace)) return;
        proc.child.kill('SIGKILL');
        await proc.waitGone(grace);
      })();
      return shuttingDown;
    },
  };
}
