// Perch's services and timers endpoints: GET /api/services, POST /api/serviceaction, GET /api/timers,
// POST /api/timeraction. Reads run systemctl under a 10 s limit; where systemd does not run the machine they answer
// `systemd.running: false` with the reason and run nothing.
import type { HttpRoutes, RouteContext } from '@vigil/plugin-sdk';
import {
  serviceActionBody, servicesQuery, servicesSchema, timerActionBody, timersQuery, timersSchema, unitActionSchema,
} from '../response-schemas.js';
import { actOnUnit, listTimers, listUnits, systemdState, type SystemdDeps, type UnitAction, type UnitScope, type UnitType } from './systemd-units.js';

const TAGS = ['host'];

function elevation(d: SystemdDeps) {
  if (d.privilege()) return { system_actions: 'helper' as const, note: null };
  if (d.isRoot) return { system_actions: 'root' as const, note: null };
  return { system_actions: 'unavailable' as const, note: 'System units can be changed only as root: turn on the privileged helper (privilege: {}) to act on them from here.' };
}

/** An error of systemctl as the answer's `error`, so the page shows it in place (a user scope without a manager). */
async function orError<T>(read: () => Promise<T>, empty: T): Promise<{ value: T; error: string | null }> {
  try {
    return { value: await read(), error: null };
  } catch (err) {
    return { value: empty, error: err instanceof Error ? err.message : String(err) };
  }
}

export function registerServiceRoutes(http: HttpRoutes, d: SystemdDeps): void {
  http.route({
    method: 'GET', path: '/api/services', tags: TAGS,
    summary: 'systemd units of the system or of Vigil\'s user: state, description, unit file state (perch\'s services table)',
    description: 'systemctl list-units --all with --output=json where it exists, else its plain columns; merged with list-unit-files. At most 5,000 units, by name; 10 s limit.',
    query: servicesQuery, response: servicesSchema,
    async handler(ctx) {
      ctx.set('Cache-Control', 'no-store');
      const scope = String(ctx.query.scope ?? 'system') as UnitScope;
      const type = String(ctx.query.type ?? 'service') as UnitType;
      const systemd = await systemdState(d.root);
      const base = { systemd, scope, type, elevation: elevation(d) };
      if (!systemd.running) return { ...base, units: [], total: 0, error: null };
      const { value, error } = await orError(() => listUnits(scope, type), { units: [], total: 0 });
      return { ...base, ...value, error };
    },
  });

  // One handler for units and timers: a timer is a unit, acted on the same way (the body schemas differ in what they allow).
  const unitAction = async (ctx: RouteContext) => {
    const body = ctx.request.body as { scope: UnitScope; unit: string; action: UnitAction };
    const done = await actOnUnit(d, { ...body, principal: ctx.state.auth, address: ctx.ip || null });
    return { unit: body.unit, action: body.action, scope: body.scope, ...done };
  };

  http.route({
    method: 'POST', path: '/api/serviceaction', tags: TAGS,
    summary: 'Start, stop, restart, enable or disable one unit (enable: at boot for system units, at login for user units)',
    description: 'User units run as Vigil\'s user; system units through the privileged helper (verb systemctl-unit), or directly when Vigil runs as root without it. Every action is in the audit log. 60 s limit (2 min through the helper).',
    body: serviceActionBody, response: unitActionSchema,
    handler: unitAction,
  });

  http.route({
    method: 'GET', path: '/api/timers', tags: TAGS,
    summary: 'systemd timers with their next and last run and unit file state',
    description: 'systemctl list-timers --all --output=json; at most 5,000; 10 s limit.',
    query: timersQuery, response: timersSchema,
    async handler(ctx) {
      ctx.set('Cache-Control', 'no-store');
      const scope = String(ctx.query.scope ?? 'system') as UnitScope;
      const systemd = await systemdState(d.root);
      const base = { systemd, scope, elevation: elevation(d) };
      if (!systemd.running) return { ...base, timers: [], error: null };
      const { value, error } = await orError(() => listTimers(scope), []);
      return { ...base, timers: value, error };
    },
  });

  http.route({
    method: 'POST', path: '/api/timeraction', tags: TAGS,
    summary: 'Start (arm until the next boot), stop, enable (arm at every boot or login) or disable one timer',
    description: 'As /api/serviceaction, for .timer units only.',
    body: timerActionBody, response: unitActionSchema,
    handler: unitAction,
  });
}
