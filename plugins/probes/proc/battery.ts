import { listDir, readNumber, readText } from './read-text.js';

export interface Battery {
  name: string;
  /** Charge, 0..100. */
  percent: number;
  /** The kernel's status: Charging, Discharging, Full, Not charging or Unknown. */
  status: string;
  charging: boolean;
  /** On mains power: anything but Discharging. The low-battery rule fires only when this is false. */
  plugged: boolean;
  /** Full capacity against design capacity, 0..100 (wear); absent when the firmware reports neither pair. */
  healthPercent?: number;
}

// Batteries report energy (µWh) or charge (µAh) depending on the firmware; the ratio is the same either way.
async function capacityPair(root: string, base: string): Promise<[number, number] | undefined> {
  for (const kind of ['energy', 'charge']) {
    const full = await readNumber(root, `${base}/${kind}_full`);
    const design = await readNumber(root, `${base}/${kind}_full_design`);
    if (full !== undefined && design) return [full, design];
  }
  return undefined;
}

/** System batteries from /sys/class/power_supply (peripherals such as mice report `scope` Device and are left out). */
export async function readBatteries(root = '/'): Promise<Battery[]> {
  const out: Battery[] = [];
  for (const name of await listDir(root, 'sys/class/power_supply')) {
    const base = `sys/class/power_supply/${name}`;
    if ((await readText(root, `${base}/type`))?.trim() !== 'Battery') continue;
    if ((await readText(root, `${base}/scope`))?.trim() === 'Device') continue;
    if ((await readNumber(root, `${base}/present`)) === 0) continue;
    const capacity = await capacityPair(root, base);
    let percent = await readNumber(root, `${base}/capacity`);
    if (percent === undefined) {
      // Without `capacity`, the charge now against full gives it.
      const now = (await readNumber(root, `${base}/energy_now`)) ?? (await readNumber(root, `${base}/charge_now`));
      if (now === undefined || !capacity) continue;
      percent = (now / capacity[0]) * 100;
    }
    const status = (await readText(root, `${base}/status`))?.trim() || 'Unknown';
    out.push({
      name,
      percent: Math.min(100, Math.max(0, percent)),
      status,
      charging: status === 'Charging',
      plugged: status !== 'Discharging',
      ...(capacity ? { healthPercent: (capacity[0] / capacity[1]) * 100 } : {}),
    });
  }
  return out;
}
