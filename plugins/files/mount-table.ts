import { readFile } from 'node:fs/promises';
import { isUnder } from './files/allowed-path.js';

interface MountLine { point: string; fsType: string; options: string[] }

// Kernel interfaces and other filesystems without files of a user's: never walked when a scan starts above them.
const PSEUDO = new Set([
  'proc', 'sysfs', 'devtmpfs', 'devpts', 'cgroup', 'cgroup2', 'debugfs', 'tracefs', 'securityfs', 'pstore', 'bpf',
  'configfs', 'fusectl', 'mqueue', 'hugetlbfs', 'binfmt_misc', 'autofs', 'efivarfs', 'nsfs', 'rpc_pipefs', 'selinuxfs',
]);

const unescape = (s: string) => s.replace(/\\([0-7]{3})/g, (_, oct: string) => String.fromCharCode(parseInt(oct, 8)));

async function readMounts(): Promise<MountLine[]> {
  let text = '';
  try { text = await readFile('/proc/self/mounts', 'utf8'); } catch { return []; }
  return text.split('\n').filter(Boolean).map((line) => {
    const [, point, fsType, options] = line.split(' ');
    return { point: unescape(point ?? ''), fsType: fsType ?? '', options: (options ?? '').split(',') };
  });
}

/** Mount points of pseudo filesystems under `root`: a scan of `/` does not walk /proc or /sys. */
export async function pseudoMountsUnder(roots: string[]): Promise<string[]> {
  return (await readMounts()).filter((m) => PSEUDO.has(m.fsType) && roots.some((r) => isUnder(m.point, r) && m.point !== r)).map((m) => m.point);
}

/**
 * Which time says when a file under `path` was last opened. A mount with `noatime` never updates access times, so
 * the modification time stands in (and the answer says so); `relatime` (the kernel's default) updates them at most
 * once a day, which is fine for "not opened for months".
 */
export async function usageClock(path: string): Promise<{ clock: 'atime' | 'mtime'; note: string }> {
  const mounts = await readMounts();
  let best: MountLine | undefined;
  for (const m of mounts) if (isUnder(path, m.point) && (!best || m.point.length >= best.point.length)) best = m;
  if (!best) return { clock: 'mtime', note: 'the mount table could not be read, so the last modification time stands in for the last use' };
  if (best.options.includes('noatime')) {
    return { clock: 'mtime', note: `${best.point} is mounted noatime (access times are not recorded), so the last modification time stands in for the last use` };
  }
  const how = best.options.includes('strictatime') ? 'on every read' : best.options.includes('nodiratime') || best.options.includes('relatime') ? 'at most once a day (relatime)' : 'at most once a day (relatime, the kernel default)';
  return { clock: 'atime', note: `${best.point} records access times ${how}: a file counts as used when it was last opened or changed` };
}
