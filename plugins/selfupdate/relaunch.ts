// The restart's second half, run as its own detached process (its own session, `setsid`): it outlives the Vigil that
// started it, waits for that process to end and for its control-plane port to be free, then starts Vigil again with
// the same command line, detached too, and exits. Usage: node relaunch.js '<RelaunchPlan as JSON>'.
import { spawn } from 'node:child_process';
import { closeSync, openSync, writeFileSync } from 'node:fs';
import { connect } from 'node:net';

export interface RelaunchPlan {
  /** The process to wait for. */
  pid: number;
  /** The port it listened on, and the host to knock at. */
  host: string;
  port: number;
  /** `process.execPath` and the arguments after it (node's own flags, the script, `run -config FILE`). */
  command: string;
  args: string[];
  cwd: string;
  /** Where the new process's stdout and stderr go (appended). */
  logFile: string;
  /** Written with `{ pid, previous_pid, started_at }` once the new process runs. */
  stateFile: string;
  /** How long to wait for the old process and its port, ms. */
  waitMs: number;
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

function alive(pid: number): boolean {
  try { process.kill(pid, 0); return true; } catch (err) { return (err as NodeJS.ErrnoException).code === 'EPERM'; }
}

/** True while something accepts connections on the port. */
function listening(host: string, port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = connect({ host, port });
    const done = (answer: boolean) => { socket.destroy(); resolve(answer); };
    socket.setTimeout(1_000, () => done(true));
    socket.once('connect', () => done(true));
    socket.once('error', () => done(false));
  });
}

async function relaunch(plan: RelaunchPlan): Promise<void> {
  const deadline = Date.now() + plan.waitMs;
  while (alive(plan.pid) && Date.now() < deadline) await sleep(200);
  while (await listening(plan.host, plan.port) && Date.now() < deadline) await sleep(200);
  const log = openSync(plan.logFile, 'a');
  const child = spawn(plan.command, plan.args, { cwd: plan.cwd, detached: true, stdio: ['ignore', log, log], env: process.env });
  closeSync(log);
  child.unref();
  if (child.pid) writeFileSync(plan.stateFile, JSON.stringify({ pid: child.pid, previous_pid: plan.pid, started_at: new Date().toISOString() }));
}

const arg = process.argv[2];
if (arg) relaunch(JSON.parse(arg) as RelaunchPlan).catch((err) => { process.stderr.write(`relaunch: ${(err as Error).stack}\n`); process.exitCode = 1; });
