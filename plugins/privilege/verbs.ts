import { httpError, PACKAGE_MANAGERS, PRIVILEGED_VERBS, SYSTEMCTL_UNIT_ACTIONS, type PackageManager, type PrivilegedVerb } from '@vigil/plugin-sdk';
import { badArgument, PrivilegeErrors } from './errors.js';

/** What a verb runs: a program (by name, resolved in the system folders) and its argument list; never a shell. */
export interface VerbPlan {
  program: string;
  argv: string[];
  /** Variables the program gets (passed through sudo as `VAR=value`). */
  env: Record<string, string>;
  timeoutMs: number;
  /** Runs of the same lock take turns (package managers hold their own lock and fail when it is taken). */
  lock?: 'packages';
  /** The time limit is how the verb normally ends (a capture's wall clock): reaching it is success. */
  endsAtLimit?: boolean;
  /** A check just before the program starts (the process to signal is still the one shown). */
  precheck?: () => Promise<void>;
}

export interface VerbSettings {
  aptOptions: readonly string[];
  captureDir: string;
  /** The user a capture's file is written as (tcpdump -Z). */
  user: string;
  /** Vigil's own PID, never signalled. */
  ownPid: number;
  readStartTime(pid: number): Promise<string | null>;
}

const PACKAGE_TIMEOUT_MS = 30 * 60_000;
/** A package name in every manager's alphabet, never starting with `-` (so never read as an option). */
const PACKAGE_NAME = /^[A-Za-z0-9@_+][A-Za-z0-9@_+.:-]{0,127}$/;
const IFACE = /^[A-Za-z0-9][A-Za-z0-9_.:@-]{0,14}$/;
const CAPTURE_FILE = /^[A-Za-z0-9][A-Za-z0-9_.-]{0,63}\.pcap$/;
/** A capture filter in tcpdump's expression language: no shell or option characters, never starting with `-`. */
const CAPTURE_FILTER = /^[A-Za-z0-9(!][A-Za-z0-9 .:/()!&|<>=\-[\]]{0,255}$/;
const DEVICE = /^\/dev\/(sd[a-z]{1,3}|hd[a-z]|vd[a-z]{1,2}|xvd[a-z]{1,2}|nvme\d{1,3}(n\d{1,3})?|mmcblk\d{1,3}|disk\/by-id\/[A-Za-z0-9_.:-]{1,200})$/;
const SIGNALS = ['TERM', 'KILL', 'INT', 'HUP', 'QUIT', 'STOP', 'CONT', 'USR1', 'USR2'] as const;
const FIREWALLS: Record<string, [string, string[]]> = {
  nftables: ['nft', ['list', 'ruleset']],
  ufw: ['ufw', ['status', 'verbose']],
  firewalld: ['firewall-cmd', ['--list-all-zones']],
  iptables: ['iptables-save', []],
};
/** A system unit as systemd names it (systemd.unit(5)), with a type's suffix; never starting with `-`. */
const UNIT = /^[A-Za-z0-9_:.@\\][A-Za-z0-9_:.@\\-]{0,250}\.(service|socket|timer|target|path|mount)$/;
/** Its highest PID on Linux (pid_max's ceiling). */
const PID_MAX = 4_194_304;

function arity(verb: string, args: readonly string[], min: number, max: number, form: string): void {
  if (args.length < min || args.length > max) throw badArgument(verb, `takes ${form}; got ${args.length} argument${args.length === 1 ? '' : 's'}`);
  for (const a of args) if (typeof a !== 'string') throw badArgument(verb, 'arguments are text');
}

function manager(verb: string, value: string): PackageManager {
  if (!(PACKAGE_MANAGERS as readonly string[]).includes(value)) throw badArgument(verb, `the package manager must be one of ${PACKAGE_MANAGERS.join(', ')}; got ${JSON.stringify(value)}`);
  return value as PackageManager;
}

function packageName(verb: string, value: string): string {
  if (!PACKAGE_NAME.test(value)) throw badArgument(verb, `${JSON.stringify(value.slice(0, 80))} is not a package name (letters, digits, @ _ + . : -, not starting with -, at most 128)`);
  return value;
}

function integer(verb: string, what: string, value: string, min: number, max: number): number {
  if (!/^\d{1,10}$/.test(value) || Number(value) < min || Number(value) > max) throw badArgument(verb, `${what} must be a whole number from ${min} to ${max}; got ${JSON.stringify(value.slice(0, 40))}`);
  return Number(value);
}

/**
 * apt-get in every apt verb: no prompts, old config files kept, machine-readable progress on stdout, and a wait of up
 * to two minutes for dpkg's lock (another apt running) instead of failing at once.
 */
function aptGet(settings: VerbSettings, args: string[]): Pick<VerbPlan, 'program' | 'argv' | 'env'> {
  const options = ['-o', 'APT::Status-Fd=1', '-o', 'Dpkg::Options::=--force-confdef', '-o', 'Dpkg::Options::=--force-confold', '-o', 'Dpkg::Use-Pty=0',
    '-o', 'DPkg::Lock::Timeout=120'];
  for (const o of settings.aptOptions) options.push('-o', o);
  return { program: 'apt-get', argv: [...options, ...args], env: { DEBIAN_FRONTEND: 'noninteractive' } };
}

type PackageAction = 'refresh' | 'upgrade' | 'remove' | 'upgrade-all';

function packagePlan(settings: VerbSettings, mgr: PackageManager, action: PackageAction, pkg?: string): VerbPlan {
  const common = { timeoutMs: PACKAGE_TIMEOUT_MS, lock: 'packages' as const, env: {} };
  const p = pkg ?? '';
  switch (mgr) {
    case 'apt': {
      const args = { refresh: ['update'], upgrade: ['-y', 'install', '--only-upgrade', p], remove: ['-y', 'remove', p], 'upgrade-all': ['-y', 'upgrade'] }[action];
      return { ...common, ...aptGet(settings, args) };
    }
    case 'dnf':
      return { ...common, program: 'dnf', argv: { refresh: ['-y', 'makecache'], upgrade: ['-y', 'upgrade', p], remove: ['-y', 'remove', p], 'upgrade-all': ['-y', 'upgrade'] }[action] };
    case 'pacman':
      return { ...common, program: 'pacman', argv: { refresh: ['-Sy'], upgrade: ['-S', '--noconfirm', '--needed', p], remove: ['-R', '--noconfirm', p], 'upgrade-all': ['-Syu', '--noconfirm'] }[action] };
    case 'zypper':
      return { ...common, program: 'zypper', argv: { refresh: ['-n', 'refresh'], upgrade: ['-n', 'update', p], remove: ['-n', 'remove', p], 'upgrade-all': ['-n', 'update'] }[action] };
    case 'snap':
      return { ...common, program: 'snap', argv: { refresh: ['refresh', '--list'], upgrade: ['refresh', p], remove: ['remove', p], 'upgrade-all': ['refresh'] }[action] };
    case 'flatpak':
      return { ...common, program: 'flatpak', argv: { refresh: ['update', '--appstream', '-y'], upgrade: ['update', '-y', '--noninteractive', p], remove: ['uninstall', '-y', '--noninteractive', p], 'upgrade-all': ['update', '-y', '--noninteractive'] }[action] };
  }
}

/**
 * Checks a verb's arguments and says what it runs. Throws `VIGIL_ERR_PRIVILEGE_ARGUMENT` for anything outside the
 * verb's form: this is the whole surface of the helper, so each argument has a pattern, a range or a fixed list.
 */
export function planVerb(verb: PrivilegedVerb, args: readonly string[], settings: VerbSettings): VerbPlan {
  if (!(PRIVILEGED_VERBS as readonly string[]).includes(verb)) throw badArgument(String(verb).slice(0, 40), `is not a verb; the verbs are ${PRIVILEGED_VERBS.join(', ')}`);
  switch (verb) {
    case 'package-refresh':
      arity(verb, args, 1, 1, '<manager>');
      return packagePlan(settings, manager(verb, args[0]), 'refresh');
    case 'package-upgrade':
    case 'package-remove':
      arity(verb, args, 2, 2, '<manager> <package>');
      return packagePlan(settings, manager(verb, args[0]), verb === 'package-upgrade' ? 'upgrade' : 'remove', packageName(verb, args[1]));
    case 'package-upgrade-all':
      arity(verb, args, 1, 1, '<manager>');
      return packagePlan(settings, manager(verb, args[0]), 'upgrade-all');
    case 'firewall-rules': {
      arity(verb, args, 1, 1, '<tool>');
      const tool = FIREWALLS[args[0]];
      if (!Object.hasOwn(FIREWALLS, args[0])) throw badArgument(verb, `the tool must be one of ${Object.keys(FIREWALLS).join(', ')}; got ${JSON.stringify(args[0].slice(0, 40))}`);
      return { program: tool[0], argv: tool[1], env: {}, timeoutMs: 15_000 };
    }
    case 'tcpdump-capture': {
      arity(verb, args, 4, 5, '<interface> <packets> <seconds> <file> [<filter>]');
      if (args[0] !== 'any' && !IFACE.test(args[0])) throw badArgument(verb, `${JSON.stringify(args[0].slice(0, 40))} is not an interface name`);
      const count = integer(verb, 'the packet count', args[1], 1, 1_000_000);
      const seconds = integer(verb, 'the time limit in seconds', args[2], 1, 3600);
      if (!CAPTURE_FILE.test(args[3])) throw badArgument(verb, `the file must be a name ending in .pcap (letters, digits, _ . -, no folder); got ${JSON.stringify(args[3].slice(0, 80))}`);
      const filter = args[4];
      if (filter !== undefined && !CAPTURE_FILTER.test(filter)) throw badArgument(verb, 'the filter is tcpdump\'s expression language: at most 256 letters, digits, spaces and . : / ( ) ! & | < > = - [ ], not starting with -');
      return {
        program: 'tcpdump',
        // -U writes each packet as it comes, so a capture ended by its time limit keeps what it saw; -Z: the file is Vigil's.
        // The filter comes after `--`: it is the expression, never an option.
        argv: ['-i', args[0], '-c', String(count), '-w', `${settings.captureDir}/${args[3]}`, '-U', '-n', '-Z', settings.user, ...(filter ? ['--', filter] : [])],
        env: {}, timeoutMs: seconds * 1000, endsAtLimit: true,
      };
    }
    case 'smartctl-health':
      arity(verb, args, 1, 1, '<device>');
      if (!DEVICE.test(args[0])) throw badArgument(verb, `${JSON.stringify(args[0].slice(0, 80))} is not a disk device (/dev/sda, /dev/nvme0n1, /dev/disk/by-id/…)`);
      return { program: 'smartctl', argv: ['-H', '-i', '-j', args[0]], env: {}, timeoutMs: 30_000 };
    case 'systemctl-unit': {
      arity(verb, args, 2, 2, '<action> <unit>');
      if (!(SYSTEMCTL_UNIT_ACTIONS as readonly string[]).includes(args[0])) throw badArgument(verb, `the action must be one of ${SYSTEMCTL_UNIT_ACTIONS.join(', ')}; got ${JSON.stringify(args[0].slice(0, 20))}`);
      if (!UNIT.test(args[1])) throw badArgument(verb, `${JSON.stringify(args[1].slice(0, 80))} is not a unit name (nginx.service, apt-daily.timer: letters, digits, _ : . @ \\ -, not starting with -)`);
      // `--` ends systemctl's options; a start waits for the unit to come up (systemd's own start limit is 90 s).
      return { program: 'systemctl', argv: [args[0], '--no-pager', '--', args[1]], env: {}, timeoutMs: 120_000 };
    }
    case 'kill': {
      arity(verb, args, 2, 3, '<pid> <signal> [<start time>]');
      const pid = integer(verb, 'the PID', args[0], 2, PID_MAX);
      if (pid === settings.ownPid) throw badArgument(verb, 'Vigil does not signal itself');
      if (!(SIGNALS as readonly string[]).includes(args[1])) throw badArgument(verb, `the signal must be one of ${SIGNALS.join(', ')}; got ${JSON.stringify(args[1].slice(0, 20))}`);
      const expected = args[2];
      if (expected !== undefined && !/^\d{1,20}$/.test(expected)) throw badArgument(verb, 'the start time is the 22nd field of /proc/<pid>/stat (clock ticks since boot)');
      return {
        program: 'kill', argv: ['-s', args[1], String(pid)], env: {}, timeoutMs: 5_000,
        // The PID is checked again at the last moment: a process that ended and whose PID was reused is not signalled.
        precheck: expected === undefined ? undefined : async () => {
          const now = await settings.readStartTime(pid);
          if (now !== expected) {
            throw httpError(PrivilegeErrors.PROCESS_CHANGED, `kill: process ${pid} ${now === null ? 'has ended' : 'is another process now (its start time changed)'}; nothing was signalled`);
          }
        },
      };
    }
  }
}
