import { access } from 'node:fs/promises';
import { join } from 'node:path';
import { httpError, type AuthPrincipal, type PluginAuditEntry, type PrivilegeService } from '@vigil/plugin-sdk';
import { SystoolsErrors } from '../errors.js';
import { runTool, ToolMissing, type ToolResult } from '../run-tool.js';
import { parsePlainUnitFiles, parsePlainUnits, parseTimersJson, parseUnitFilesJson, parseUnitsJson, type TimerRow, type UnitRow } from './unit-list.js';

export type UnitScope = 'system' | 'user';
export const UNIT_ACTIONS = ['start', 'stop', 'restart', 'enable', 'disable'] as const;
export type UnitAction = typeof UNIT_ACTIONS[number];
export const UNIT_TYPES = ['service', 'socket', 'timer', 'target', 'path', 'mount'] as const;
export type UnitType = typeof UNIT_TYPES[number];

/** A unit name as systemd allows it (systemd.unit(5)) with its type's suffix; never starting with `-` (an option). */
export const UNIT_NAME = /^[A-Za-z0-9_:.@\\][A-Za-z0-9_:.@\\-]{0,250}\.(service|socket|timer|target|path|mount)$/;
/** Rows answered at most: a desktop has a few hundred services; this bounds the answer on any machine. */
export const MAX_UNITS = 5_000;

const LIST_TIMEOUT_MS = 10_000;
/** A start waits for the unit to come up; systemd's own default start timeout is 90 s, so this is the page's patience. */
const ACTION_TIMEOUT_MS = 60_000;

export interface UnitView extends UnitRow {
  /** The unit file's state (enabled, disabled, static, masked, …); null when it has none (a transient unit). */
  enabled: string | null;
}

export interface TimerView extends TimerRow {
  enabled: string | null;
}

export interface SystemdState {
  running: boolean;
  /** Why there is nothing to show, in a sentence; null when systemd runs. */
  note: string | null;
}

export interface SystemdDeps {
  root: string;
  privilege(): PrivilegeService | undefined;
  audit(entry: PluginAuditEntry): Promise<void>;
  /** Whether Vigil runs as root (system units are changed directly then when the helper is off). */
  isRoot: boolean;
}

/** Whether systemd runs this machine: it creates /run/systemd/system at boot (sd_booted(3) checks the same). */
export async function systemdState(root: string): Promise<SystemdState> {
  try {
    await access(join(root, 'run/systemd/system'));
    return { running: true, note: null };
  } catch {
    return { running: false, note: 'systemd is not the init system here (no /run/systemd/system: a container, WSL without systemd, or another init), so there are no services or timers to show. Scheduled tasks live in the crontab.' };
  }
}

const scopeArgs = (scope: UnitScope) => (scope === 'user' ? ['--user'] : []);

async function systemctl(args: string[], timeoutMs = LIST_TIMEOUT_MS): Promise<ToolResult> {
  try {
    return await runTool('systemctl', [...args, '--no-pager'], { timeoutMs, maxBytes: 8 * 1024 * 1024 });
  } catch (err) {
    if (err instanceof ToolMissing) throw httpError(SystoolsErrors.NO_SYSTEMD, 'systemctl is not installed here');
    throw err;
  }
}

function failed(what: string, r: ToolResult, timeoutMs: number): never {
  const said = r.timedOut ? `no answer within ${timeoutMs / 1000} s` : (r.stderr || r.stdout).trim().split('\n').slice(0, 4).join(' ').slice(0, 400) || `exit ${r.code}`;
  throw httpError(SystoolsErrors.SYSTEMCTL, `${what}: ${said}`);
}

/** The JSON table when systemctl has `--output=json`, else the plain columns. */
async function table<T>(args: string[], json: (t: string) => T, plain: (t: string) => T): Promise<T> {
  const r = await systemctl([...args, '--output=json']);
  if (r.code === 0) {
    try {
      return json(r.stdout);
    } catch { /* an old systemctl ignored or mangled --output: read the columns */ }
  }
  const p = await systemctl([...args, '--plain', '--no-legend']);
  if (p.code !== 0) failed(`systemctl ${args.join(' ')}`, p, LIST_TIMEOUT_MS);
  return plain(p.stdout);
}

async function unitFileStates(scope: UnitScope, type: string): Promise<Map<string, string>> {
  return table([...scopeArgs(scope), 'list-unit-files', `--type=${type}`], parseUnitFilesJson, parsePlainUnitFiles).catch(() => new Map());
}

/** The units of a scope and type with their unit files' states, by name, at most MAX_UNITS. */
export async function listUnits(scope: UnitScope, type: UnitType): Promise<{ units: UnitView[]; total: number }> {
  const [rows, states] = await Promise.all([
    table([...scopeArgs(scope), 'list-units', '--all', `--type=${type}`], parseUnitsJson, parsePlainUnits),
    unitFileStates(scope, type),
  ]);
  rows.sort((a, b) => a.unit.localeCompare(b.unit));
  return { units: rows.slice(0, MAX_UNITS).map((r) => ({ ...r, enabled: states.get(r.unit) ?? null })), total: rows.length };
}

/** Timers with their next and last run (JSON only: the plain columns' dates are in the local format). */
export async function listTimers(scope: UnitScope): Promise<TimerView[]> {
  const [r, states] = await Promise.all([systemctl([...scopeArgs(scope), 'list-timers', '--all', '--output=json']), unitFileStates(scope, 'timer')]);
  if (r.code !== 0) failed('systemctl list-timers', r, LIST_TIMEOUT_MS);
  return parseTimersJson(r.stdout).slice(0, MAX_UNITS).map((t) => ({ ...t, enabled: states.get(t.unit) ?? null }));
}

export interface UnitActionRequest {
  scope: UnitScope;
  unit: string;
  action: UnitAction;
  principal: AuthPrincipal | undefined;
  address: string | null;
}

/**
 * Runs one action on one unit. User units: `systemctl --user` as Vigil's user (enable means at that user's login).
 * System units: through the privileged helper's `systemctl-unit` verb (which audits it), or directly as root when the
 * helper is off. Returns what systemctl said.
 */
export async function actOnUnit(d: SystemdDeps, req: UnitActionRequest): Promise<{ output: string; via: string }> {
  if (!UNIT_NAME.test(req.unit)) throw httpError(SystoolsErrors.UNIT_NAME, `"${req.unit.slice(0, 80)}" is not a unit name (e.g. nginx.service, apt-daily.timer)`);
  const state = await systemdState(d.root);
  if (!state.running) throw httpError(SystoolsErrors.NO_SYSTEMD, state.note!);
  const privilege = d.privilege();
  if (req.scope === 'system' && privilege) {
    const result = await privilege.run({ verb: 'systemctl-unit', args: [req.action, req.unit], principal: req.principal, address: req.address });
    if (!result.ok) throw httpError(SystoolsErrors.SYSTEMCTL, `systemctl ${req.action} ${req.unit}: ${result.timed_out ? 'no answer within its time limit' : result.output.trim().slice(-400) || `exit ${result.exit_code}`}`);
    return { output: result.output, via: result.method };
  }
  if (req.scope === 'system' && !d.isRoot) {
    throw httpError(SystoolsErrors.NEEDS_PRIVILEGE, `${req.action} ${req.unit} needs root: turn on the privileged helper (privilege: {})`);
  }
  const r = await systemctl([...scopeArgs(req.scope), req.action, '--', req.unit], ACTION_TIMEOUT_MS);
  const entry = { principal: req.principal, action: `host ${req.scope === 'user' ? 'user-unit' : 'systemctl-unit'} ${req.action}`, target: req.unit, address: req.address };
  if (r.code !== 0) {
    await d.audit({ ...entry, status: r.timedOut ? 504 : 500, detail: r.timedOut ? 'no answer within its time limit' : `exit ${r.code}` });
    failed(`systemctl ${req.scope === 'user' ? '--user ' : ''}${req.action} ${req.unit}`, r, ACTION_TIMEOUT_MS);
  }
  await d.audit({ ...entry, status: 200, detail: req.scope === 'user' ? 'as Vigil\'s user' : 'direct as root' });
  return { output: (r.stdout + r.stderr).trim(), via: req.scope === 'user' ? 'user' : 'root' };
}
