import { readText } from './read-text.js';

/** Cumulative I/O of one block device since boot. /proc/diskstats counts 512-byte sectors whatever the device's own sector size. */
export interface DiskCounters {
  name: string;
  reads: number; readBytes: number; readMs: number;
  writes: number; writtenBytes: number; writeMs: number;
  /** Time the device had I/O in flight, in ms: the basis of a utilisation percentage. */
  busyMs: number;
  /** A whole disk rather than one of its partitions: totals add whole disks only, or each byte counts twice. */
  wholeDisk: boolean;
}

// Devices that never hold a filesystem of their own or that double-count another device's I/O.
const VIRTUAL = /^(loop|ram|zram|fd|sr|nbd|dm-)\d+$/;
// sda1, vdb2, xvda1, hdc3; nvme0n1p2, mmcblk0p1.
const PARTITION = /^((s|v|xv|h)d[a-z]+\d+|(nvme\d+n\d+|mmcblk\d+)p\d+)$/;

/** Whole disks and partitions from /proc/diskstats, without loop, ram, zram, floppy, optical, nbd and device-mapper devices. */
export async function readDiskIo(root = '/'): Promise<DiskCounters[]> {
  const text = await readText(root, 'proc/diskstats');
  return text === undefined ? [] : parseDiskIo(text);
}

/** /proc/diskstats's text, without the virtual devices. */
export function parseDiskIo(text: string): DiskCounters[] {
  const out: DiskCounters[] = [];
  for (const line of text.split('\n')) {
    const f = line.trim().split(/\s+/);
    if (f.length < 14 || VIRTUAL.test(f[2])) continue;
    const n = f.map(Number);
    out.push({
      name: f[2],
      reads: n[3], readBytes: n[5] * 512, readMs: n[6],
      writes: n[7], writtenBytes: n[9] * 512, writeMs: n[10],
      busyMs: n[12],
      wholeDisk: !PARTITION.test(f[2]),
    });
  }
  return out;
}
