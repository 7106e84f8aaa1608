// Users, project grants and the audit log in the core store (runtime/auth/user-table.ts, audit-log.ts), on SQLite and
// PostgreSQL: emails are one person whatever their case, grants replace each other, the audit log pages newest first.
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { AuditLog, AUDIT_PAGE_LIMIT } from '../../../../runtime/auth/audit-log.js';
import { UserDirectory } from '../../../../runtime/auth/user-directory.js';
import { UserTable } from '../../../../runtime/auth/user-table.js';
import type { StoreBackend } from '../../../../runtime/store/index.js';
import { backendKinds } from '../store/backend-kinds.js';

for (const kind of await backendKinds('user_table')) {
  const s = suite<{ store: StoreBackend; users: UserTable; clock: { now: number } }>(`users and the audit log (${kind.name})`);
  s.before.each(async (ctx) => {
    ctx.store = await kind.open(await kind.fresh());
    ctx.clock = { now: Date.UTC(2030, 0, 1) };
    ctx.users = new UserTable(ctx.store, () => ctx.clock.now);
    await ctx.users.prepare();
  });
  s.after(() => kind.cleanup());

  s('an email is one user whatever its case; grants are set, replaced and removed', async ({ users }) => {
    const ada = (await users.create({ email: ' Ada@Example.com', source: 'local', instanceRole: 'viewer', passwordHash: 'scrypt$x' }))!;
    assert.is(ada.email, 'ada@example.com');
    assert.is(await users.create({ email: 'ADA@example.com', source: 'oidc', instanceRole: null }), undefined, 'taken');
    await users.setProjectRole(ada.id, 'checkout', 'member');
    await users.setProjectRole(ada.id, 'search', 'admin');
    await users.setProjectRole(ada.id, 'checkout', 'admin');
    await users.setProjectRole(ada.id, 'search', null);
    const again = (await users.byEmail('ada@EXAMPLE.com'))!;
    assert.equal(again.grants, { instance: 'viewer', projects: { checkout: 'admin' } });
    assert.ok(await users.setDisabled(ada.id, true));
    assert.is((await users.byId(ada.id))!.disabled, true);
    assert.not.ok(await users.setDisabled('no-such-id', true));
    const { users: listed, total } = await users.list();
    assert.is(total, 1);
    assert.is(listed[0].id, ada.id);
  });

  s('an OIDC sign-in binds the subject; a local user has a password, an OIDC user cannot get one', async ({ users }) => {
    const bob = (await users.create({ email: 'bob@example.com', source: 'oidc', instanceRole: 'member' }))!;
    await users.recordSignIn(bob.id, { oidcSubject: 'https://idp bob-sub', name: 'Bob' });
    const found = (await users.bySubject('https://idp bob-sub'))!;
    assert.is(found.id, bob.id);
    assert.is(found.name, 'Bob');
    assert.type(found.lastLoginAt, 'number');
    assert.not.ok(await users.setPasswordHash(bob.id, 'scrypt$y'), 'only local users have passwords');
  });

  s('the directory trusts what it read for the recheck bound, and forgets a change made here at once', async ({ users, clock }) => {
    const u = (await users.create({ email: 'c@example.com', source: 'local', instanceRole: 'viewer' }))!;
    const directory = new UserDirectory(users, 2000, () => clock.now);
    assert.is((await directory.get(u.id))!.instanceRole, 'viewer');
    await users.setInstanceRole(u.id, 'admin');
    assert.is((await directory.get(u.id))!.instanceRole, 'viewer', 'cached: another process made the change');
    clock.now += 2000;
    assert.is((await directory.get(u.id))!.instanceRole, 'admin');
    await users.setDisabled(u.id, true);
    directory.forget(u.id);
    assert.is(await directory.get(u.id), null, 'a disabled user has no sessions that work');
  });

  s('the audit log pages newest first and filters by actor; old entries are pruned', async ({ store, clock }) => {
    const audit = new AuditLog(store, { now: () => clock.now });
    for (let i = 0; i < 7; i++) {
      clock.now += 1000;
      await audit.write({ actorId: null, actor: i % 2 ? 'ada@example.com' : 'dashboard token', action: `POST /api/x/${i}`, target: `/api/x/${i}`, project: null, status: 200, address: '127.0.0.1', detail: null });
    }
    const first = await audit.page({ limit: 3 });
    assert.equal(first.entries.map((e) => e.action), ['POST /api/x/6', 'POST /api/x/5', 'POST /api/x/4']);
    const second = await audit.page({ limit: 3, before: first.next! });
    assert.equal(second.entries.map((e) => e.action), ['POST /api/x/3', 'POST /api/x/2', 'POST /api/x/1']);
    const last = await audit.page({ limit: 3, before: second.next! });
    assert.is(last.next, null);
    assert.is((await audit.page({ limit: 50, actor: 'ada@example.com' })).entries.length, 3);
    await audit.write({ actorId: null, actor: 'dashboard token', action: 'host kill', target: '77 TERM', project: null, status: 200, address: null, detail: 'exit 0 via root, 0.1 s' });
    assert.equal((await audit.page({ limit: 50, action: 'host ' })).entries.map((e) => e.action), ['host kill'], 'an action prefix, compared as text');
    assert.is((await audit.page({ limit: 50, action: 'POST /api/x/%' })).entries.length, 0, 'no LIKE wildcard');
    assert.is((await audit.page({ limit: 10_000 })).entries.length, 8, `capped at ${AUDIT_PAGE_LIMIT}, and there are 8`);
    clock.now += 181 * 24 * 3600 * 1000;
    await audit.write({ actorId: null, actor: 'dashboard token', action: 'sign-in', target: 'token', project: null, status: 302, address: null, detail: 'x'.repeat(2000) });
    const kept = await audit.page({ limit: 50 });
    assert.is(kept.entries.length, 1, 'entries older than 180 days are deleted');
    assert.is(kept.entries[0].detail!.length, 512, 'long text is clipped');
  });

  s.run();
}
