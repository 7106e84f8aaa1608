import type { IncomingMessage } from 'node:http';
import type { WebSocket, RawData } from 'ws';
import { spawn, type IPty } from 'node-pty';
import type { AuthPrincipal, Logger, TerminalSource, TerminalStream } from '@vigil/plugin-sdk';
import { decodeCommand, MAX_INPUT_FRAME_BYTES, MAX_COLS, MAX_ROWS, parseClientFrame } from './client-frames.js';
import { TerminalErrors } from './errors.js';
import { FlowControl } from './flow-control.js';
import { endSession } from './session-reaper.js';
import { FolderError, resolveFolder, shellEnvironment } from './shell-launch.js';

/** Bytes queued on the socket above which the pty pauses, and below which it may go on: a client that acknowledges without reading. */
const SOCKET_FULL_BYTES = 1024 * 1024;
const SOCKET_DRAINED_BYTES = 256 * 1024;

export interface SessionDeps {
  shell: string;
  idleTimeoutMs: number;
  log: Logger;
  /** How long the session's processes have between SIGHUP and SIGKILL, in ms. */
  killGraceMs: number;
  /** Called once the session's processes are gone. */
  ended(session: TerminalSession): void;
  /** Sources of sessions other plugins registered (`?source=<name>&target=…`), by name. */
  sources?: ReadonlyMap<string, TerminalSource>;
}

/** Who opened a terminal, for the audit line: the session's handle (as `GET /api/sessions` lists it) or the token. */
export function describePrincipal(principal: AuthPrincipal | undefined): string {
  if (!principal) return 'anonymous';
  const subject = typeof principal.subject === 'string' ? principal.subject : undefined;
  if (principal.scheme === 'dashboard') return subject ? `dashboard ${subject}` : 'dashboard bearer token';
  return subject ? `${principal.scheme} ${subject}` : principal.scheme;
}

/** A close reason: the code and message, cut to the 123 bytes a close frame holds. */
function reason(code: string, message: string): string {
  let text = `${code}: ${message}`;
  while (Buffer.byteLength(text) > 123) text = text.slice(0, -2);
  return text;
}

const cellsParam = (value: string | null, fallback: number, max: number): number | undefined => {
  if (value === null || value === '') return fallback;
  const n = Number(value);
  return Number.isInteger(n) && n >= 1 && n <= max ? n : undefined;
};

/**
 * One terminal: a login shell on a pty, wired to one websocket. Output goes out as binary frames under flow control;
 * input, resizes and acknowledgements come in as text frames. Closing the socket ends every process of the shell's
 * session; the shell ending closes the socket.
 */
export class TerminalSession {
  private pty?: IPty;
  /** A registered source's session, in the pty's place (`?source=`). */
  private stream?: TerminalStream;
  private flow?: FlowControl;
  private lastActivity = Date.now();
  private idleTimer?: NodeJS.Timeout;
  private drainTimer?: NodeJS.Timeout;
  private bytesIn = 0;
  private bytesOut = 0;
  private readonly openedAt = Date.now();
  private closed = false;
  private exited = false;
  /** Settles once every process of the session is gone. */
  ended: Promise<void> = Promise.resolve();

  constructor(private readonly ws: WebSocket, private readonly req: IncomingMessage, private readonly principal: AuthPrincipal | undefined, private readonly deps: SessionDeps) {}

  get pid(): number | undefined { return this.pty?.pid; }

  /** Validates the request, starts the shell and wires the socket; closes the socket with a reason when it cannot. */
  async open(): Promise<void> {
    const url = new URL(this.req.url ?? '/', 'http://terminal.invalid');
    this.ws.on('close', () => this.close('the socket closed'));
    // Messages that arrive while the folder is checked (a first resize, keystrokes) wait for the shell.
    const early: RawData[] = [];
    const hold = (data: RawData): void => {
      if (early.length < 64) early.push(data);
      else this.refuse(1008, TerminalErrors.FRAME, 'too many messages before the shell started');
    };
    this.ws.on('message', hold);
    const command = decodeCommand(url.searchParams.get('cmd'));
    const cols = cellsParam(url.searchParams.get('cols'), 80, MAX_COLS);
    const rows = cellsParam(url.searchParams.get('rows'), 24, MAX_ROWS);
    if (typeof command === 'string' || cols === undefined || rows === undefined) {
      const why = typeof command === 'string' ? command : `cols must be 1-${MAX_COLS} and rows 1-${MAX_ROWS}`;
      return this.refuse(1008, TerminalErrors.REQUEST, why);
    }
    const sourceName = url.searchParams.get('source');
    if (sourceName !== null) return this.openSource(sourceName, url.searchParams.get('target') ?? '', { cols, rows }, hold, early);
    let cwd: string;
    try {
      cwd = await resolveFolder(url.searchParams.get('cwd') ?? undefined);
    } catch (err) {
      if (err instanceof FolderError) return this.refuse(4001, TerminalErrors.FOLDER, err.message);
      throw err;
    }
    if (this.closed) return;
    try {
      // encoding null: output stays bytes, sent as they come, never split inside a UTF-8 sequence by a decoder here.
      this.pty = spawn(this.deps.shell, ['-l'], { name: 'xterm-256color', cols, rows, cwd, env: shellEnvironment(), encoding: null });
    } catch (err) {
      this.deps.log.error('terminal: the shell could not start', { shell: this.deps.shell, err: err as Error });
      return this.refuse(1011, TerminalErrors.SPAWN, `${this.deps.shell} could not start`);
    }
    const pty = this.pty;
    const flow = (this.flow = new FlowControl(pty));
    this.deps.log.info('terminal opened', {
      audit: 'terminal.open', who: describePrincipal(this.principal), remote: this.req.socket.remoteAddress,
      user_agent: this.req.headers['user-agent'], cwd, shell: this.deps.shell, pid: pty.pid,
    });
    pty.onData((chunk: string | Buffer) => {
      if (this.closed) return;
      const bytes = typeof chunk === 'string' ? Buffer.from(chunk) : chunk;
      this.lastActivity = Date.now();
      this.bytesOut += bytes.length;
      this.ws.send(bytes, { binary: true });
      flow.sent(bytes.length);
      this.watchSocketBuffer();
    });
    pty.onExit(({ exitCode, signal }) => {
      this.exited = true;
      if (!this.closed) this.ws.close(1000, signal ? `the shell ended by signal ${signal}` : `the shell exited with ${exitCode}`);
    });
    this.ws.off('message', hold);
    this.ws.on('message', (data) => this.onMessage(data));
    for (const data of early) this.onMessage(data);
    if (command.command) pty.write(`${command.command}\r`);
    this.armIdleTimer();
  }

  /** A session of a registered source (a shell in a container): the same socket, frames, flow control and bounds. */
  private async openSource(name: string, target: string, size: { cols: number; rows: number }, hold: (data: RawData) => void, early: RawData[]): Promise<void> {
    const source = this.deps.sources?.get(name);
    if (!source) return this.refuse(1008, TerminalErrors.REQUEST, `no terminal source "${name.slice(0, 40)}"`);
    if (!target || target.length > 512) return this.refuse(1008, TerminalErrors.REQUEST, 'a source needs a `target` (at most 512 characters)');
    let stream: TerminalStream;
    try {
      stream = await source.open(target, size);
    } catch (err) {
      return this.refuse(1011, TerminalErrors.SPAWN, (err as Error).message);
    }
    if (this.closed) { await stream.close(); return; }
    this.stream = stream;
    const flow = (this.flow = new FlowControl(stream));
    this.deps.log.info('terminal opened', {
      audit: 'terminal.open', who: describePrincipal(this.principal), remote: this.req.socket.remoteAddress,
      user_agent: this.req.headers['user-agent'], source: name, program: source.describe(target),
    });
    stream.onData((bytes) => {
      if (this.closed) return;
      this.lastActivity = Date.now();
      this.bytesOut += bytes.length;
      this.ws.send(bytes, { binary: true });
      flow.sent(bytes.length);
      this.watchSocketBuffer();
    });
    stream.onExit(() => {
      this.exited = true;
      if (!this.closed) this.ws.close(1000, 'the session ended');
    });
    this.ws.off('message', hold);
    this.ws.on('message', (data) => this.onMessage(data));
    for (const data of early) this.onMessage(data);
    this.armIdleTimer();
  }

  /** Where keystrokes and resizes go: the pty, or the source's stream. */
  private get input(): { write(data: string): void; resize(cols: number, rows: number): void } | undefined {
    return this.pty ?? this.stream;
  }

  /** Text or binary alike: both are read as UTF-8. */
  private onMessage(data: RawData): void {
    const input = this.input;
    if (this.closed || !input) return;
    const size = Array.isArray(data) ? data.reduce((n, b) => n + b.length, 0) : (data as Buffer | ArrayBuffer).byteLength;
    if (size > MAX_INPUT_FRAME_BYTES) return this.refuse(1009, TerminalErrors.FRAME, `a message is over ${MAX_INPUT_FRAME_BYTES} bytes`);
    const text = Buffer.isBuffer(data) ? data.toString('utf8') : Buffer.concat(Array.isArray(data) ? data : [Buffer.from(data as ArrayBuffer)]).toString('utf8');
    const frame = parseClientFrame(text);
    if (typeof frame === 'string') return this.refuse(1008, TerminalErrors.FRAME, frame);
    switch (frame.kind) {
      case 'input':
        this.lastActivity = Date.now();
        this.bytesIn += size;
        input.write(frame.data);
        break;
      case 'resize':
        input.resize(frame.cols, frame.rows);
        break;
      case 'ack':
        this.flow!.acknowledged(frame.bytes);
        break;
    }
  }

  /** Holds the pty while the socket's send buffer is over its bound; polls it, as `ws` has no drain event. */
  private watchSocketBuffer(): void {
    if (this.ws.bufferedAmount <= SOCKET_FULL_BYTES || this.drainTimer) return;
    this.flow!.socketFull(true);
    this.drainTimer = setInterval(() => {
      if (this.ws.bufferedAmount > SOCKET_DRAINED_BYTES) return;
      clearInterval(this.drainTimer);
      this.drainTimer = undefined;
      this.flow?.socketFull(false);
    }, 50);
    this.drainTimer.unref();
  }

  private armIdleTimer(): void {
    const idle = this.deps.idleTimeoutMs;
    if (idle <= 0) return;
    const check = (): void => {
      const quiet = Date.now() - this.lastActivity;
      if (quiet >= idle) return this.refuse(4000, TerminalErrors.IDLE, `idle for ${Math.round(quiet / 1000)} s`);
      this.idleTimer = setTimeout(check, idle - quiet);
      this.idleTimer.unref();
    };
    this.idleTimer = setTimeout(check, idle);
    this.idleTimer.unref();
  }

  private refuse(code: number, errorCode: string, message: string): void {
    if (this.ws.readyState === this.ws.OPEN) this.ws.close(code, reason(errorCode, message));
    this.close(message);
  }

  /** Ends the terminal once: timers off, the session's processes ended, the audit line written. Idempotent. */
  close(why: string): Promise<void> {
    if (this.closed) return this.ended;
    this.closed = true;
    clearTimeout(this.idleTimer);
    clearInterval(this.drainTimer);
    if (this.ws.readyState === this.ws.OPEN || this.ws.readyState === this.ws.CONNECTING) this.ws.close(1001, 'the terminal closed');
    const pty = this.pty;
    const stream = this.stream;
    this.ended = (async () => {
      if (stream) {
        stream.resume();
        await stream.close();
        this.deps.log.info('terminal closed', {
          audit: 'terminal.close', who: describePrincipal(this.principal), why, duration_ms: Date.now() - this.openedAt, bytes_in: this.bytesIn, bytes_out: this.bytesOut,
        });
      }
      if (pty) {
        // Resumed, so a shell paused by flow control can read its hangup and exit.
        pty.resume();
        const killed = await endSession(pty.pid, { graceMs: this.deps.killGraceMs });
        // The shell's pid is only ours to signal while node-pty has not reaped it.
        if (!this.exited) try { pty.kill('SIGKILL'); } catch { /* exited meanwhile */ }
        this.deps.log.info('terminal closed', {
          audit: 'terminal.close', who: describePrincipal(this.principal), pid: pty.pid, why,
          duration_ms: Date.now() - this.openedAt, bytes_in: this.bytesIn, bytes_out: this.bytesOut, killed_after_grace: killed,
        });
      }
      this.deps.ended(this);
    })();
    return this.ended;
  }
}
