import { arch, hostname, release, type } from 'node:os';
import type { HostOverview } from '@vigil/plugin-sdk';
import type { LiveReader } from './live-reading.js';
import { readText } from './proc/read-text.js';

/** Who the machine is: read under `root`, so Vigil in a container with the host's root mounted names the host. */
export interface HostIdentity { hostname: string; os: string; kernel: string }

/** `PRETTY_NAME` of os-release, else the kernel's name; the hostname and kernel release from /proc/sys/kernel. */
export async function readHostIdentity(root: string): Promise<HostIdentity> {
  let os = type();
  for (const path of ['etc/os-release', 'usr/lib/os-release']) {
    const text = await readText(root, path);
    const m = text && /^PRETTY_NAME=(["']?)(.*)\1\s*$/m.exec(text);
    if (m && m[2]) { os = m[2]; break; }
  }
  const [name, kernel] = await Promise.all([readText(root, 'proc/sys/kernel/hostname'), readText(root, 'proc/sys/kernel/osrelease')]);
  return { os, hostname: name?.trim() || hostname(), kernel: kernel?.trim() || release() };
}

/**
 * The `host` service's answer, made from the live reader's reading (without GPUs, so no subprocess ever runs for
 * it): what the fleet serves its peers and the home tiles show.
 */
export async function hostOverview(reader: LiveReader, who: HostIdentity): Promise<HostOverview> {
  const { live, cores } = await reader.read(false);
  const m = live.memory;
  const fullest = live.disks.reduce<number | null>((max, d) => (d.percent === null || (max !== null && max >= d.percent) ? max : d.percent), null);
  const hottest = live.temperatures.reduce<number | null>((max, t) => (max !== null && max >= t.celsius ? max : t.celsius), null);
  const battery = live.batteries[0];
  return {
    hostname: who.hostname,
    os: who.os,
    kernel: who.kernel,
    arch: arch(),
    uptime_s: live.uptime_s,
    taken_at: live.taken_at,
    cpu: { percent: live.cpu.total?.busy ?? null, cores: Math.max(1, cores), load: live.cpu.load },
    memory: {
      total_bytes: m?.total_bytes ?? 0, used_bytes: m?.used_bytes ?? 0, percent: m?.percent ?? 0,
      swap_total_bytes: m?.swap_total_bytes ?? 0, swap_used_bytes: m?.swap_used_bytes ?? 0,
    },
    temperature_c: hottest,
    disk_percent: fullest,
    battery: battery ? { percent: battery.percent, charging: battery.charging, plugged: battery.plugged } : null,
  };
}
