import { readText } from '../proc/read-text.js';

/** Groups whose members may act as root: sudo (Debian, Ubuntu), wheel (Fedora, Arch), admin (old Ubuntu). */
export const ADMIN_GROUPS = ['sudo', 'wheel', 'admin'] as const;

export interface AdminAccounts {
  /** Each admin group present on the machine, with its members (from /etc/group). */
  groups: { name: string; members: string[] }[];
  /** Accounts other than `root` with user id 0: root under another name. */
  uidZero: string[];
}

/** Who can act as root, from /etc/group and /etc/passwd; null where /etc/group cannot be read. */
export async function readAdminAccounts(root: string): Promise<AdminAccounts | null> {
  const group = await readText(root, '/etc/group');
  if (group === undefined) return null;
  const groups: AdminAccounts['groups'] = [];
  for (const line of group.split('\n')) {
    const [name, , , members = ''] = line.split(':');
    if ((ADMIN_GROUPS as readonly string[]).includes(name)) groups.push({ name, members: members.trim() ? members.trim().split(',').filter(Boolean) : [] });
  }
  const passwd = (await readText(root, '/etc/passwd')) ?? '';
  const uidZero = passwd.split('\n').map((l) => l.split(':')).filter((f) => f.length >= 3 && f[2] === '0' && f[0] !== 'root').map((f) => f[0]);
  return { groups, uidZero };
}
