import { higher, isProjectRole, isRole, type ProjectRole, type Role } from './roles.js';

/** What decides who may sign in with OIDC and with which roles (`control_plane.oidc`, normalised). */
export interface SignInPolicy {
  allowedDomains: readonly string[];
  allowedGroups: readonly string[];
  groupsClaim: string;
  roleClaim: string;
  /** Claim value → `role` or `project:role`. Empty: values that are role names count as themselves. */
  roleMap: Readonly<Record<string, string>>;
  /** The instance role of a new user whom the map gives none. */
  defaultRole: Role | null;
}

export type SignInDecision =
  | {
    ok: true;
    email: string;
    name: string | null;
    /** The instance role the claims give, or null when they give none (then a new user gets the default role). */
    instanceRole: Role | null;
    projectRoles: Record<string, ProjectRole>;
  }
  | { ok: false; reason: string };

/** A claim as a list of strings: an array's strings, a string (or a space-separated one), or nothing. */
function claimValues(value: unknown): string[] {
  if (Array.isArray(value)) return value.filter((v): v is string => typeof v === 'string');
  if (typeof value === 'string') return [value];
  return [];
}

/** Parses a role_map value: `admin` (the instance) or `checkout:member` (one project). */
export function parseMappedRole(value: string): { project: string | null; role: Role } | null {
  const colon = value.lastIndexOf(':');
  const [project, role] = colon < 0 ? [null, value] : [value.slice(0, colon), value.slice(colon + 1)];
  if (project !== null && (project === '' || !isProjectRole(role))) return null;
  return isRole(role) ? { project, role } : null;
}

/**
 * Decides a sign-in from the verified ID token's claims (openid-client has checked signature, issuer, audience,
 * nonce and expiry): an email the provider has not marked unverified, in an allowed domain and group; and the roles
 * its claims map to.
 */
export function decideSignIn(claims: Record<string, unknown>, policy: SignInPolicy): SignInDecision {
  const email = typeof claims.email === 'string' ? claims.email.trim().toLowerCase() : '';
  if (!/^[^@\s]+@[^@\s]+$/.test(email)) return { ok: false, reason: 'the identity provider sent no email address (ask for the email scope)' };
  if (claims.email_verified === false) return { ok: false, reason: `the identity provider has not verified ${email}` };
  const domain = email.slice(email.lastIndexOf('@') + 1);
  if (policy.allowedDomains.length > 0 && !policy.allowedDomains.some((d) => d.toLowerCase() === domain)) {
    return { ok: false, reason: `${email} is not in an allowed email domain (${policy.allowedDomains.join(', ')})` };
  }
  const groups = claimValues(claims[policy.groupsClaim]);
  if (policy.allowedGroups.length > 0 && !groups.some((g) => policy.allowedGroups.includes(g))) {
    return { ok: false, reason: `${email} is in none of the allowed groups (${policy.allowedGroups.join(', ')})` };
  }
  let instanceRole: Role | null = null;
  const projectRoles: Record<string, ProjectRole> = {};
  const mapped = Object.keys(policy.roleMap).length > 0;
  for (const value of claimValues(claims[policy.roleClaim])) {
    const target = mapped ? (Object.hasOwn(policy.roleMap, value) ? parseMappedRole(policy.roleMap[value]) : null) : parseMappedRole(value);
    if (!target) continue;
    if (target.project === null) instanceRole = higher(instanceRole, target.role);
    else projectRoles[target.project] = higher(projectRoles[target.project] ?? null, target.role) as ProjectRole;
  }
  const name = typeof claims.name === 'string' ? claims.name.slice(0, 200) : null;
  return { ok: true, email, name, instanceRole, projectRoles };
}
