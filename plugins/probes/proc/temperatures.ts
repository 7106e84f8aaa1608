import { listDir, readNumber, readText } from './read-text.js';

/** One sensor in °C. `chip` is the hwmon driver name (coretemp, k10temp, nvme, acpitz…) or the thermal zone's type. */
export interface Temperature { chip: string; label: string; celsius: number }

// Readings outside this range are unconnected inputs or firmware placeholders (-273, 255, 65535…), not temperatures.
const PLAUSIBLE = (c: number) => c > -40 && c < 150;

async function fromHwmon(root: string): Promise<Temperature[]> {
  const out: Temperature[] = [];
  for (const dir of await listDir(root, 'sys/class/hwmon')) {
    const base = `sys/class/hwmon/${dir}`;
    const chip = (await readText(root, `${base}/name`))?.trim() ?? dir;
    const inputs = (await listDir(root, base)).filter((f) => /^temp\d+_input$/.test(f))
      .sort((a, b) => parseInt(a.slice(4), 10) - parseInt(b.slice(4), 10));
    for (const input of inputs) {
      const milli = await readNumber(root, `${base}/${input}`);
      if (milli === undefined || !PLAUSIBLE(milli / 1000)) continue;
      const label = (await readText(root, `${base}/${input.replace('_input', '_label')}`))?.trim() || input.replace('_input', '');
      out.push({ chip, label, celsius: milli / 1000 });
    }
  }
  return out;
}

async function fromThermalZones(root: string): Promise<Temperature[]> {
  const out: Temperature[] = [];
  for (const zone of (await listDir(root, 'sys/class/thermal')).filter((d) => d.startsWith('thermal_zone'))) {
    const milli = await readNumber(root, `sys/class/thermal/${zone}/temp`);
    if (milli === undefined || !PLAUSIBLE(milli / 1000)) continue;
    const type = (await readText(root, `sys/class/thermal/${zone}/type`))?.trim() || zone;
    out.push({ chip: type, label: zone, celsius: milli / 1000 });
  }
  return out;
}

/** Every sensor from /sys/class/hwmon, or from the thermal zones when no hwmon sensor reports a temperature. */
export async function readTemperatures(root = '/'): Promise<Temperature[]> {
  const hwmon = await fromHwmon(root);
  return hwmon.length > 0 ? hwmon : fromThermalZones(root);
}

/** The hottest sensor, which the temperature rule and the home tile show; undefined without sensors. */
export function hottest(temps: readonly Temperature[]): Temperature | undefined {
  return temps.reduce<Temperature | undefined>((max, t) => (max === undefined || t.celsius > max.celsius ? t : max), undefined);
}
