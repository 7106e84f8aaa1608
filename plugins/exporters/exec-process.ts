import { spawn, type ChildProcess } from 'node:child_process';
import { createInterface } from 'node:readline';
import type { Logger } from '@vigil/plugin-sdk';

/** Longest stderr line logged, in characters; the rest is cut. */
const MAX_LOGGED_LINE = 4096;

/**
 * One run of the user's executable: stdin for NDJSON, stderr lines to the log, and (in ack mode) stdout lines
 * counted as acknowledgements. `written` and `acked` are running totals of lines, so an acknowledgement that
 * arrives after its batch's attempt timed out is still matched to the right line.
 */
export class ExecProcess {
  readonly child: ChildProcess;
  readonly startedAt = Date.now();
  written = 0;
  acked = 0;
  gone = false;
  private readonly goneWaiters: (() => void)[] = [];
  private readonly ackWaiters: (() => void)[] = [];

  constructor(command: string, args: readonly string[], ack: boolean, log: Logger, onGone: (proc: ExecProcess, why: string) => void) {
    this.child = spawn(command, [...args], { stdio: ['pipe', ack ? 'pipe' : 'ignore', 'pipe'] });
    const { child } = this;
    // EPIPE and friends when the process dies mid-write; its exit is handled below.
    child.stdin!.on('error', () => {});
    createInterface({ input: child.stderr!, crlfDelay: Infinity }).on('line', (line) => {
      log.info('exporter process stderr', { line: line.length > MAX_LOGGED_LINE ? line.slice(0, MAX_LOGGED_LINE) + '…' : line });
    });
    if (ack) {
      createInterface({ input: child.stdout!, crlfDelay: Infinity }).on('line', () => {
        this.acked++;
        for (const w of this.ackWaiters.splice(0)) w();
      });
    }
    const end = (why: string): void => {
      if (this.gone) return;
      this.gone = true;
      for (const w of this.goneWaiters.splice(0)) w();
      for (const w of this.ackWaiters.splice(0)) w();
      onGone(this, why);
    };
    child.on('error', (err) => end(`failed: ${err.message}`));
    child.on('exit', (code, signal) => {
      const why = signal ? `killed by ${signal}` : `exited with code ${code}`;
      // Acks the process wrote before it died are still in the stdout pipe: count them before declaring it gone,
      // or records it did handle would be sent again. Bounded, in case a grandchild keeps the pipe open.
      const stdout = child.stdout;
      if (!ack || !stdout || stdout.destroyed) { end(why); return; }
      const timer = setTimeout(() => end(why), 500);
      stdout.once('close', () => { clearTimeout(timer); end(why); });
    });
  }

  /** Resolves when the process is gone, or after `ms` (true when it is gone). */
  waitGone(ms: number): Promise<boolean> {
    if (this.gone) return Promise.resolve(true);
    return new Promise((resolve) => {
      const timer = setTimeout(() => resolve(this.gone), ms);
      this.goneWaiters.push(() => { clearTimeout(timer); resolve(true); });
    });
  }

  /** Resolves on the next acknowledgement or when the process goes. */
  nextAck(): Promise<void> {
    return new Promise((resolve) => this.ackWaiters.push(resolve));
  }

  /** Writes `payload`; resolves once it is flushed to the pipe and the pipe has drained. */
  write(payload: Buffer): Promise<void> {
    const stdin = this.child.stdin!;
    return new Promise((resolve, reject) => {
      let flushed = false;
      let drained = false;
      const done = (): void => { if (flushed && drained) { cleanup(); resolve(); } };
      const onGone = (): void => { cleanup(); reject(new Error('process ended during the write')); };
      const onDrain = (): void => { drained = true; done(); };
      const cleanup = (): void => {
        stdin.off('drain', onDrain);
        const i = this.goneWaiters.indexOf(onGone);
        if (i >= 0) this.goneWaiters.splice(i, 1);
      };
      this.goneWaiters.push(onGone);
      const ok = stdin.write(payload, (err) => {
        if (err) { cleanup(); reject(err); return; }
        flushed = true;
        done();
      });
      // Backpressure: a full pipe means the process is behind; wait for 'drain' before the next batch is written.
      if (ok) drained = true;
      else stdin.once('drain', onDrain);
    });
  }
}
