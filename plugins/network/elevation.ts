import { spawn } from 'node:child_process';
import { join } from 'node:path';
import { httpError, type AuthPrincipal, type PluginAuditEntry, type PrivilegeService, type PrivilegedResult } from '@vigil/plugin-sdk';
import { NetworkErrors } from './errors.js';
import { runBounded } from './run-bounded.js';
import { findTool } from './tool-path.js';

export type FirewallTool = 'ufw' | 'firewalld' | 'nftables';

/** The commands that dump each tool's live rule set: fixed argument lists, nothing from the request. */
export const RULE_DUMPS: Record<FirewallTool, { program: string; args: string[] }> = {
  ufw: { program: 'ufw', args: ['status', 'verbose'] },
  firewalld: { program: 'firewall-cmd', args: ['--list-all'] },
  nftables: { program: 'nft', args: ['list', 'ruleset'] },
};

export interface ElevationStatus {
  /** `direct`: Vigil runs as root; `helper`: the privileged helper (sudo or pkexec); null: privileged actions are not available. */
  via: 'direct' | 'helper' | null;
  /** The helper needs this session's password first (Host › Packages or this page's prompt unlocks it). */
  password_needed: boolean;
  note: string;
}

export interface RuleDump { command: string; output: string; exit_code: number | null; truncated: boolean }

export interface CaptureArgs {
  interface: string;
  packets: number;
  /** The wall-clock limit, s: the helper's own bound on the run (the manager stops it at the same time). */
  seconds: number;
  /** Checked against the capture filter's characters before it gets here; one argument, never a shell string. */
  filter: string;
  /** A file name in `captureDir`. */
  name: string;
}

export interface CaptureProcess {
  /** Settles when tcpdump has ended and written its file. */
  done: Promise<{ code: number | null; stderr: string }>;
  /** Ends it as Ctrl-C would: tcpdump flushes the file and exits. */
  stop(): void;
}

/** Who asks: the route's principal (the helper's sudo password is held per session; the helper audits each run). */
export interface Asker { principal: AuthPrincipal | undefined; address: string | null }

/** The privileged verbs this plugin uses: one path for all of them (the issue's single elevation path). */
export interface Elevation {
  status(principal: AuthPrincipal | undefined): ElevationStatus;
  /** The folder capture files are written into. */
  readonly captureDir: string;
  /** Signals `pid` if it still started at `startTicks` (checked again right before the signal). */
  kill(pid: number, signal: 'SIGTERM' | 'SIGKILL', startTicks: number, stillSame: () => boolean, who: Asker): Promise<void>;
  firewallRules(tool: FirewallTool, who: Asker): Promise<RuleDump>;
  capture(args: CaptureArgs, who: Asker): Promise<CaptureProcess>;
}

const RULES_TIMEOUT_MS = 10_000;
const RULES_MAX_BYTES = 1024 * 1024;
/** After a stop, how long tcpdump gets to flush before it is killed. */
const CAPTURE_STOP_GRACE_MS = 3000;

const unavailable = () => httpError(NetworkErrors.ELEVATION_UNAVAILABLE,
  'this needs root: Vigil does not run as root and no privileged helper is available');

async function tool(name: string): Promise<string> {
  const path = await findTool(name);
  if (!path) throw httpError(NetworkErrors.TOOL_MISSING, `${name} is not installed`);
  return path;
}

/**
 * Privileged verbs run by Vigil itself, which it can do only as root (a container, a system service run as root):
 * the path when the `privilege` plugin is off. Each verb is a fixed program with a fixed argument shape; arguments
 * from a request are validated before they come.
 */
export function directElevation(captureDir: string, audit: (entry: PluginAuditEntry) => Promise<void>, uid = process.getuid?.() ?? -1): Elevation {
  const root = uid === 0;
  /** Each run as the helper records its own (`host <verb>`), so the Host actions page lists them either way. */
  const record = (verb: string, args: string[], who: Asker, status: number, detail: string) =>
    audit({ principal: who.principal, action: `host ${verb}`, target: args.join(' '), status, address: who.address, detail });
  return {
    captureDir,
    status: () => (root
      ? { via: 'direct', password_needed: false, note: 'Vigil runs as root: privileged actions run directly (the privileged helper is off).' }
      : { via: null, password_needed: false, note: 'Vigil does not run as root and the privileged helper is off (add `privilege: {}` to the config): firewall rules, packet capture and stopping other users\' processes are not available.' }),

    async kill(pid, signal, startTicks, stillSame, who) {
      if (!root) throw unavailable();
      const args = [String(pid), signal.slice(3), String(startTicks)];
      if (!stillSame()) {
        await record('kill', args, who, 409, 'refused: the process ended or its pid was reused');
        throw httpError(NetworkErrors.PROCESS_GONE, `pid ${pid} exited just now; refresh the list`);
      }
      process.kill(pid, signal);
      await record('kill', args, who, 200, `${signal} sent directly (Vigil runs as root)`);
    },

    async firewallRules(which, who) {
      if (!root) throw unavailable();
      const dump = RULE_DUMPS[which];
      const run = await runBounded(await tool(dump.program), dump.args, { timeoutMs: RULES_TIMEOUT_MS, maxBytes: RULES_MAX_BYTES });
      await record('firewall-rules', [which], who, run.timedOut ? 504 : run.code === 0 ? 200 : 502, run.timedOut ? 'timed out' : `exit ${run.code}`);
      if (run.timedOut) throw httpError(NetworkErrors.TOOL_FAILED, `${dump.program} did not answer within ${RULES_TIMEOUT_MS / 1000} s`);
      return { command: [dump.program, ...dump.args].join(' '), output: run.stdout + (run.code === 0 ? '' : run.stderr), exit_code: run.code, truncated: run.truncated };
    },

    async capture(a, who) {
      if (!root) throw unavailable();
      const recorded = [a.interface, String(a.packets), String(a.seconds), a.name, ...(a.filter.trim() ? [a.filter.trim()] : [])];
      const tcpdump = await tool('tcpdump');
      // -U writes each packet as it comes (the file is whole at any moment); -n: no name lookups from a root process.
      // -Z root: tcpdump would switch to its own user after opening the device and then could not write into
      // Vigil's data folder; with -w it writes packets without dissecting them.
      const args = ['-i', a.interface, '-n', '-U', '-Z', 'root', '-c', String(a.packets), '-w', join(captureDir, a.name)];
      if (a.filter.trim()) args.push('--', a.filter.trim());
      const child = spawn(tcpdump, args, { stdio: ['ignore', 'ignore', 'pipe'] });
      let stderr = '';
      child.stderr!.on('data', (d: Buffer) => { if (stderr.length < 8192) stderr += d.toString(); });
      const done = new Promise<{ code: number | null; stderr: string }>((resolve) => {
        child.on('error', (err) => resolve({ code: null, stderr: err.message }));
        child.on('close', (code) => resolve({ code, stderr }));
      }).then(async (r) => {
        await record('tcpdump-capture', recorded, who, r.code === 0 ? 200 : 502, r.code === 0 ? 'ended' : `exit ${r.code}`);
        return r;
      });
      let stopping = false;
      return {
        done,
        stop() {
          if (stopping || child.exitCode !== null) return;
          stopping = true;
          child.kill('SIGINT');
          const hard = setTimeout(() => { if (child.exitCode === null) child.kill('SIGKILL'); }, CAPTURE_STOP_GRACE_MS);
          hard.unref();
        },
      };
    },
  };
}

/** A helper run that failed, as this plugin's error: the tool's own words. */
function failed(what: string, r: PrivilegedResult): never {
  throw httpError(NetworkErrors.TOOL_FAILED, `${what} ${r.timed_out ? 'did not finish in time' : `exited with ${r.exit_code ?? r.signal}`}: ${r.output.trim().split('\n').slice(-3).join(' ').slice(0, 400)}`);
}

/**
 * The verbs through the `privilege` plugin's helper (root, sudo with the session's password, or pkexec): its
 * `kill`, `firewall-rules` and `tcpdump-capture`, each checked against the verb's form and audited by the helper.
 */
export function helperElevation(privilege: PrivilegeService): Elevation {
  return {
    captureDir: privilege.captureDir,
    status(principal) {
      const s = privilege.status(principal);
      if (s.method === 'none') return { via: null, password_needed: false, note: s.note ?? 'The privileged helper cannot run verbs here.' };
      return {
        via: s.method === 'root' ? 'direct' : 'helper', password_needed: s.password_needed,
        note: s.method === 'root' ? 'Vigil runs as root: privileged actions run directly, through the helper.'
          : s.password_needed ? `Privileged actions run with ${s.method} as ${s.user}; enter the password first.` : `Privileged actions run with ${s.method} as ${s.user}.`,
      };
    },

    async kill(pid, signal, startTicks, stillSame, who) {
      if (!stillSame()) throw httpError(NetworkErrors.PROCESS_GONE, `pid ${pid} exited just now; refresh the list`);
      // The helper reads the start time again right before kill(1): a reused pid is refused there too.
      const r = await privilege.run({ verb: 'kill', args: [String(pid), signal.slice(3), String(startTicks)], principal: who.principal, address: who.address });
      if (!r.ok) failed('kill', r);
    },

    async firewallRules(which, who) {
      const r = await privilege.run({ verb: 'firewall-rules', args: [which], principal: who.principal, address: who.address });
      if (r.timed_out) failed('the rule dump', r);
      const dump = RULE_DUMPS[which];
      return { command: `${dump.program} ${which === 'firewalld' ? '--list-all-zones' : dump.args.join(' ')}`, output: r.output, exit_code: r.exit_code, truncated: r.output_truncated };
    },

    async capture(a, who) {
      const abort = new AbortController();
      const args = [a.interface, String(a.packets), String(a.seconds), a.name, ...(a.filter.trim() ? [a.filter.trim()] : [])];
      privilege.check('tcpdump-capture', args);
      const run = privilege.run({ verb: 'tcpdump-capture', args, principal: who.principal, address: who.address, signal: abort.signal });
      // A refusal (password needed, no tcpdump) comes before anything runs: it is the start's answer.
      const early = await Promise.race([run.then((r) => ({ r }), (err: unknown) => ({ err })), new Promise<undefined>((r) => { setTimeout(() => r(undefined), 300); })]);
      if (early && 'err' in early) throw early.err;
      const done = run.then(
        (r) => ({ code: r.ok || r.cancelled ? 0 : r.exit_code, stderr: r.ok || r.cancelled ? '' : r.output }),
        (err: unknown) => ({ code: null, stderr: (err as Error).message }),
      );
      return { done, stop: () => abort.abort() };
    },
  };
}
