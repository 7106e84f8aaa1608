import type { DashboardRole } from '@vigil/plugin-sdk';

/**
 * Roles (docs/security.md, "Roles"): per LLM project `viewer` < `member` < `admin`, and the instance `owner` above
 * every one. A user's instance role is their role in every project and the one that instance-wide routes (gateway,
 * host, alerts, settings) check; a project grant can only raise it inside that project.
 */
export const ROLES: readonly Role[] = ['viewer', 'member', 'admin', 'owner'];
export type Role = DashboardRole;
/** A role held in one project: the owner is an instance role only. */
export type ProjectRole = Exclude<Role, 'owner'>;
export const PROJECT_ROLES: readonly ProjectRole[] = ['viewer', 'member', 'admin'];

const RANK: Record<Role, number> = { viewer: 1, member: 2, admin: 3, owner: 4 };

export const isRole = (value: unknown): value is Role => typeof value === 'string' && value in RANK;
export const isProjectRole = (value: unknown): value is ProjectRole => isRole(value) && value !== 'owner';

/** What a user holds: an instance role (or none), and grants per project. */
export interface Grants {
  instance: Role | null;
  projects: Readonly<Record<string, ProjectRole>>;
}

/** What a route asks of the caller: a least role, in one project or (`project: null`) on the instance. */
export interface Access {
  role: Role;
  project: string | null;
}

/** The higher of two roles (null is below every role). */
export function higher(a: Role | null, b: Role | null): Role | null {
  if (a === null) return b;
  if (b === null) return a;
  return RANK[a] >= RANK[b] ? a : b;
}

/** The role `grants` give in `project` (null: on the instance), or null for none. */
export function roleIn(grants: Grants, project: string | null): Role | null {
  if (grants.instance === 'owner' || project === null) return grants.instance;
  const granted = Object.hasOwn(grants.projects, project) ? grants.projects[project] : null;
  return higher(grants.instance, granted);
}

/** Whether `grants` meet `need`. */
export function allows(grants: Grants, need: Access): boolean {
  const held = roleIn(grants, need.project);
  return held !== null && RANK[held] >= RANK[need.role];
}

/** Grants of the dashboard token, the break-glass login: the owner. */
export const OWNER_GRANTS: Grants = Object.freeze({ instance: 'owner', projects: Object.freeze({}) });
