import { closedObject, httpError, PACKAGE_MANAGERS, type HttpRoutes, type PackageManager, type PrivilegedVerb, type PrivilegeService, type RouteContext } from '@vigil/plugin-sdk';
import { PackagesErrors } from './errors.js';
import type { FoundManagers } from './managers.js';
import { DEFAULT_ROWS, MAX_ROWS, type PackageLists } from './package-list.js';

const MANAGER = { enum: [...PACKAGE_MANAGERS] };
const PACKAGE = { type: 'string', minLength: 1, maxLength: 128, description: 'The package\'s name as the list shows it.' };

const rowSchema = closedObject({
  manager: MANAGER,
  name: { type: 'string' },
  version: { type: 'string' },
  new_version: { type: ['string', 'null'], description: 'The version an update installs; null: up to date (or not known).' },
  size_bytes: { type: ['integer', 'null'], minimum: 0, description: 'Installed size; null where the manager does not say (snap).' },
  description: { type: 'string' },
}, { title: 'InstalledPackage' });

export const installedSchema = closedObject({
  manager: { oneOf: [MANAGER, { type: 'null' }], description: 'The manager listed; null when the machine has none.' },
  managers: { type: 'array', items: MANAGER, description: 'Every manager found here, the native one first.' },
  native: { oneOf: [MANAGER, { type: 'null' }] },
  total: { type: 'integer', minimum: 0, description: 'Packages installed under this manager.' },
  matched: { type: 'integer', minimum: 0, description: 'Packages the filter matched, before the row cap.' },
  updatable: { type: 'integer', minimum: 0, description: 'Installed packages with an update, whatever the filter.' },
  truncated: { type: 'boolean', description: 'More matched than `limit`: narrow the filter.' },
  updates_known: { type: 'boolean', description: 'Updates were read (apt: from its lists as of the last refresh).' },
  note: { type: ['string', 'null'], description: 'Why the list or its updates could not be read.' },
  read_at: { type: ['string', 'null'], format: 'date-time' },
  rows: { type: 'array', items: rowSchema, maxItems: MAX_ROWS },
}, { title: 'InstalledPackages' });

const jobStarted = closedObject({
  job: { type: 'string', description: 'Follow it with GET /api/job?id=&since=; cancel it with POST /api/job/cancel.' },
  title: { type: 'string' },
}, { title: 'PackageJobStarted' });

/** perch's package routes: the list filtered and capped on the server, and Update, Remove and Upgrade all as jobs of the privileged helper. */
export function registerPackageRoutes(http: HttpRoutes, o: { lists: PackageLists; managers: FoundManagers; privilege: PrivilegeService }): void {
  const { lists, managers, privilege } = o;
  const pick = (mgr: string | undefined): PackageManager => {
    if (!managers.native && managers.all.length === 0) throw httpError(PackagesErrors.NONE, 'no package manager was found on this machine');
    const manager = (mgr ?? managers.native ?? managers.all[0]) as PackageManager;
    if (!managers.all.includes(manager)) throw httpError(PackagesErrors.MANAGER, `${mgr} is not on this machine; it has ${managers.all.join(', ') || 'none'}`);
    return manager;
  };
  const start = async (ctx: RouteContext, manager: PackageManager, verb: PrivilegedVerb, args: string[], title: string) => {
    ctx.status = 202;
    const job = await privilege.startJob({
      verb, args, title, principal: ctx.state.auth, address: ctx.ip,
      // What is installed changed (or may have): the next list is read again.
      onDone: () => lists.invalidate(manager),
    });
    return { job, title };
  };

  http.route({
    method: 'GET', path: '/api/installed', tags: ['host'],
    summary: 'Installed software (apt/dpkg, dnf, pacman, zypper, snap, flatpak) with version, size, description and pending update, filtered, sorted and capped on the server',
    description: `Reads are cached 30 s per manager; updates come from the manager's own lists (apt: as of the last refresh, nothing downloaded). At most ${MAX_ROWS} rows.`,
    query: {
      type: 'object', additionalProperties: false,
      properties: {
        mgr: MANAGER,
        q: { type: 'string', maxLength: 200, description: 'Part of the name or the description, any case.' },
        sort: { enum: ['name', 'size'], default: 'name', description: 'name: A to Z; size: largest first.' },
        limit: { type: 'integer', minimum: 1, maximum: MAX_ROWS, default: DEFAULT_ROWS },
        updatable: { type: 'boolean', default: false, description: 'Only packages with an update.' },
      },
    },
    response: installedSchema,
    async handler(ctx) {
      const q = ctx.query as { mgr?: string; q?: string; sort: 'name' | 'size'; limit: number; updatable: boolean };
      if (managers.all.length === 0) {
        return { manager: null, managers: [], native: null, total: 0, matched: 0, updatable: 0, truncated: false, updates_known: false, note: 'no package manager was found on this machine', read_at: null, rows: [] };
      }
      const manager = pick(q.mgr);
      const answer = await lists.query(manager, q);
      return { manager, managers: managers.all, native: managers.native, ...answer };
    },
  });

  http.route({
    method: 'POST', path: '/api/pkginstall', tags: ['host'],
    summary: 'Updates or removes one installed package through the privileged helper, as a job whose output the page follows live',
    body: closedObject({ mgr: MANAGER, pkg: PACKAGE, action: { enum: ['upgrade', 'remove'] } }),
    status: 202,
    response: jobStarted,
    async handler(ctx) {
      const { mgr, pkg, action } = ctx.request.body as { mgr: string; pkg: string; action: 'upgrade' | 'remove' };
      const manager = pick(mgr);
      privilege.check(action === 'upgrade' ? 'package-upgrade' : 'package-remove', [manager, pkg]);
      if (!(await lists.find(manager, pkg))) throw httpError(PackagesErrors.NOT_INSTALLED, `${pkg} is not installed under ${manager}`);
      return start(ctx, manager, action === 'upgrade' ? 'package-upgrade' : 'package-remove', [manager, pkg], `${action === 'upgrade' ? 'Update' : 'Remove'} ${pkg}`);
    },
  });

  http.route({
    method: 'POST', path: '/api/upgradeall', tags: ['host'],
    summary: 'Upgrades every package of a manager through the privileged helper, as a job',
    body: closedObject({ mgr: MANAGER }),
    status: 202,
    response: jobStarted,
    async handler(ctx) {
      const manager = pick((ctx.request.body as { mgr: string }).mgr);
      return start(ctx, manager, 'package-upgrade-all', [manager], `Upgrade all (${manager})`);
    },
  });

  http.route({
    method: 'POST', path: '/api/pkgrefresh', tags: ['host'],
    summary: 'Refreshes a manager\'s package lists (apt-get update) through the privileged helper, as a job: what the updatable toggle then finds',
    body: closedObject({ mgr: MANAGER }),
    status: 202,
    response: jobStarted,
    async handler(ctx) {
      const manager = pick((ctx.request.body as { mgr: string }).mgr);
      return start(ctx, manager, 'package-refresh', [manager], `Refresh package lists (${manager})`);
    },
  });
}
