// Issue 30 (B11): dashboard sessions are recorded on the server, so a logout, a token change and an admin end them
// at once; a cookie kept from before keeps nothing. Real `vigil run` processes on SQLite, without a store (the
// sessions then live in the process), and two processes sharing one PostgreSQL.
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { createHash } from 'node:crypto';
import { join } from 'node:path';
import { freePort, waitFor } from '../support/net.js';
import { freshPostgresSchema, postgresAvailable } from '../support/postgres.js';
import { openSse, type SseConnection } from '../support/sse-client.js';
import { tempDir } from '../support/tmp.js';
import { startVigil, writeConfig, type VigilProcess } from '../support/vigil-process.js';

const TOKEN = 'sessions-token-0123456789abcdef';
const OTHER_TOKEN = 'sessions-other-token-fedcba9876543210';

interface ListedSession {
  id: string;
  current: boolean;
  created_at: number;
  last_seen_at: number;
  expires_at: number;
  user_agent: string | null;
  client_address: string | null;
}
interface SessionList { sessions: ListedSession[]; total: number }

/** Logs in as a script does (a form post without Origin) and returns the `vigil_session=…` pair. */
async function logIn(base: string, token = TOKEN, userAgent = 'sessions-test'): Promise<string> {
  const res = await fetch(`${base}/login`, {
    method: 'POST',
    redirect: 'manual',
    headers: { 'content-type': 'application/x-www-form-urlencoded', 'user-agent': userAgent },
    body: new URLSearchParams({ token }).toString(),
  });
  await res.arrayBuffer();
  assert.is(res.status, 303, 'the login form answers 303');
  const set = res.headers.getSetCookie().find((c) => c.startsWith('vigil_session='));
  assert.ok(set, 'the login sets the session cookie');
  return set!.split(';')[0];
}

/** What the dashboard's own page sends with a write: its Origin, and fetch metadata. */
const samePage = (base: string, cookie: string): Record<string, string> => ({ cookie, origin: base, 'sec-fetch-site': 'same-origin' });

/** The status of a dashboard route (`/api`, the API listing, which every control plane has) with `cookie`. */
const statusWith = async (base: string, cookie: string, path = '/api'): Promise<number> => {
  const res = await fetch(`${base}${path}`, { headers: { cookie }, redirect: 'manual' });
  await res.arrayBuffer();
  return res.status;
};

async function listSessions(base: string, auth: Record<string, string>): Promise<SessionList> {
  const res = await fetch(`${base}/api/sessions`, { headers: auth });
  assert.is(res.status, 200, 'GET /api/sessions');
  return (await res.json()) as SessionList;
}

async function logOut(base: string, cookie: string): Promise<Response> {
  const res = await fetch(`${base}/logout`, { method: 'POST', redirect: 'manual', headers: samePage(base, cookie) });
  await res.arrayBuffer();
  return res;
}

const bearer = { authorization: `Bearer ${TOKEN}` };

/** The dashboard's live stream (plugins/ui), opened with `cookie`; resolves once it delivered its first frame. */
async function liveStream(base: string, cookie: string): Promise<SseConnection> {
  const stream = await openSse(`${base}/api/ui/stream?topics=ui.settings`, { cookie });
  assert.is(stream.status, 200);
  await stream.next();
  return stream;
}

/** Resolves true if `stream` ends within `ms`, false if it is still open then. */
const endsWithin = (stream: SseConnection, ms: number): Promise<boolean> =>
  Promise.race([stream.ended.then(() => true), new Promise<boolean>((r) => setTimeout(() => r(false), ms).unref())]);
// Decided before any suite is queued: uvu starts running the queue once the module's top level is done.
const withPostgres = await postgresAvailable('dashboard-sessions');

/** A config with the dashboard (the ui plugin keeps its settings in the store, so the store is opened). */
function dashboardConfig(dir: string, port: number, token: string, extra = 'ui: {}\n'): string {
  return writeConfig(dir, `data_dir: ${join(dir, 'data')}
control_plane: { listen: 127.0.0.1:${port}, token: ${token} }
${extra}`, `vigil-${token.length}-${port}.yaml`);
}

const sqlite = suite<{ dir: ReturnType<typeof tempDir>; port: number; base: string; vigil?: VigilProcess }>('dashboard sessions: one process on SQLite');

sqlite.before(async (ctx) => {
  ctx.dir = tempDir('vigil-sessions-');
  ctx.port = await freePort();
  ctx.base = `http://127.0.0.1:${ctx.port}`;
  ctx.vigil = await startVigil(dashboardConfig(ctx.dir.path, ctx.port, TOKEN), ctx.base);
});

sqlite.after(async (ctx) => {
  await ctx.vigil?.stop();
  ctx.dir.cleanup();
});

sqlite('after a logout the old cookie gets 401, and the logout answer clears it', async ({ base }) => {
  const cookie = await logIn(base);
  const other = await logIn(base);
  assert.is(await statusWith(base, cookie), 200);
  const res = await logOut(base, cookie);
  assert.is(res.status, 303);
  assert.is(res.headers.get('location'), '/login');
  assert.ok(res.headers.getSetCookie().some((c) => c.startsWith('vigil_session=;') && c.includes('Max-Age=0')), 'the cookie is cleared');
  // The cookie a browser (or an attacker who copied it) kept from before the logout.
  assert.is(await statusWith(base, cookie), 401, 'the logged-out cookie still works');
  assert.is(await statusWith(base, cookie, '/api/ui/settings'), 401, 'the logged-out cookie still works on a plugin route');
  assert.is(await statusWith(base, other), 200, 'a logout ends only its own session');
  const ended = await fetch(`${base}/api/sessions`, { headers: { cookie } });
  assert.ok(ended.headers.getSetCookie().some((c) => c.startsWith('vigil_session=;')), 'an ended session\'s cookie is cleared when sent again');
  await ended.arrayBuffer();
  assert.is((await logOut(base, cookie)).status, 303, 'logging out twice is harmless');
});

sqlite('a live stream opened with a session is cut by its logout; another session\'s stream stays open', async ({ base }) => {
  const cookie = await logIn(base);
  const other = await logIn(base);
  const mine = await liveStream(base, cookie);
  const theirs = await liveStream(base, other);
  try {
    assert.is(await endsWithin(mine, 300), false, 'the stream ended before the logout');
    assert.is((await logOut(base, cookie)).status, 303);
    assert.ok(await endsWithin(mine, 5_000), 'the logged-out session\'s stream is still open');
    assert.is(await endsWithin(theirs, 300), false, 'another session\'s stream was cut');
    const again = await openSse(`${base}/api/ui/stream?topics=ui.settings`, { cookie });
    assert.is(again.status, 401, 'the stream reopened with the ended session');
  } finally {
    mine.close();
    theirs.close();
  }
});

sqlite('an admin lists the sessions, without an id that works as a cookie, and ends another one', async ({ base }) => {
  const mine = await logIn(base, TOKEN, 'browser-mine');
  const theirs = await logIn(base, TOKEN, 'browser-theirs');
  const list = await listSessions(base, { cookie: mine });
  const entries = new Map(list.sessions.map((s) => [s.user_agent, s]));
  const me = entries.get('browser-mine');
  const them = entries.get('browser-theirs');
  assert.ok(me && them, JSON.stringify(list));
  assert.is(me!.current, true);
  assert.is(them!.current, false);
  assert.is(list.total, list.sessions.length);
  assert.ok(me!.expires_at > me!.created_at && me!.last_seen_at >= me!.created_at);
  assert.is(me!.client_address, '127.0.0.1');

  // Nothing in the list is the cookie, its hash, or usable as one.
  const text = JSON.stringify(list);
  for (const cookie of [mine, theirs]) {
    const value = cookie.slice('vigil_session='.length);
    assert.not.ok(text.includes(value), 'the list holds a cookie value');
    const hash = createHash('sha256').update(value).digest('hex');
    assert.not.ok(text.includes(hash.slice(0, 16)), 'the list holds the stored hash');
    assert.not.ok(text.includes(value.slice(-12)), 'the list holds a part of the cookie');
  }
  for (const s of list.sessions) {
    assert.ok(s.id.length <= 24, `id ${s.id} is a short handle`);
    for (const forged of [s.id, `v1.${s.id}`, `v2.${s.id}`]) {
      assert.is(await statusWith(base, `vigil_session=${forged}`), 401, `the listed id ${forged} works as a cookie`);
    }
  }

  const del = await fetch(`${base}/api/sessions/${them!.id}`, { method: 'DELETE', headers: samePage(base, mine) });
  assert.is(del.status, 200);
  assert.equal(await del.json(), { ended: 1 });
  assert.is(await statusWith(base, theirs), 401, 'the session the admin ended still works');
  assert.is(await statusWith(base, mine), 200, 'ending another session ended the admin\'s own');
  const after = await listSessions(base, { cookie: mine });
  assert.not.ok(after.sessions.some((s) => s.id === them!.id), 'an ended session is still listed as open');

  const again = await fetch(`${base}/api/sessions/${them!.id}`, { method: 'DELETE', headers: samePage(base, mine) });
  assert.is(again.status, 404, 'ending an ended session');
  assert.is(((await again.json()) as { error: { code: string } }).error.code, 'VIGIL_ERR_HTTP_SESSION_NOT_FOUND');
});

sqlite('a page on another site cannot end sessions with the cookie; a script cannot without the token', async ({ base }) => {
  const mine = await logIn(base);
  const theirs = await logIn(base);
  const { sessions } = await listSessions(base, { cookie: mine });
  const target = sessions.find((s) => !s.current)!;
  const shapes: Record<string, string>[] = [{ cookie: mine }, { cookie: mine, origin: 'http://evil.example' }, { cookie: mine, 'sec-fetch-site': 'cross-site' }];
  for (const headers of shapes) {
    const res = await fetch(`${base}/api/sessions/${target.id}`, { method: 'DELETE', headers });
    assert.is(res.status, 403, JSON.stringify(headers));
    await res.arrayBuffer();
  }
  const anonymous = await fetch(`${base}/api/sessions`, { method: 'DELETE' });
  assert.is(anonymous.status, 401);
  await anonymous.arrayBuffer();
  // Bad input: an id that is no handle (the cookie itself among them), a query that is not a boolean or not known.
  for (const [path, status, code] of [
    [`/api/sessions/${'f'.repeat(300)}`, 404, 'VIGIL_ERR_HTTP_SESSION_NOT_FOUND'],
    [`/api/sessions/${encodeURIComponent(theirs.slice('vigil_session='.length))}`, 404, 'VIGIL_ERR_HTTP_SESSION_NOT_FOUND'],
    ['/api/sessions?include_current=maybe', 400, 'VIGIL_ERR_HTTP_INVALID_QUERY'],
    ['/api/sessions?everyone=true', 400, 'VIGIL_ERR_HTTP_INVALID_QUERY'],
  ] as const) {
    const res = await fetch(`${base}${path}`, { method: 'DELETE', headers: bearer });
    assert.is(res.status, status, path);
    const { error } = (await res.json()) as { error: { code: string; message: string } };
    assert.is(error.code, code, path);
    assert.ok(error.message.length < 400, 'the message repeats the input unbounded');
  }
  assert.is(await statusWith(base, theirs), 200);
});

sqlite('DELETE /api/sessions ends every session but the caller\'s; include_current=true ends the caller\'s too', async ({ base }) => {
  const mine = await logIn(base);
  const others = [await logIn(base), await logIn(base)];
  const res = await fetch(`${base}/api/sessions`, { method: 'DELETE', headers: samePage(base, mine) });
  assert.is(res.status, 200);
  const { ended } = (await res.json()) as { ended: number };
  assert.ok(ended >= 2, `ended ${ended}`);
  for (const cookie of others) assert.is(await statusWith(base, cookie), 401);
  assert.is(await statusWith(base, mine), 200, 'the caller\'s own session ended');
  const list = await listSessions(base, { cookie: mine });
  assert.equal(list.sessions.map((s) => s.current), [true]);

  const all = await fetch(`${base}/api/sessions?include_current=true`, { method: 'DELETE', headers: samePage(base, mine) });
  assert.is(all.status, 200);
  assert.equal(await all.json(), { ended: 1 });
  assert.ok(all.headers.getSetCookie().some((c) => c.startsWith('vigil_session=;')), 'the caller\'s cookie is cleared');
  assert.is(await statusWith(base, mine), 401);

  // The bearer token has no session of its own: "all but the caller's" is every session.
  const a = await logIn(base);
  const viaToken = await fetch(`${base}/api/sessions`, { method: 'DELETE', headers: bearer });
  assert.equal(await viaToken.json(), { ended: 1 });
  assert.is(await statusWith(base, a), 401);
  assert.equal((await listSessions(base, bearer)).sessions, []);
});

sqlite('a restart keeps the sessions; a token change ends them for good, even when the old token comes back', async (ctx) => {
  const kept = await logIn(ctx.base);
  await ctx.vigil!.stop();
  ctx.vigil = await startVigil(dashboardConfig(ctx.dir.path, ctx.port, TOKEN), ctx.base);
  assert.is(await statusWith(ctx.base, kept), 200, 'a restart with the same token ended the session');

  await ctx.vigil.stop();
  ctx.vigil = await startVigil(dashboardConfig(ctx.dir.path, ctx.port, OTHER_TOKEN), ctx.base);
  assert.is(await statusWith(ctx.base, kept), 401, 'the token changed and the old session still works');
  const fresh = await logIn(ctx.base, OTHER_TOKEN);
  assert.is(await statusWith(ctx.base, fresh), 200);

  await ctx.vigil.stop();
  ctx.vigil = await startVigil(dashboardConfig(ctx.dir.path, ctx.port, TOKEN), ctx.base);
  assert.is(await statusWith(ctx.base, kept), 401, 'the first token came back and revived its old session');
  assert.is(await statusWith(ctx.base, fresh), 401, 'the second token\'s session outlived its token');
  const list = await listSessions(ctx.base, bearer);
  assert.equal(list.sessions, [], 'sessions of a replaced token are listed as open');
});

const memory = suite<{ dir: ReturnType<typeof tempDir>; base: string; vigil?: VigilProcess }>('dashboard sessions: no store');

memory.before(async (ctx) => {
  ctx.dir = tempDir('vigil-sessions-mem-');
  const port = await freePort();
  ctx.base = `http://127.0.0.1:${port}`;
  ctx.vigil = await startVigil(dashboardConfig(ctx.dir.path, port, TOKEN, ''), ctx.base);
});

memory.after(async (ctx) => {
  await ctx.vigil?.stop();
  ctx.dir.cleanup();
});

memory('without a store the sessions live in the process: logout and DELETE still end them', async ({ base }) => {
  const cookie = await logIn(base);
  const other = await logIn(base);
  assert.is(await statusWith(base, cookie), 200);
  const list = await listSessions(base, { cookie });
  assert.is(list.sessions.length, 2);
  const del = await fetch(`${base}/api/sessions/${list.sessions.find((s) => !s.current)!.id}`, { method: 'DELETE', headers: samePage(base, cookie) });
  assert.is(del.status, 200);
  await del.arrayBuffer();
  assert.is(await statusWith(base, other), 401);
  assert.is((await logOut(base, cookie)).status, 303);
  assert.is(await statusWith(base, cookie), 401);
});

sqlite.run();
memory.run();

if (withPostgres) {
  const pgSuite = suite<{ dir: ReturnType<typeof tempDir>; schema: Awaited<ReturnType<typeof freshPostgresSchema>>; bases: string[]; procs: VigilProcess[] }>(
    'dashboard sessions: two processes on one PostgreSQL');

  pgSuite.before(async (ctx) => {
    ctx.dir = tempDir('vigil-sessions-pg-');
    ctx.schema = await freshPostgresSchema('sessions');
    ctx.bases = [];
    ctx.procs = [];
    for (let i = 0; i < 2; i++) {
      const port = await freePort();
      ctx.bases.push(`http://127.0.0.1:${port}`);
      // Each process has its own data directory: nothing but the database is shared.
      const file = writeConfig(ctx.dir.path, `data_dir: ${join(ctx.dir.path, `data-${i}`)}
storage: { url: "${ctx.schema.url}" }
control_plane: { listen: 127.0.0.1:${port}, token: ${TOKEN} }
ui: {}
`, `vigil-${i}.yaml`);
      ctx.procs.push(await startVigil(file, ctx.bases[i]));
    }
  });

  pgSuite.after(async (ctx) => {
    await Promise.all(ctx.procs.map((p) => p.stop()));
    await ctx.schema.drop();
    ctx.dir.cleanup();
  });

  /** The bound DESIGN states for another process: an ended session works there at most 2 s more (plus slack here). */
  const withinBound = { timeoutMs: 8_000, intervalMs: 100 };

  pgSuite('a session made by one process works at the other; a logout at one ends it at both', async ({ bases: [a, b] }) => {
    const cookie = await logIn(a);
    assert.is(await statusWith(b, cookie), 200, 'the other process does not know the session');
    assert.is((await logOut(a, cookie)).status, 303);
    assert.is(await statusWith(a, cookie), 401, 'the process that ended it must refuse it at once');
    await waitFor(async () => (await statusWith(b, cookie)) === 401, { ...withinBound, what: 'the other process refusing the ended session' });
  });

  pgSuite('a live stream at one process is cut within the bound when the session ends at the other', async ({ bases: [a, b] }) => {
    const cookie = await logIn(a);
    const stream = await liveStream(b, cookie);
    try {
      assert.is(await endsWithin(stream, 300), false);
      assert.is((await logOut(a, cookie)).status, 303);
      assert.ok(await endsWithin(stream, withinBound.timeoutMs), 'the stream at the other process outlived the session');
    } finally {
      stream.close();
    }
  });

  pgSuite('an admin at one process ends a session the other process serves', async ({ bases: [a, b] }) => {
    const admin = await logIn(a, TOKEN, 'admin-browser');
    const victim = await logIn(b, TOKEN, 'victim-browser');
    assert.is(await statusWith(b, victim), 200);
    const listed = (await listSessions(a, { cookie: admin })).sessions.find((s) => s.user_agent === 'victim-browser');
    assert.ok(listed, 'a session made by the other process is listed');
    const del = await fetch(`${a}/api/sessions/${listed!.id}`, { method: 'DELETE', headers: samePage(a, admin) });
    assert.is(del.status, 200);
    await del.arrayBuffer();
    assert.is(await statusWith(a, victim), 401);
    await waitFor(async () => (await statusWith(b, victim)) === 401, { ...withinBound, what: 'the other process refusing the session an admin ended' });
    assert.is(await statusWith(b, admin), 200);
  });

  pgSuite.run();
}
