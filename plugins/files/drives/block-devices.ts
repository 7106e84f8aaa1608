import { readdir, readFile, readlink } from 'node:fs/promises';
import { join } from 'node:path';

/** One whole disk, as /sys/block tells it. */
export interface BlockDevice {
  name: string;
  /** `/dev/<name>`: what smartctl is given. */
  device: string;
  model: string | null;
  vendor: string | null;
  size_bytes: number;
  /** The kernel's rotational flag: `spinning` (1) or `ssd` (0). A virtual disk reports what its hypervisor says. */
  type: 'ssd' | 'spinning';
  /** Served by a hypervisor (virtio, Xen, Hyper-V): its type and health are the host's, not a drive's. */
  virtual: boolean;
  removable: boolean;
  /** nvme, usb, virtio, … from the name and the driver path; null when unknown. */
  transport: string | null;
}

// Not drives: loop images, RAM disks, compressed swap, device-mapper and md layers over real disks, optical drives.
const NOT_DRIVES = /^(loop|ram|zram|dm-|md|sr|fd|nbd)/;

const text = async (path: string): Promise<string | null> => {
  try { return (await readFile(path, 'utf8')).trim() || null; } catch { return null; }
};

/** Whole disks under `root`/sys/block, largest first. Files a kernel lacks read as null, never as an error. */
export async function readBlockDevices(root = '/'): Promise<BlockDevice[]> {
  const base = join(root, 'sys/block');
  let names: string[];
  try { names = await readdir(base); } catch { return []; }
  const out: BlockDevice[] = [];
  for (const name of names) {
    if (NOT_DRIVES.test(name)) continue;
    const dir = join(base, name);
    const sectors = Number(await text(join(dir, 'size')) ?? 0);
    if (!sectors) continue;
    const real = await readlink(dir).catch(() => '');
    const driver = await readlink(join(dir, 'device/driver')).catch(() => '');
    const transport = name.startsWith('nvme') ? 'nvme' : /\/usb\d/.test(real) ? 'usb' : /virtio/.test(real + driver) ? 'virtio' : /xen/.test(real + driver) ? 'xen' : /ata\d/.test(real) ? 'sata' : null;
    out.push({
      name, device: `/dev/${name}`,
      model: await text(join(dir, 'device/model')), vendor: await text(join(dir, 'device/vendor')),
      // /sys/block/*/size counts 512-byte sectors whatever the drive's own sector size.
      size_bytes: sectors * 512,
      type: (await text(join(dir, 'queue/rotational'))) === '1' ? 'spinning' : 'ssd',
      virtual: transport === 'virtio' || transport === 'xen' || /hv_storvsc|vmbus/.test(driver),
      removable: (await text(join(dir, 'removable'))) === '1',
      transport,
    });
  }
  return out.sort((a, b) => b.size_bytes - a.size_bytes || a.name.localeCompare(b.name));
}
