import { access } from 'node:fs/promises';
import { join } from 'node:path';
import { readBatteries } from '../proc/battery.js';
import { readMemory } from '../proc/memory.js';
import { readMounts } from '../proc/mounts.js';
import { hottest, readTemperatures } from '../proc/temperatures.js';
import type { HealthFacts } from './findings.js';
import type { PendingUpdates } from './pending-updates.js';

export interface FactSources {
  root: string;
  updates(): Promise<PendingUpdates | null>;
  failedUnits(): Promise<string[] | null>;
}

async function exists(path: string): Promise<boolean> {
  try {
    await access(path);
    return true;
  } catch {
    return false;
  }
}

/** The health score's facts: files under `root`, apt's cached simulation, and systemctl's failed list. */
export async function gatherHealthFacts(s: FactSources): Promise<HealthFacts> {
  const [mounts, memory, temps, batteries, updates, failed, reboot] = await Promise.all([
    readMounts(s.root), readMemory(s.root), readTemperatures(s.root), readBatteries(s.root), s.updates(), s.failedUnits(),
    exists(join(s.root, 'var/run/reboot-required')),
  ]);
  const hot = hottest(temps);
  return {
    mounts: mounts.filter((m) => m.usedPercent !== undefined).map((m) => ({ mountPoint: m.mountPoint, usedPercent: m.usedPercent! })),
    memory: memory ? { usedPercent: memory.usedPercent, swapPercent: memory.swapPercent, swapTotal: memory.swapTotal } : null,
    hottest: hot ? { label: hot.label || hot.chip, celsius: hot.celsius } : null,
    batteryHealth: batteries.filter((b) => b.healthPercent !== undefined).map((b) => ({ name: b.name, percent: b.healthPercent! })),
    updates, failedUnits: failed, rebootRequired: reboot,
  };
}
