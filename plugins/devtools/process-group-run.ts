import { spawn } from 'node:child_process';
import { StringDecoder } from 'node:string_decoder';

/** After SIGTERM, a process group that still has members gets SIGKILL this much later. */
export const KILL_GRACE_MS = 5_000;

export interface GroupRunEnd {
  exitCode: number | null;
  signal: string | null;
  /** Stopped by the user, or at the wall-clock limit. */
  stopped: boolean;
  timedOut: boolean;
  /** The program could not be started (ENOENT…): the sentence. */
  spawnError: string | null;
}

export interface GroupRun {
  readonly pid: number | undefined;
  /** Ends the whole tree: SIGTERM to the group, SIGKILL to it after KILL_GRACE_MS. Safe to call twice. */
  stop(): void;
  readonly ended: Promise<GroupRunEnd>;
}

function signalGroup(pgid: number, signal: NodeJS.Signals): boolean {
  try {
    process.kill(-pgid, signal);
    return true;
  } catch {
    return false; // ESRCH: nobody left in the group
  }
}

/**
 * Starts `argv` in `cwd` as the leader of a new process group (`detached`), so Stop and the wall-clock limit reach
 * every process it started (npm → sh → node → its workers), not only the first. No shell, stdin closed. `onOutput`
 * gets stdout and stderr decoded as UTF-8, interleaved as they arrive.
 *
 * The run ends when its stdout and stderr close, i.e. when every process holding them has exited. After a stop, the
 * group gets SIGKILL at the grace even if the leader left at once, so a child that ignores SIGTERM does not survive.
 */
export function startGroupRun(o: { argv: readonly string[]; cwd: string; env: NodeJS.ProcessEnv; timeoutMs: number; onOutput(text: string): void }): GroupRun {
  let stopped = false;
  let timedOut = false;
  let killTimer: NodeJS.Timeout | undefined;
  const child = spawn(o.argv[0], o.argv.slice(1), { cwd: o.cwd, env: o.env, stdio: ['ignore', 'pipe', 'pipe'], detached: true });
  const pgid = child.pid;
  const stop = (): void => {
    if (stopped || pgid === undefined) return;
    stopped = true;
    signalGroup(pgid, 'SIGTERM');
    killTimer = setTimeout(() => signalGroup(pgid, 'SIGKILL'), KILL_GRACE_MS);
    killTimer.unref();
  };
  const limit = setTimeout(() => { timedOut = true; stop(); }, o.timeoutMs);
  limit.unref();
  const take = (decoder: StringDecoder) => (chunk: Buffer): void => {
    const text = decoder.write(chunk);
    if (text) o.onOutput(text);
  };
  child.stdout.on('data', take(new StringDecoder('utf8')));
  child.stderr.on('data', take(new StringDecoder('utf8')));
  const ended = new Promise<GroupRunEnd>((resolve) => {
    let spawnError: string | null = null;
    child.once('error', (err: NodeJS.ErrnoException) => {
      spawnError = err.code === 'ENOENT' ? `${o.argv[0]} is not installed or not on the PATH` : `${o.argv[0]} could not be started: ${err.code ?? err.message}`;
    });
    child.once('close', (code, signal) => {
      clearTimeout(limit);
      // The kill timer stays armed after a stop: members that closed their output but still run get SIGKILL too.
      resolve({ exitCode: code, signal, stopped: stopped && !timedOut, timedOut, spawnError });
    });
  });
  return { pid: pgid, stop, ended };
}
