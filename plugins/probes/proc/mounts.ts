import { statfs } from 'node:fs/promises';
import { join } from 'node:path';
import { readText } from './read-text.js';

/** One line of the mount table. */
export interface MountEntry { device: string; mountPoint: string; fsType: string }

/** One real partition and its usage in bytes. Usage is absent when statfs failed (a stale network mount, no permission). */
export interface MountUsage extends MountEntry {
  total?: number; used?: number;
  /** What an unprivileged user may still write (statfs `bavail`): root's reserved blocks are not counted. */
  available?: number;
  /** used / (used + available), as `df` computes it, 0..100. */
  usedPercent?: number;
}

// Filesystems that hold no user data of their own: kernel interfaces, memory, read-only images and layers.
const PSEUDO = new Set([
  'autofs', 'binfmt_misc', 'bpf', 'cgroup', 'cgroup2', 'configfs', 'debugfs', 'devpts', 'devtmpfs', 'efivarfs',
  'fusectl', 'hugetlbfs', 'mqueue', 'nsfs', 'overlay', 'proc', 'pstore', 'ramfs', 'rpc_pipefs', 'securityfs',
  'selinuxfs', 'squashfs', 'sysfs', 'tmpfs', 'tracefs', 'fuse.gvfsd-fuse', 'fuse.portal', 'fuse.snapfuse',
  'fuse.lxcfs', 'iso9660', 'nfsd',
]);

/** Mount paths escape space, tab, newline and backslash as octal (`\040`). */
function unescape(path: string): string {
  return path.replace(/\\([0-7]{3})/g, (_, oct: string) => String.fromCharCode(parseInt(oct, 8)));
}

/** Real partitions from /proc/self/mounts: not pseudo filesystems, and each device once (bind mounts repeat it). */
export async function readMountList(root = '/'): Promise<MountEntry[]> {
  const text = await readText(root, 'proc/self/mounts');
  if (text === undefined) return [];
  const seen = new Set<string>();
  const out: MountEntry[] = [];
  for (const line of text.split('\n')) {
    const [device, mountPoint, fsType] = line.split(' ');
    if (!fsType || PSEUDO.has(fsType) || seen.has(device)) continue;
    // A real partition comes from a device node, or is a pool or share named by its filesystem (zfs, btrfs subvolumes, nfs).
    if (!device.startsWith('/dev/') && !['zfs', 'nfs', 'nfs4', 'cifs', 'smb3', 'fuse.sshfs'].includes(fsType)) continue;
    seen.add(device);
    out.push({ device: unescape(device), mountPoint: unescape(mountPoint), fsType });
  }
  return out;
}

/** Real partitions with their usage; each statfs call is bounded by `timeoutMs` so a hung network mount cannot stall the sample. */
export async function readMounts(root = '/', timeoutMs = 2000): Promise<MountUsage[]> {
  const mounts = await readMountList(root);
  return Promise.all(mounts.map(async (m): Promise<MountUsage> => {
    let timer: NodeJS.Timeout | undefined;
    try {
      const timeout = new Promise<never>((_, reject) => {
        timer = setTimeout(() => reject(new Error('statfs timed out')), timeoutMs);
        timer.unref();
      });
      const s = await Promise.race([statfs(join(root, m.mountPoint)), timeout]);
      const total = s.blocks * s.bsize;
      const used = (s.blocks - s.bfree) * s.bsize;
      const available = s.bavail * s.bsize;
      return { ...m, total, used, available, usedPercent: used + available > 0 ? (used / (used + available)) * 100 : 0 };
    } catch {
      return m;
    } finally {
      clearTimeout(timer);
    }
  }));
}
