import type { AlertReading, AlertSource, Queryable } from '@vigil/plugin-sdk';
import { readBatteries } from '../proc/battery.js';
import { lookAtBackup } from './checks/backup-check.js';
import type { CheckLook } from './checks/check.js';
import { lookAtFolder } from './checks/folder-check.js';
import { lookAtPort } from './checks/port-check.js';
import { lookAtProcess } from './checks/process-check.js';
import { lookAtUnit } from './checks/unit-check.js';

/**
 * The host's alert sources. The five thresholds read the probes' minute samples (one aggregate query over the
 * window); the battery and the custom checks look now, whatever the window (they watch a state, not a series).
 */

type Aggregate = 'MIN' | 'MAX';

const MINUTE_MS = 60_000;

/**
 * The aggregate of `column` over the newest minute samples a window holds, one per minute of it (a 1-minute window:
 * the newest sample). A sample is stamped with the start of its minute but written within that minute, so the
 * search reaches one minute further back than the window: a window never reads empty while the minute's sample is
 * still being taken.
 */
function sampleSource(store: Queryable, id: string, column: string, aggregate: Aggregate, unit: string, summary: string): AlertSource {
  return {
    id, unit, summary, scopes: [],
    async read(window): Promise<AlertReading> {
      const minutes = Math.max(1, Math.round((window.to - window.from) / MINUTE_MS));
      const rows = await store.query<{ v: number | string }>(
        `SELECT ${column} AS v FROM probes_samples WHERE t >= ? AND t < ? AND ${column} IS NOT NULL ORDER BY t DESC LIMIT ?`,
        [window.from - MINUTE_MS, window.to, minutes]);
      const values = rows.map((r) => Number(r.v));
      if (values.length === 0) return { value: null, samples: 0 };
      return { value: aggregate === 'MIN' ? Math.min(...values) : Math.max(...values), samples: values.length };
    },
  };
}

/** A check that looks now: its value, one sample. A check that cannot look throws, and the rule shows why. */
function checkSource(id: string, unit: string, summary: string, look: (target: string) => Promise<CheckLook>): AlertSource {
  return {
    id, unit, summary, scopes: ['target'], requiredScopes: ['target'],
    async read(_window, scope): Promise<AlertReading> {
      return { value: (await look(scope.target!)).value, samples: 1 };
    },
  };
}

/** The custom rules' kinds and what each one's check looks at. */
export const CHECK_KINDS = ['unit', 'port', 'process', 'folder', 'backup'] as const;
export type CheckKind = (typeof CHECK_KINDS)[number];

/** What the custom check of `kind` sees at `target` now (`user`: a user unit). */
export function lookAt(root: string, kind: CheckKind, target: string, user: boolean, now: number): Promise<CheckLook> {
  switch (kind) {
    case 'unit': return lookAtUnit(root, target, user);
    case 'port': return lookAtPort(root, Number(target));
    case 'process': return lookAtProcess(root, target);
    case 'folder': return lookAtFolder(root, target);
    case 'backup': return lookAtBackup(root, target, now);
  }
}

export const SOURCE_OF_KIND: Record<CheckKind, string> = {
  unit: 'host.unit_active', port: 'host.port_listening', process: 'host.process_count', folder: 'host.folder_gb', backup: 'host.backup_age_days',
};
export const USER_UNIT_SOURCE = 'host.user_unit_active';

/** Every host source, to register with the alerts service. */
export function hostSources(store: Queryable, root: string, now: () => number = Date.now): AlertSource[] {
  return [
    sampleSource(store, 'host.cpu_pct', 'cpu', 'MIN', '%', 'CPU busy, the lowest minute in the window: at or above a threshold means sustained over it'),
    sampleSource(store, 'host.mem_pct', 'mem', 'MAX', '%', 'Memory used (total − available), the highest minute in the window'),
    sampleSource(store, 'host.temp_c', 'temp', 'MAX', '°C', 'The hottest sensor, the highest minute in the window'),
    sampleSource(store, 'host.disk_pct', 'disk', 'MAX', '%', 'The fullest real partition (not squashfs, tmpfs or other pseudo filesystems), the highest minute in the window'),
    {
      id: 'host.battery_pct', unit: '%', scopes: [],
      summary: 'Battery charge now while unplugged; reads 100 while plugged in (a plugged battery is never low); no reading without a battery',
      async read(): Promise<AlertReading> {
        const [battery] = await readBatteries(root);
        if (!battery) return { value: null, samples: 0 };
        return { value: battery.plugged ? 100 : battery.percent, samples: 1 };
      },
    },
    checkSource('host.unit_active', 'state', 'A systemd system unit: 1 while active, 0 otherwise (target: the unit)', (t) => lookAt(root, 'unit', t, false, now())),
    checkSource(USER_UNIT_SOURCE, 'state', 'A systemd user unit of the user Vigil runs as: 1 while active, 0 otherwise (target: the unit)', (t) => lookAt(root, 'unit', t, true, now())),
    checkSource('host.port_listening', 'state', 'A TCP port: 1 while something listens on it, 0 otherwise (target: the port)', (t) => lookAt(root, 'port', t, false, now())),
    checkSource('host.process_count', 'count', 'Processes whose name holds the target (target: the name)', (t) => lookAt(root, 'process', t, false, now())),
    checkSource('host.folder_gb', 'GB', 'A folder\'s size in GB, walked within 200,000 entries or 5 s (target: the path)', (t) => lookAt(root, 'folder', t, false, now())),
    checkSource('host.backup_age_days', 'days', 'Days since anything under a path last changed: a backup\'s age (target: the path)', (t) => lookAt(root, 'backup', t, false, now())),
  ];
}
