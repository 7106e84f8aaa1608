// Issue 35 §1: every control-plane route needs a role. A real `vigil run` with every built-in plugin; the walk reads
// the routes from its OpenAPI document (so routes added later are walked too) and checks that a viewer is refused
// every change, and allowed every read that asks for viewer; every change is in the audit log. On SQLite and on
// PostgreSQL.
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { join } from 'node:path';
import { asUser, logInAs, makeUser, upgradeStatus, type MadeUser } from '../support/dashboard-users.js';
import { freePort } from '../support/net.js';
import { freshPostgresSchema, postgresAvailable } from '../support/postgres.js';
import { tempDir } from '../support/tmp.js';
import { startVigil, writeConfig, type VigilProcess } from '../support/vigil-process.js';

const TOKEN = 'roles-token-0123456789abcdef0123';
const PROJECT = 'walk';
const METHODS = ['get', 'post', 'put', 'patch', 'delete'] as const;

interface Operation { 'x-vigil-role'?: string; 'x-vigil-project-param'?: string | null; 'x-websocket'?: boolean; parameters?: { name: string; in: string }[] }
interface Ctx { base: string; vigil: VigilProcess; viewer: MadeUser; viewerCookie: string; member: MadeUser; memberCookie: string; cleanup(): Promise<void> }

const bearer = (base: string, path: string, init: RequestInit = {}) =>
  fetch(`${base}${path}`, { ...init, headers: { authorization: `Bearer ${TOKEN}`, ...(init.body ? { 'content-type': 'application/json' } : {}), ...(init.headers as Record<string, string> | undefined) } });

/** A concrete path for an OpenAPI path: the project parameter names the walk's project, the others a made-up id. */
const concrete = (path: string, op: Operation): string =>
  path.replace(/\{([^}]+)\}/g, (_m, name: string) => (name === op['x-vigil-project-param'] ? PROJECT : 'walk-id'));

function define(kind: 'sqlite' | 'postgres') {
  const s = suite<Ctx>(`dashboard roles (${kind})`);
  s.before(async (ctx) => {
    const dir = tempDir('vigil-roles-');
    const pg = kind === 'postgres' ? await freshPostgresSchema('dashboard_roles') : undefined;
    const port = await freePort();
    ctx.base = `http://127.0.0.1:${port}`;
    const file = writeConfig(dir.path, `data_dir: ${join(dir.path, 'data')}
log: { level: warn }
control_plane: { listen: 127.0.0.1:${port}, token: ${TOKEN} }
${pg ? `storage: { url: ${JSON.stringify(pg.url)} }\n` : ''}service: { upstream: http://127.0.0.1:9, listen: 127.0.0.1:${await freePort()} }
rules:
  - name: all-traffic
    match: { path: /** }
ui: {}
capture: {}
llm: {}
evaluators: {}
alerts: {}
channels: {}
probes: {}
fleet: {}
terminal: { enabled: true }
dbbrowser: {}
selfupdate: {}
apiclient: {}
devtools: {}
assistant: {}
containers: {}
`);
    // Every plugin's schemas compile at start: slow on a loaded machine, so a long bound (timing gates nothing here).
    ctx.vigil = await startVigil(file, ctx.base, { timeoutMs: 120_000 });
    ctx.cleanup = async () => {
      await ctx.vigil.stop();
      await pg?.drop();
      dir.cleanup();
    };
    const created = await bearer(ctx.base, '/api/llm/projects', { method: 'POST', body: JSON.stringify({ name: PROJECT }) });
    assert.is(created.status, 201);
    ctx.viewer = await makeUser(ctx.base, TOKEN, { email: 'viewer@example.com', source: 'local', instance_role: 'viewer' });
    ctx.member = await makeUser(ctx.base, TOKEN, { email: 'member@example.com', source: 'local', instance_role: 'viewer', projects: { [PROJECT]: 'member' } });
    ctx.viewerCookie = await logInAs(ctx.base, ctx.viewer.email, ctx.viewer.password!) as string;
    ctx.memberCookie = await logInAs(ctx.base, ctx.member.email, ctx.member.password!) as string;
    assert.type(ctx.viewerCookie, 'string');
    assert.type(ctx.memberCookie, 'string');
  });
  s.after((ctx) => ctx.cleanup?.());

  s('the walk: a viewer is refused every change (403, before the body is read) and allowed every read for viewers', async ({ base, viewerCookie, viewer }) => {
    const doc = await (await bearer(base, '/api')).json() as { paths: Record<string, Partial<Record<(typeof METHODS)[number], Operation>>> };
    const problems: string[] = [];
    let changes = 0;
    let reads = 0;
    for (const [path, item] of Object.entries(doc.paths)) {
      for (const method of METHODS) {
        const op = item[method];
        if (!op || op['x-vigil-role'] === undefined || op['x-websocket']) continue;
        const url = concrete(path, op);
        const res = await asUser(base, viewerCookie, url, { method: method.toUpperCase(), ...(method === 'get' ? {} : { body: '{}' }) });
        const body = res.status === 403 ? await res.json() as { error: { code: string } } : (await res.body?.cancel(), undefined);
        const refused = body?.error.code === 'VIGIL_ERR_HTTP_ROLE_REQUIRED';
        if (method !== 'get') {
          changes++;
          if (!refused) problems.push(`${method.toUpperCase()} ${url}: ${res.status}, not refused`);
        } else if (op['x-vigil-role'] === 'viewer' || op['x-vigil-role'] === 'signed-in') {
          reads++;
          if (refused || res.status === 401) problems.push(`GET ${url}: refused a viewer (${res.status})`);
        } else if (!refused) {
          problems.push(`GET ${url} needs ${op['x-vigil-role']}: ${res.status}, not refused`);
        }
      }
    }
    assert.equal(problems, []);
    assert.ok(changes >= 40, `only ${changes} changing routes were walked`);
    assert.ok(reads >= 40, `only ${reads} reads were walked`);

    // Every refused change is in the audit log, with who, what, where and the answer.
    const entries: { actor: string; action: string; status: number; actor_id: string | null }[] = [];
    for (let before: string | null | undefined; before !== null;) {
      const res = await bearer(base, `/api/audit?limit=200&actor=${encodeURIComponent(viewer.email)}${before ? `&before=${before}` : ''}`);
      const page = await res.json() as { entries: typeof entries; next: string | null };
      entries.push(...page.entries);
      before = page.next;
    }
    const refusals = entries.filter((e) => e.status === 403 && e.action !== 'sign-in');
    assert.is(refusals.length, changes, 'one entry per refused change');
    assert.ok(refusals.every((e) => e.actor_id === viewer.id));
    assert.ok(entries.some((e) => e.action === 'sign-in'), 'the sign-in is audited');
  });

  s('websockets: a viewer is refused every one that needs more (the terminal is the owner\'s)', async ({ base, viewerCookie }) => {
    const doc = await (await bearer(base, '/api')).json() as { paths: Record<string, { get?: Operation }> };
    const sockets = Object.entries(doc.paths).filter(([, item]) => item.get?.['x-websocket'] && item.get['x-vigil-role'] !== undefined);
    assert.ok(sockets.some(([path]) => path === '/ws/term'), 'the terminal is walked');
    for (const [path, item] of sockets) {
      const status = await upgradeStatus(base, viewerCookie, path);
      assert.is(status, item.get!['x-vigil-role'] === 'viewer' ? 101 : 403, path);
    }
  });

  s('a member runs evals in their project only; project settings stay with admins', async ({ base, memberCookie }) => {
    let res = await asUser(base, memberCookie, `/api/llm/projects/${PROJECT}/evals/none/rerun`, { method: 'POST', body: '{}' });
    assert.is.not(res.status, 403, await res.text());
    res = await asUser(base, memberCookie, '/api/llm/projects/elsewhere/evals/none/rerun', { method: 'POST', body: '{}' });
    assert.is(res.status, 403);
    assert.match((await res.json() as { error: { message: string } }).error.message, /member role in project "elsewhere"/);
    res = await asUser(base, memberCookie, `/api/llm/projects/${PROJECT}/settings`, { method: 'PUT', body: '{}' });
    assert.is(res.status, 403);
    res = await asUser(base, memberCookie, `/api/llm/projects/${PROJECT}/rotate-key`, { method: 'POST', body: '{}' });
    assert.is(res.status, 403);
  });

  s('the owner raises a role (at once), ends a user\'s sessions, and disables a user; each change is audited', async ({ base, member }) => {
    let cookie = await logInAs(base, member.email, member.password!) as string;
    assert.is((await asUser(base, cookie, `/api/llm/projects/${PROJECT}/rotate-key`, { method: 'POST', body: '{}' })).status, 403);
    let res = await bearer(base, `/api/users/${member.id}`, { method: 'PATCH', body: JSON.stringify({ projects: { [PROJECT]: 'admin' } }) });
    assert.is(res.status, 200);
    res = await asUser(base, cookie, `/api/llm/projects/${PROJECT}/rotate-key`, { method: 'POST', body: '{}' });
    assert.is(res.status, 200, await res.text());

    res = await bearer(base, `/api/users/${member.id}/sessions`, { method: 'DELETE' });
    assert.ok((await res.json() as { ended: number }).ended >= 1);
    assert.is((await asUser(base, cookie, '/api/me')).status, 401, 'the ended session is refused');

    cookie = await logInAs(base, member.email, member.password!) as string;
    assert.is((await asUser(base, cookie, '/api/me')).status, 200);
    res = await bearer(base, `/api/users/${member.id}`, { method: 'PATCH', body: JSON.stringify({ disabled: true }) });
    assert.is(res.status, 200);
    assert.is((await asUser(base, cookie, '/api/me')).status, 401, 'disabling ends the sessions');
    assert.is(await logInAs(base, member.email, member.password!), 401, 'a disabled user cannot log in');
    assert.is(await logInAs(base, 'nobody@example.com', 'whatever-password'), 401);

    const page = await (await bearer(base, '/api/audit?limit=50')).json() as { entries: { actor: string; action: string; status: number; target: string }[] };
    const actions = page.entries.map((e) => `${e.actor} ${e.action} ${e.status}`);
    assert.ok(actions.includes('dashboard token PATCH /api/users/:id 200'), actions.join('\n'));
    assert.ok(actions.includes('dashboard token DELETE /api/users/:id/sessions 200'));
    assert.ok(actions.includes(`${member.email} POST /api/llm/projects/:name/rotate-key 200`));
    assert.ok(actions.includes(`${member.email} sign-in refused 401`));
    assert.ok(actions.includes('nobody@example.com sign-in refused 401'));
  });

  s('an instance admin ends a user\'s sessions, but cannot change users', async ({ base }) => {
    const admin = await makeUser(base, TOKEN, { email: 'admin@example.com', source: 'local', instance_role: 'admin' });
    const adminCookie = await logInAs(base, admin.email, admin.password!) as string;
    const viewer = await makeUser(base, TOKEN, { email: 'leaver@example.com', source: 'local', instance_role: 'viewer' });
    const viewerCookie = await logInAs(base, viewer.email, viewer.password!) as string;
    assert.is((await asUser(base, viewerCookie, '/api/me')).status, 200);
    let res = await asUser(base, adminCookie, `/api/users/${viewer.id}/sessions`, { method: 'DELETE' });
    const answer = await res.text();
    assert.is(res.status, 200, answer);
    assert.ok((JSON.parse(answer) as { ended: number }).ended >= 1);
    assert.is((await asUser(base, viewerCookie, '/api/me')).status, 401, 'the ended session is refused');
    res = await asUser(base, adminCookie, `/api/users/${viewer.id}`, { method: 'PATCH', body: JSON.stringify({ instance_role: 'owner' }) });
    assert.is(res.status, 403, 'changing users stays with owners');
  });

  s('a user with a role in one project only opens the dashboard and that project, and nothing instance-wide', async ({ base }) => {
    const user = await makeUser(base, TOKEN, { email: 'one-project@example.com', source: 'local', instance_role: null, projects: { [PROJECT]: 'viewer' } });
    const cookie = await logInAs(base, user.email, user.password!) as string;
    for (const path of ['/', '/llm', `/llm/projects/${PROJECT}`, '/api/me', '/api/ui/shell']) {
      const res = await asUser(base, cookie, path);
      await res.body?.cancel();
      assert.is(res.status, 200, path);
    }
    assert.is((await asUser(base, cookie, `/api/llm/projects/${PROJECT}/traces`)).status, 200);
    assert.is((await bearer(base, '/api/llm/projects', { method: 'POST', body: JSON.stringify({ name: 'not-theirs' }) })).status, 201);
    const names = async (res: Response) => ((await res.json()) as { data: { name: string }[] }).data.map((p) => p.name).sort();
    assert.equal(await names(await asUser(base, cookie, '/api/llm/projects')), [PROJECT], 'their project only');
    assert.ok((await names(await bearer(base, '/api/llm/projects'))).includes('not-theirs'), 'the owner lists every project');
    for (const path of ['/api/gateway/overview', '/api/llm/projects/elsewhere/traces', '/api/ui/stream?topics=alerts.event']) {
      const res = await asUser(base, cookie, path);
      assert.is(res.status, 403, path);
      assert.is((await res.json() as { error: { code: string } }).error.code, 'VIGIL_ERR_HTTP_ROLE_REQUIRED');
    }
  });

  s('the audit log is for owners and instance admins', async ({ base, viewerCookie }) => {
    const res = await asUser(base, viewerCookie, '/api/audit');
    assert.is(res.status, 403);
  });
  return s;
}

define('sqlite').run();
if (await postgresAvailable('dashboard-roles')) define('postgres').run();
