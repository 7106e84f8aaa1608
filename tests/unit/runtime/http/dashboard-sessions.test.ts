// Sessions recorded on the server (runtime/http/dashboard-sessions.ts) over each backend: memory, and the core store
// on SQLite and PostgreSQL, where two DashboardSessions on one database stand for two processes. The clock is a
// variable, so lifetimes, idle timeouts and the recheck bound are exact.
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { DashboardSessions, type SessionPolicy } from '../../../../runtime/http/dashboard-sessions.js';
import { hashToken } from '../../../../runtime/http/dashboard-token.js';
import type { SessionBackend } from '../../../../runtime/http/session-backend.js';
import { sessionKey } from '../../../../runtime/http/session-cookie.js';
import { MemorySessionBackend } from '../../../../runtime/http/session-memory.js';
import { StoreSessionBackend } from '../../../../runtime/http/session-table.js';
import { waitFor } from '../../../support/net.js';
import { backendKinds } from '../store/backend-kinds.js';

const HASH = hashToken('the-dashboard-token');
const OTHER = hashToken('another-dashboard-token');
const MINUTE = 60_000;
const DAY = 24 * 60 * MINUTE;
const POLICY: SessionPolicy = { lifetimeMs: 7 * DAY, idleMs: DAY, recheckMs: 2000 };

interface Kind {
  name: string;
  /** A fresh database; every call of the returned `open` is one more "process" on it. */
  fresh(): Promise<() => Promise<SessionBackend>>;
  cleanup(): Promise<void>;
}

const memoryKind: Kind = {
  name: 'memory',
  async fresh() {
    const shared = new MemorySessionBackend();
    return async () => shared;
  },
  async cleanup() {},
};

const storeKinds: Kind[] = (await backendKinds('dashboard_sessions')).map((kind) => ({
  name: kind.name,
  async fresh() {
    const url = await kind.fresh();
    return async () => new StoreSessionBackend(await kind.open(url));
  },
  cleanup: () => kind.cleanup(),
}));

interface Ctx { clock: { now: number }; open(): Promise<SessionBackend> }

function define(kind: Kind) {
  const test = suite<Ctx>(`dashboard sessions (${kind.name})`);
  test.before.each(async (ctx) => {
    ctx.clock = { now: Date.UTC(2030, 0, 1) };
    ctx.open = await kind.fresh();
  });
  test.after(() => kind.cleanup());

  /** One process's view of the sessions, prepared as the control plane prepares it at start. */
  const processOf = async (ctx: Ctx, tokenHash = HASH, policy: Partial<SessionPolicy> = POLICY): Promise<DashboardSessions> => {
    const sessions = new DashboardSessions(await ctx.open(), tokenHash, policy, { now: () => ctx.clock.now });
    await sessions.prepare();
    return sessions;
  };

  test('a login makes an open session; a logout ends it at once; other sessions stay open', async (ctx) => {
    const s = await processOf(ctx);
    const a = await s.start({ userAgent: 'browser A', address: '127.0.0.1' });
    const b = await s.start({ userAgent: 'browser B' });
    const open = await s.check(a);
    assert.is(open.state, 'open');
    assert.is((await s.endByCookie([a])), 1);
    assert.equal(await s.check(a), { state: 'ended' });
    assert.is((await s.check(b)).state, 'open');
    assert.is(await s.endByCookie([a, 'v2.not-a-session', '']), 0, 'ending twice, or nothing');
    const { rows, total } = await s.list();
    assert.is(total, 1);
    assert.equal(rows.map((r) => [r.userAgent, r.clientAddress]), [['browser B', null]]);
  });

  test('what is stored is the cookie\'s hash, never the cookie', async (ctx) => {
    const s = await processOf(ctx);
    const value = await s.start({});
    const { rows } = await s.list();
    assert.is(rows.length, 1);
    assert.is(rows[0].key, sessionKey(value));
    assert.not.ok(JSON.stringify(rows).includes(value.slice(3)));
    assert.equal(await s.check(rows[0].key), { state: 'unknown' }, 'the stored key works as a cookie');
    assert.equal(await s.check(rows[0].handle), { state: 'unknown' }, 'the handle works as a cookie');
  });

  test('an end by another process holds here within the recheck bound; an end made here holds here at once', async (ctx) => {
    const here = await processOf(ctx);
    const there = await processOf(ctx);
    const cookie = await here.start({});
    assert.is((await here.check(cookie)).state, 'open');
    assert.is((await there.check(cookie)).state, 'open');
    const handle = (await there.list()).rows[0].handle;
    assert.is(await there.endByHandle(handle), 1);
    assert.equal(await there.check(cookie), { state: 'ended' }, 'the process that ended it');
    ctx.clock.now += POLICY.recheckMs;
    assert.equal(await here.check(cookie), { state: 'ended' }, 'the other process, once the bound has passed');
  });

  test('a held connection is closed when its session ends: here at once, by another process at the next sweep', async (ctx) => {
    const policy = { ...POLICY, recheckMs: 50 };
    const here = await processOf(ctx, HASH, policy);
    const there = await processOf(ctx, HASH, policy);
    const a = await here.start({});
    const b = await here.start({});
    const handleOf = async (cookie: string) => (await here.list()).rows.find((r) => r.key === sessionKey(cookie))!.handle;
    const closed: string[] = [];
    here.hold(await handleOf(a), () => closed.push('a'));
    const releaseB = here.hold(await handleOf(b), () => closed.push('b'));
    await here.endByCookie([a]);
    assert.equal(closed, ['a'], 'the logout here closed at once');
    await there.endByHandle(await handleOf(b));
    await new Promise<void>((resolve) => {
      const poll = setInterval(() => { if (closed.length === 2) { clearInterval(poll); resolve(); } }, 10);
    });
    assert.equal(closed, ['a', 'b']);
    releaseB();
    here.close();
    there.close();
  });

  test('a read under way while the session ends is not cached: the next check sees the end', async (ctx) => {
    const inner = await ctx.open();
    let release!: () => void;
    let gate: Promise<void> | undefined;
    let readUnderGate = false;
    const slow: SessionBackend = Object.assign(Object.create(inner) as SessionBackend, {
      find: async (key: string) => {
        const row = await inner.find(key);
        if (gate) readUnderGate = true;
        await gate;
        return row;
      },
    });
    const s = new DashboardSessions(slow, HASH, POLICY, { now: () => ctx.clock.now });
    await s.prepare();
    const cookie = await s.start({});
    gate = new Promise((r) => { release = r; });
    const inFlight = s.check(cookie);
    // The check's read is a query of its own (a database on some backends): wait until it has read the row, not a
    // fixed 20 ms, so the session surely ends after the read and before its answer.
    await waitFor(() => readUnderGate, { timeoutMs: 5_000, intervalMs: 5, what: 'the check to read the session' }).catch(() => undefined);
    await s.endByCookie([cookie]);
    release();
    assert.is((await inFlight).state, 'open', 'read before the end');
    gate = undefined;
    assert.equal(await s.check(cookie), { state: 'ended' });
  });

  test('a token change ends every session of the old token, for good', async (ctx) => {
    const old = await processOf(ctx);
    const cookie = await old.start({});
    assert.is((await old.check(cookie)).state, 'open');
    const changed = await processOf(ctx, OTHER);
    assert.equal(await changed.check(cookie), { state: 'ended' });
    assert.equal((await changed.list()).total, 0);
    ctx.clock.now += POLICY.recheckMs;
    assert.equal(await old.check(cookie), { state: 'ended' }, 'a process still on the old token');
    const back = new DashboardSessions(await ctx.open(), HASH, POLICY, { now: () => ctx.clock.now });
    assert.is(await back.prepare(), 0);
    assert.equal(await back.check(cookie), { state: 'ended' }, 'the old token came back and revived its session');
  });

  test('the absolute lifetime ends a session however much it is used', async (ctx) => {
    const s = await processOf(ctx);
    const cookie = await s.start({});
    const end = ctx.clock.now + POLICY.lifetimeMs;
    while (ctx.clock.now + 12 * 60 * MINUTE < end) {
      ctx.clock.now += 12 * 60 * MINUTE;
      assert.is((await s.check(cookie)).state, 'open');
    }
    ctx.clock.now = end;
    assert.equal(await s.check(cookie), { state: 'expired' });
    assert.is((await s.list()).total, 0);
  });

  test('the idle timeout ends a session nobody used; use keeps it open, also as seen by another process', async (ctx) => {
    const s = await processOf(ctx);
    const other = await processOf(ctx);
    const used = await s.start({});
    const idle = await s.start({});
    for (let i = 0; i < 4; i++) {
      ctx.clock.now += POLICY.idleMs / 2;
      assert.is((await s.check(used)).state, 'open', `use ${i}`);
    }
    // Open only if the last use was recorded: the one before it is more than idleMs ago by then.
    ctx.clock.now += POLICY.idleMs - MINUTE;
    assert.is((await other.check(used)).state, 'open', 'the other process reads the recorded activity');
    assert.equal(await s.check(idle), { state: 'expired' });
    assert.equal((await s.list()).rows.length, 1);
  });

  test('DELETE all but one: endAll keeps the named session; null ends every one', async (ctx) => {
    const s = await processOf(ctx);
    const cookies = [await s.start({}), await s.start({}), await s.start({})];
    const keep = (await s.list()).rows.find((r) => r.key === sessionKey(cookies[0]))!.handle;
    assert.is(await s.endAll(keep), 2);
    assert.equal(await Promise.all(cookies.map(async (c) => (await s.check(c)).state)), ['open', 'ended', 'ended']);
    assert.is(await s.endAll(null), 1);
    assert.is((await s.check(cookies[0])).state, 'ended');
    assert.is(await s.endByHandle(keep), 0, 'an ended session is not ended again');
  });

  test('rows that ended, expired or went idle are deleted a day later, at a login', async (ctx) => {
    const s = await processOf(ctx, HASH, { ...POLICY, lifetimeMs: 2 * DAY });
    const ended = await s.start({});
    const expired = await s.start({});
    await s.endByCookie([ended]);
    ctx.clock.now += 2 * DAY;
    assert.equal(await s.check(ended), { state: 'ended' }, 'kept a day: an old cookie is known as ended');
    ctx.clock.now += DAY + MINUTE;
    await s.start({});
    ctx.clock.now += POLICY.recheckMs;
    assert.equal(await s.check(ended), { state: 'unknown' });
    assert.equal(await s.check(expired), { state: 'unknown' });
    assert.is((await s.list()).total, 1);
  });

  return test;
}

for (const kind of [memoryKind, ...storeKinds]) define(kind).run();
