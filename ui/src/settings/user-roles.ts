// The roles as the Users page offers them (docs/security.md, "Roles"); the server checks them on every request.
import type { DashboardUserRecord } from '../data/api.gen.js';

export type InstanceRole = DashboardUserRecord['instance_role'];
export type ProjectRole = 'viewer' | 'member' | 'admin';

export const INSTANCE_ROLES: { value: Exclude<InstanceRole, null> | ''; label: string }[] = [
  { value: '', label: 'None (project roles only)' },
  { value: 'viewer', label: 'Viewer: reads everything' },
  { value: 'member', label: 'Member: also runs evals in every project' },
  { value: 'admin', label: 'Admin: also keys and settings of every project' },
  { value: 'owner', label: 'Owner: everything, users included' },
];

export const PROJECT_ROLES: ProjectRole[] = ['viewer', 'member', 'admin'];

/** One line for a user's project grants: `checkout: member, search: admin`. */
export const describeGrants = (projects: Record<string, string>): string =>
  Object.entries(projects).map(([p, r]) => `${p}: ${r}`).join(', ');
