import type { AuthPrincipal } from './http.js';

/**
 * The one elevation path for host actions: the `privilege` service the `privilege` plugin provides. Package changes,
 * firewall rules, SMART checks, packet capture and signals to other users' processes go through it, never through a
 * shell string: each verb has a fixed program and validated arguments (plugins/privilege/README.md lists them).
 *
 *     const privilege = ctx.services.get('privilege');        // needs: ['privilege']
 *     const result = await privilege.run({ verb: 'smartctl-health', args: ['/dev/sda'], principal: rc.state.auth });
 *     const id = await privilege.startJob({ verb: 'tcpdump-capture', args: ['lo', '100', '30', 'cap-1.pcap'], principal, title: 'Capture on lo' });
 */

/** Every verb the helper runs; nothing else can be run through it. */
export const PRIVILEGED_VERBS = [
  'package-refresh', 'package-upgrade', 'package-remove', 'package-upgrade-all',
  'firewall-rules', 'tcpdump-capture', 'smartctl-health', 'kill', 'systemctl-unit',
] as const;
export type PrivilegedVerb = typeof PRIVILEGED_VERBS[number];

/** What `systemctl-unit` does to a system unit (its first argument). */
export const SYSTEMCTL_UNIT_ACTIONS = ['start', 'stop', 'restart', 'enable', 'disable'] as const;

/** Package managers the package verbs take as their first argument. */
export const PACKAGE_MANAGERS = ['apt', 'dnf', 'pacman', 'zypper', 'snap', 'flatpak'] as const;
export type PackageManager = typeof PACKAGE_MANAGERS[number];

/** How verbs are elevated here: Vigil runs as root, `sudo -S` with the session's password, `pkexec` with a polkit rule, or not at all. */
export type ElevationMethod = 'root' | 'sudo' | 'pkexec' | 'none';

/** What a session sees of the helper: whether a verb would run now, or what it needs first. */
export interface PrivilegeStatus {
  method: ElevationMethod;
  /** The user Vigil runs as. */
  user: string;
  /** True while sudo needs this session's password before a verb runs (false as root, with NOPASSWD sudo, or pkexec). */
  password_needed: boolean;
  /** This session's password is held (in memory only) until `expires_at`, ISO 8601. */
  unlocked: boolean;
  expires_at: string | null;
  /** Why verbs cannot run (`method: none`), in a sentence; otherwise null. */
  note: string | null;
}

export interface PrivilegedRequest {
  verb: PrivilegedVerb;
  /** The verb's arguments as text; each is checked against the verb's allowed form before anything runs. */
  args: readonly string[];
  /**
   * Who asks: the route's `ctx.state.auth`. Its session's cached password is used with sudo, and it is the actor in
   * the audit log. A run without a principal (a scheduled task) works only as root, with pkexec or NOPASSWD sudo.
   */
  principal: AuthPrincipal | undefined;
  /** The client address, for the audit log. */
  address?: string | null;
  /** Each piece of output as it arrives (stdout and stderr interleaved, UTF-8). */
  onOutput?(text: string): void;
  /** Aborting ends the program (SIGTERM, then SIGKILL after 5 s); the result says `cancelled`. */
  signal?: AbortSignal;
  /** A limit below the verb's own, ms. */
  timeoutMs?: number;
}

export interface PrivilegedResult {
  /** Exit status 0, not cancelled, not timed out. */
  ok: boolean;
  exit_code: number | null;
  signal: string | null;
  timed_out: boolean;
  cancelled: boolean;
  /** The last 256 KiB of the output. */
  output: string;
  output_truncated: boolean;
  method: Exclude<ElevationMethod, 'none'>;
  duration_ms: number;
}

export interface PrivilegedJobRequest extends Omit<PrivilegedRequest, 'onOutput' | 'signal'> {
  /** What the job list shows ("Upgrade curl"). */
  title: string;
  /** Called once when the job ends (output, exit, and the job's id). */
  onDone?(result: PrivilegedResult, id: string): void;
}

/** What the `privilege` plugin offers other plugins. */
export interface PrivilegeService {
  status(principal: AuthPrincipal | undefined): PrivilegeStatus;
  /** Throws `VIGIL_ERR_PRIVILEGE_ARGUMENT` (400) when `args` are not the verb's allowed form; runs nothing. */
  check(verb: PrivilegedVerb, args: readonly string[]): void;
  /**
   * Runs a verb to its end. Refusals throw (400 argument, 403 password needed, 409 busy, 503 no elevation); a
   * program that fails resolves with `ok: false`. Every run, refused or not, is written to the audit log.
   */
  run(request: PrivilegedRequest): Promise<PrivilegedResult>;
  /**
   * Starts a run as a job that pages follow with `GET /api/job?id=&since=` and cancel with `POST /api/job/cancel`;
   * resolves with its id once it runs. Rejects with the same refusals as `run`, before anything starts.
   */
  startJob(request: PrivilegedJobRequest): Promise<string>;
  /** The folder `tcpdump-capture` writes into (its file argument is a name in it), owned by Vigil's user. */
  readonly captureDir: string;
  /** `-o` options every apt call uses (`privilege.apt_options`): readers of apt's lists pass them too. */
  readonly aptOptions: readonly string[];
}
