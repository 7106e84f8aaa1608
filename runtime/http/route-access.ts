import type { DashboardUser, RouteDefinition } from '@vigil/plugin-sdk';
import { allows, isRole, type Access, type Role } from '../auth/roles.js';

/** What a route asks of a dashboard caller, fixed at registration (docs/security.md, "Roles"). */
export interface RouteAccess {
  /** `signed-in`: any dashboard user, whatever their roles (pages and who-am-I). */
  role: Role | 'signed-in';
  /** The path parameter that names the project, or null for an instance-wide route. */
  projectParam: string | null;
  /** Whether the role was declared by the route rather than defaulted (the OpenAPI listing says which). */
  declared: boolean;
}

/**
 * The default makes every route safe without its author doing anything: reads need `viewer`, and changes need
 * `admin` in a project or `owner` on the instance. The project is found from the path, so a project admin cannot act
 * on another project.
 */
/** `params`: the names of the path's parameters (route-table.ts `pathParamNames`). */
export function routeAccess(definition: RouteDefinition, params: readonly string[]): RouteAccess | string {
  let projectParam: string | null;
  if (definition.projectParam === null) projectParam = null;
  else if (definition.projectParam !== undefined) {
    if (typeof definition.projectParam !== 'string' || !params.includes(definition.projectParam)) {
      return `projectParam ${JSON.stringify(definition.projectParam)} is not a parameter of the path (${params.join(', ') || 'none'})`;
    }
    projectParam = definition.projectParam;
  } else {
    projectParam = params.includes('project') ? 'project' : projectParamAfterSegment(definition.path);
  }
  if (definition.role !== undefined && !isRole(definition.role) && definition.role !== 'signed-in') {
    return `role ${JSON.stringify(definition.role)} must be one of signed-in, viewer, member, admin, owner`;
  }
  if (definition.role === 'signed-in' && definition.method !== 'GET') return 'role "signed-in" is for reads (GET): a change needs a role';
  const read = definition.method === 'GET';
  const role = definition.role ?? (read ? 'viewer' : projectParam ? 'admin' : 'owner');
  return { role, projectParam, declared: definition.role !== undefined };
}

/** The parameter right after a `projects` segment: `/api/llm/projects/:name/settings` → `name`. */
function projectParamAfterSegment(path: string): string | null {
  const m = /\/projects\/:([A-Za-z_$][\w$]*)(?:\/|$)/.exec(path);
  return m ? m[1] : null;
}

/** The access a request needs, given the route's and the request's path parameters; null: any signed-in user. */
export function requestAccess(access: RouteAccess, params: Record<string, string>): Access | null {
  if (access.role === 'signed-in') return null;
  return { role: access.role, project: access.projectParam === null ? null : (params[access.projectParam] ?? null) };
}

/** Whether `user` may make a request that needs `need`. */
export function userAllows(user: DashboardUser, need: Access): boolean {
  return allows({ instance: user.instanceRole, projects: user.projects }, need);
}
