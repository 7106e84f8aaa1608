// Who may sign in with OIDC and with which roles (runtime/auth/oidc-sign-in.ts), from verified claims.
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { decideSignIn, parseMappedRole, type SignInPolicy } from '../../../../runtime/auth/oidc-sign-in.js';

const policy = (p: Partial<SignInPolicy> = {}): SignInPolicy => ({
  allowedDomains: [], allowedGroups: [], groupsClaim: 'groups', roleClaim: 'groups', roleMap: {}, defaultRole: 'viewer', ...p,
});

test('allowed domains and groups: both must pass; an unverified email is refused', () => {
  const p = policy({ allowedDomains: ['example.com'], allowedGroups: ['eng'] });
  assert.ok(decideSignIn({ email: 'Ada@Example.com', groups: ['eng'] }, p).ok);
  const outside = decideSignIn({ email: 'ada@evil.com', groups: ['eng'] }, p);
  assert.not.ok(outside.ok);
  assert.match((outside as { reason: string }).reason, /not in an allowed email domain/);
  assert.not.ok(decideSignIn({ email: 'ada@example.com', groups: ['sales'] }, p).ok);
  assert.not.ok(decideSignIn({ email: 'ada@example.com', groups: 'eng', email_verified: false }, p).ok);
  assert.not.ok(decideSignIn({ sub: 'x' }, policy()).ok, 'no email');
  assert.not.ok(decideSignIn({ email: 'ada@sub.example.com' }, policy({ allowedDomains: ['example.com'] })).ok, 'a subdomain is another domain');
});

test('role_map: the highest instance role, and project roles; unmapped values give nothing', () => {
  const p = policy({ roleMap: { 'vigil-admins': 'admin', 'vigil-owners': 'owner', checkout: 'checkout:member', 'checkout-leads': 'checkout:admin' } });
  const d = decideSignIn({ email: 'a@x.io', groups: ['vigil-admins', 'checkout', 'checkout-leads', 'other'] }, p);
  assert.equal(d, { ok: true, email: 'a@x.io', name: null, instanceRole: 'admin', projectRoles: { checkout: 'admin' } });
  assert.is((decideSignIn({ email: 'a@x.io', groups: ['vigil-owners', 'vigil-admins'] }, p) as { instanceRole: string }).instanceRole, 'owner');
  assert.is((decideSignIn({ email: 'a@x.io', groups: ['other'] }, p) as { instanceRole: unknown }).instanceRole, null);
  // Without a map, values that are role names count as themselves (a claim such as vigil_role: admin).
  const direct = decideSignIn({ email: 'a@x.io', vigil_role: 'member' }, policy({ roleClaim: 'vigil_role' }));
  assert.is((direct as { instanceRole: string }).instanceRole, 'member');
});

test('parseMappedRole', () => {
  assert.equal(parseMappedRole('owner'), { project: null, role: 'owner' });
  assert.equal(parseMappedRole('a:b:viewer'), { project: 'a:b', role: 'viewer' });
  assert.is(parseMappedRole('checkout:owner'), null, 'owner is an instance role');
  assert.is(parseMappedRole(':admin'), null);
  assert.is(parseMappedRole('root'), null);
});

test.run();
