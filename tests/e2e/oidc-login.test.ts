// Issue 35 §1: single sign-on end to end. A real OpenID Connect provider (oidc-provider 8, in this process, on
// loopback), a real `vigil run`, and headless Chromium clicking through the provider's own login and consent pages:
// sign-in, group-to-role mapping, a user outside the allowed domain, a replayed answer, an ID token for another
// audience and an expired one, and logout at both ends. Every outcome is in the audit log.
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import type { Browser, Page } from 'playwright-core';
import { chromiumAvailable, launchChromium, watchedPage } from './browser.js';
import { startDashboard, type Dashboard } from '../support/dashboard.js';
import { freePort } from '../support/net.js';
import { startTestIdp, type TestIdp } from '../support/oidc-idp.js';

const s = suite<{ d: Dashboard; idp: TestIdp; browser: Browser }>('e2e: single sign-on (OIDC)');
const SECRET_ENV = 'VIGIL_E2E_OIDC_SECRET';

const ACCOUNTS = {
  ada: { email: 'ada@example.com', groups: ['vigil-owners', 'staff'], name: 'Ada Lovelace' },
  bob: { email: 'bob@example.com', groups: ['checkout-devs', 'staff'] },
  eve: { email: 'eve@elsewhere.test', groups: ['vigil-owners'] },
};

interface Me { email: string | null; instance_role: string | null; projects: Record<string, string> }

/** From Vigil's login form through the provider's login (and consent, the first time) back to Vigil. */
async function signIn(page: Page, base: string, login: keyof typeof ACCOUNTS): Promise<void> {
  await page.goto(`${base}/login`);
  await page.click('a.login-sso');
  await page.fill('input[name="login"]', login);
  await page.fill('input[name="password"]', 'any password: the development form checks none');
  await page.click('button.login-submit');
  await page.waitForURL((u) => u.port === new URL(base).port || u.pathname.startsWith('/interaction/'));
  if (new URL(page.url()).pathname.startsWith('/interaction/')) await page.click('button.login-submit:has-text("Continue")');
  await page.waitForURL((u) => u.port === new URL(base).port && u.pathname !== '/auth/oidc/callback', { timeout: 15_000 }).catch(() => {});
}

const me = (page: Page): Promise<{ status: number; body: Me | null }> => page.evaluate(async () => {
  const res = await fetch('/api/me');
  return { status: res.status, body: res.ok ? await res.json() as Me : null };
});

const problemOf = async (page: Page): Promise<string> => (await page.locator('[role="alert"]').textContent()) ?? '';

if (chromiumAvailable('e2e oidc')) {
  s.before(async (ctx) => {
    const port = await freePort();
    const base = `http://127.0.0.1:${port}`;
    ctx.idp = await startTestIdp({ accounts: ACCOUNTS, redirectUri: `${base}/auth/oidc/callback`, postLogoutUri: `${base}/login` });
    ctx.d = await startDashboard({
      gateway: false, llm: true, port, env: { [SECRET_ENV]: ctx.idp.clientSecret },
      controlPlane: `  oidc:
    issuer: ${ctx.idp.issuer}
    client_id: ${ctx.idp.clientId}
    client_secret_env: ${SECRET_ENV}
    redirect_url: ${base}/auth/oidc/callback
    provider_name: Test IdP
    scopes: [openid, email, profile, groups]
    allowed_domains: [example.com]
    role_map: { vigil-owners: owner, checkout-devs: "walk:member" }
`,
    });
    await ctx.d.createProject('walk');
    ctx.browser = await launchChromium();
  });
  s.after(async ({ d, idp, browser }) => {
    await browser?.close();
    await d?.stop();
    await idp?.close();
  });
  s.after.each(({ idp }) => { idp.tamper = null; });

  s('the login form offers the provider beside the token; Ada signs in and is the owner her group maps to', async ({ d, browser }) => {
    const { page, context, problems } = await watchedPage(browser);
    await page.goto(`${d.url}/login`);
    assert.is(await page.locator('a.login-sso').textContent(), 'Sign in with Test IdP');
    assert.ok(await page.locator('#token').count(), 'the token form stays, the break-glass login');
    await signIn(page, d.url, 'ada');
    await page.waitForSelector('h1[data-page-title]');
    const session = (await context.cookies()).find((c) => c.name === 'vigil_session')!;
    assert.ok(session.httpOnly);
    assert.is(session.sameSite, 'Strict');
    const who = await me(page);
    assert.equal(who, { status: 200, body: { id: who.body && (who.body as { id?: string }).id, email: 'ada@example.com', instance_role: 'owner', projects: {} } as Me });
    // The provider's development pages load web fonts this sandbox cannot reach; Vigil's own pages must be clean.
    problems.length = 0;
    await page.goto(`${d.url}/settings`);
    await page.waitForSelector('h1[data-page-title]');
    assert.equal(problems, []);
    await context.close();
  });

  s('group to role: Bob (checkout-devs) is a viewer on the instance and a member of "walk"; a change above it is refused', async ({ d, browser }) => {
    const { page, context } = await watchedPage(browser);
    await signIn(page, d.url, 'bob');
    await page.waitForSelector('h1[data-page-title]');
    const who = await me(page);
    assert.is(who.body?.instance_role, 'viewer', 'the default role');
    assert.equal(who.body?.projects, { walk: 'member' });
    const refused = await page.evaluate(async () => {
      const res = await fetch('/api/llm/projects/walk/rotate-key', { method: 'POST' });
      return { status: res.status, body: await res.json() as { error: { code: string } } };
    });
    assert.is(refused.status, 403);
    assert.is(refused.body.error.code, 'VIGIL_ERR_HTTP_ROLE_REQUIRED');
    await context.close();
  });

  s('a user outside the allowed email domains is refused, told why, and gets no session', async ({ d, browser }) => {
    const { page, context } = await watchedPage(browser);
    await signIn(page, d.url, 'eve');
    assert.match(await problemOf(page), /eve@elsewhere\.test is not in an allowed email domain \(example\.com\)/);
    assert.is((await context.cookies()).find((c) => c.name === 'vigil_session'), undefined);
    assert.is((await me(page)).status, 401);
    await context.close();
  });

  s('a replayed answer (the same code and state) signs nobody in, in this browser or another', async ({ d, browser }) => {
    const { page, context } = await watchedPage(browser);
    let callback = '';
    page.on('request', (r) => { if (r.url().includes('/auth/oidc/callback')) callback ||= r.url(); });
    await signIn(page, d.url, 'ada');
    await page.waitForSelector('h1[data-page-title]');
    assert.match(callback, /code=.+&state=|state=.+&code=|[?&]code=/);
    await page.goto(callback);
    assert.match(await problemOf(page), /Single sign-on failed/);
    const other = await watchedPage(browser);
    await other.page.goto(callback);
    assert.match(await problemOf(other.page), /does not belong to a sign-in started in this browser/);
    assert.is((await other.context.cookies()).find((c) => c.name === 'vigil_session'), undefined);
    // The provider's state cookie kept from before the callback: the sign-in it names was used up.
    const { page: third, context: thirdContext } = await watchedPage(browser);
    await third.goto(`${d.url}/login`);
    await third.click('a.login-sso');
    const state = (await thirdContext.cookies()).find((c) => c.name === 'vigil_oidc')!;
    const replay = new URL(callback);
    replay.searchParams.set('state', state.value);
    await third.goto(replay.href);
    assert.match(await problemOf(third), /Single sign-on failed: the identity provider (refused: invalid_grant|'s answer failed a check)/);
    assert.is((await thirdContext.cookies()).find((c) => c.name === 'vigil_session'), undefined);
    await Promise.all([context.close(), other.context.close(), thirdContext.close()]);
  });

  s('an ID token for another audience is refused', async ({ d, idp, browser }) => {
    idp.tamper = 'audience';
    const { page, context } = await watchedPage(browser);
    await signIn(page, d.url, 'ada');
    assert.match(await problemOf(page), /failed a check: .*"aud"/);
    assert.is((await context.cookies()).find((c) => c.name === 'vigil_session'), undefined);
    await context.close();
  });

  s('an expired ID token is refused', async ({ d, idp, browser }) => {
    idp.tamper = 'expired';
    const { page, context } = await watchedPage(browser);
    await signIn(page, d.url, 'ada');
    assert.match(await problemOf(page), /failed a check: .*"exp"/);
    assert.is((await context.cookies()).find((c) => c.name === 'vigil_session'), undefined);
    await context.close();
  });

  s('logout ends the session here and at the provider: the next sign-in asks for the login again', async ({ d, browser }) => {
    const { page, context } = await watchedPage(browser);
    await signIn(page, d.url, 'ada');
    await page.goto(`${d.url}/settings`);
    await page.click('button:has-text("Log out")');
    await page.click('button[name="logout"][value="yes"]');
    await page.waitForURL((u) => u.port === new URL(d.url).port && u.pathname === '/login');
    assert.is((await me(page)).status, 401);
    await page.click('a.login-sso');
    await page.waitForSelector('input[name="login"]');
    await context.close();
  });

  s('the audit log holds every sign-in, refusal and sign-out, with who and why', async ({ d }) => {
    const res = await fetch(`${d.url}/api/audit?limit=200`, { headers: { authorization: `Bearer ${d.token}` } });
    const { entries } = await res.json() as { entries: { actor: string; action: string; target: string; detail: string | null }[] };
    const lines = entries.map((e) => `${e.actor} | ${e.action} | ${e.target} | ${e.detail ?? ''}`);
    const has = (re: RegExp): void => assert.ok(lines.some((l) => re.test(l)), `${re} in:\n${lines.join('\n')}`);
    has(/^ada@example\.com \| sign-in \| oidc/);
    has(/^bob@example\.com \| sign-in \| oidc/);
    has(/^eve@elsewhere\.test \| sign-in refused \| oidc \| .*allowed email domain/);
    has(/sign-in refused \| oidc \| .*"aud"/);
    has(/sign-in refused \| oidc \| .*"exp"/);
    has(/sign-in refused \| oidc \| the identity provider refused: invalid_grant/);
    has(/sign-in refused \| oidc \| the answer does not belong to a sign-in started in this browser/);
    has(/^ada@example\.com \| sign-out \| oidc/);
    has(/^bob@example\.com \| POST \/api\/llm\/projects\/:name\/rotate-key/);
  });

  s.run();
}
