import { createHash } from 'node:crypto';
import { isAbsolute } from 'node:path';
import type { ManagedAlertRule, ManagedAlertRuleView } from '@vigil/plugin-sdk';
import { DEFAULT_COOLDOWN_MS } from './builtin-rules.js';
import { UNIT_NAME } from './checks/unit-check.js';
import { CHECK_KINDS, SOURCE_OF_KIND, USER_UNIT_SOURCE, type CheckKind } from './host-sources.js';

/** perch's cap on custom rules. */
export const MAX_CUSTOM_RULES = 24;
export const CUSTOM_PREFIX = 'host.custom.';
/** A backup rule without a value: perch's 7 days. */
const DEFAULT_BACKUP_DAYS = 7;

/** A custom rule as perch's `customrules.json` holds it (`path` is perch's name for `folder`), with a user-unit flag. */
export interface CustomRuleInput {
  name: string;
  kind: CheckKind | 'path';
  target: string;
  /** folder: GB; backup: days (default 7); unused by the others. */
  value?: number | null;
  enabled?: boolean;
  /** unit: a user unit (`systemctl --user`) rather than a system one. */
  user?: boolean;
  /** ms; default 600,000 (perch's 600 s). */
  cooldown_ms?: number;
}

/** Why a custom rule cannot work, as `key: problem`; undefined when it can. */
export function customRuleProblem(r: CustomRuleInput): string | undefined {
  const kind = r.kind === 'path' ? 'folder' : r.kind;
  if (!(CHECK_KINDS as readonly string[]).includes(kind)) return `kind: one of ${CHECK_KINDS.join(', ')}`;
  switch (kind) {
    case 'unit': if (!UNIT_NAME.test(r.target)) return `target: "${r.target}" is not a systemd unit name (nginx.service, backup.timer)`; break;
    case 'port': if (!/^\d{1,5}$/.test(r.target) || Number(r.target) < 1 || Number(r.target) > 65535) return 'target: a TCP port, 1 to 65535'; break;
    case 'process': if (r.target.trim() === '' || r.target.length > 100) return 'target: a process name, 1 to 100 characters'; break;
    default: if (!isAbsolute(r.target)) return `target: an absolute path, not "${r.target}"`;
  }
  if (kind === 'folder' && !(typeof r.value === 'number' && r.value > 0)) return 'value: the size in GB past which it fires, above 0';
  if (kind === 'backup' && r.value != null && !(r.value > 0)) return 'value: the age in days past which it fires, above 0';
  if (r.user && kind !== 'unit') return 'user: only unit rules watch a user unit';
  return undefined;
}

/** The managed rule of a custom rule. Its id comes from what it watches, so a rule saved again keeps its state. */
export function customToManaged(r: CustomRuleInput): ManagedAlertRule {
  const kind: CheckKind = r.kind === 'path' ? 'folder' : r.kind;
  const user = kind === 'unit' && r.user === true;
  const value = kind === 'folder' ? r.value! : kind === 'backup' ? r.value ?? DEFAULT_BACKUP_DAYS : null;
  const key = createHash('sha256').update(JSON.stringify([kind, r.target, value, user])).digest('hex').slice(0, 12);
  return {
    id: `${CUSTOM_PREFIX}${kind}.${key}`, name: r.name, enabled: r.enabled ?? true, source: user ? USER_UNIT_SOURCE : SOURCE_OF_KIND[kind],
    scope: { target: r.target },
    // unit, port, process: fires when nothing is active, listening or running; folder and backup: past the value.
    condition: value === null ? { type: 'lt', threshold: 1 } : { type: 'gt', threshold: value },
    window_ms: 60_000, cooldown_ms: r.cooldown_ms ?? DEFAULT_COOLDOWN_MS, severity: 'warning',
  };
}

const KIND_OF_SOURCE = new Map<string, CheckKind>([...Object.entries(SOURCE_OF_KIND).map(([k, s]) => [s, k as CheckKind] as const), [USER_UNIT_SOURCE, 'unit']]);

/** A stored managed rule back in perch's shape, with its state. */
export function managedToCustom(m: ManagedAlertRuleView) {
  const kind = KIND_OF_SOURCE.get(m.source) ?? 'process';
  return {
    id: m.id, name: m.name, kind, target: m.scope.target ?? '', value: kind === 'folder' || kind === 'backup' ? m.condition.threshold : null,
    enabled: m.enabled, user: m.source === USER_UNIT_SOURCE, cooldown_ms: m.cooldown_ms,
    status: m.state.status, last_value: m.state.last_value, last_error: m.state.last_error,
  };
}
