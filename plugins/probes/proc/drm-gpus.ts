import { listDir, readNumber, readText } from './read-text.js';

/** A GPU as the kernel's DRM sysfs shows it. Each figure is absent where the driver does not expose it. */
export interface DrmGpu {
  card: string;
  vendor: 'amd' | 'intel' | 'nvidia' | 'other';
  /** Busy share, 0..100 (amdgpu's gpu_busy_percent). */
  busyPercent?: number;
  vramUsed?: number; vramTotal?: number;
  /** Current and maximum graphics clock in MHz (i915's gt_cur_freq_mhz and gt_max_freq_mhz). */
  freqMhz?: number; maxFreqMhz?: number;
  celsius?: number;
}

const VENDORS: Record<string, DrmGpu['vendor']> = { '0x1002': 'amd', '0x8086': 'intel', '0x10de': 'nvidia' };

const defined = <T extends object>(o: T): T => Object.fromEntries(Object.entries(o).filter(([, v]) => v !== undefined)) as T;

/**
 * GPUs from /sys/class/drm: the `cardN` entries (connectors such as card0-eDP-1 and render nodes are left out).
 * The proprietary NVIDIA driver exposes almost nothing here; nvidia-smi, with a timeout, is for that case.
 */
export async function readDrmGpus(root = '/'): Promise<DrmGpu[]> {
  const out: DrmGpu[] = [];
  for (const card of (await listDir(root, 'sys/class/drm')).filter((d) => /^card\d+$/.test(d))) {
    const base = `sys/class/drm/${card}`;
    const vendorId = (await readText(root, `${base}/device/vendor`))?.trim() ?? '';
    let celsius: number | undefined;
    for (const hw of await listDir(root, `${base}/device/hwmon`)) {
      const milli = await readNumber(root, `${base}/device/hwmon/${hw}/temp1_input`);
      if (milli !== undefined) { celsius = milli / 1000; break; }
    }
    out.push(defined({
      card,
      vendor: VENDORS[vendorId] ?? 'other',
      busyPercent: await readNumber(root, `${base}/device/gpu_busy_percent`),
      vramUsed: await readNumber(root, `${base}/device/mem_info_vram_used`),
      vramTotal: await readNumber(root, `${base}/device/mem_info_vram_total`),
      freqMhz: await readNumber(root, `${base}/gt_cur_freq_mhz`),
      maxFreqMhz: await readNumber(root, `${base}/gt_max_freq_mhz`),
      celsius,
    }));
  }
  return out;
}
