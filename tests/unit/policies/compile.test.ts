import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { compilePolicy } from '../../../policies/compile.js';
import { PolicyError } from '../../../policies/errors.js';
import type { PolicyConfig } from '../../../policies/schema.js';
import { adminUsers, authorityTricks, eachSpelling, paymentsCharge, terminatorTricks } from '../../support/path-spellings.js';

const restricted: PolicyConfig = {
  rules: [
    { name: 'all', match: { path: '/**' } },
    { name: 'admin', match: { path: '/admin/**' }, restrict: ['request_body', 'response_body', 'headers'] },
  ],
};

test('decide matches on the folded path: no spelling escapes a rule', () => {
  const p = compilePolicy(restricted);
  for (const target of ['/admin/x', '//admin//x', '/%61dmin/x', '/public/../admin/x', '/admin%2Fx', '/admin/x/?q=1', 'http://h/admin/x']) {
    assert.equal(p.decide('GET', target).matchedRules, ['all', 'admin'], target);
    assert.is(p.decide('GET', target).captureRequestBody, false, target);
  }
  assert.equal(p.decide('GET', '/administrator').matchedRules, ['all']);
});

test('decisions are cached per method and path, not per query string', () => {
  const p = compilePolicy(restricted);
  const a = p.decide('GET', '/admin/1?x=1');
  const b = p.decide('GET', '/admin/1?x=2');
  const c = p.decide('GET', '/admin/1');
  assert.is(a, b);
  assert.is(a, c);
  assert.is(p.cachedRoutes, 1);
  p.decide('POST', '/admin/1');
  assert.is(p.cachedRoutes, 2);
});

test('the decision cache is bounded and stays correct after eviction', () => {
  const p = compilePolicy(restricted, { cacheSize: 8 });
  for (let i = 0; i < 1000; i++) {
    p.decide('GET', `/admin/users/${i}`);
    p.decide('GET', `/public/${i}`);
    assert.ok(p.cachedRoutes <= 8, `cache grew to ${p.cachedRoutes}`);
  }
  assert.is(p.cachedRoutes, 8);
  assert.is(p.decide('GET', '/admin/users/0').captureHeaders, false);
  assert.is(p.decide('GET', '/public/0').captureHeaders, true);
});

test('rule names must be unique; the error names both positions', () => {
  try {
    compilePolicy({ rules: [
      { name: 'a', match: { path: '/a' } },
      { name: 'b', match: { path: '/b' } },
      { name: 'a', match: { path: '/c' } },
    ] });
    assert.unreachable('duplicate names accepted');
  } catch (err) {
    assert.instance(err, PolicyError);
    assert.is((err as PolicyError).code, 'VIGIL_ERR_POLICY_DUPLICATE_RULE');
    assert.match((err as Error).message, /rules\[2\]/);
    assert.match((err as Error).message, /rules\[0\]/);
  }
});

test('schema problems are reported with their key path', () => {
  const bad = (config: unknown, code: string, where: RegExp) => {
    try {
      compilePolicy(config as PolicyConfig);
      assert.unreachable(`accepted ${JSON.stringify(config)}`);
    } catch (err) {
      assert.instance(err, PolicyError);
      assert.is((err as PolicyError).code, code);
      assert.match((err as Error).message, where);
    }
  };
  bad({ rules: [{ name: 'a', match: { path: '/a' }, redact: { json_field: ['$.a'] } }] }, 'VIGIL_ERR_POLICY_INVALID', /rules\[0\]\.redact\.json_field: unknown key/);
  bad({ rules: [{ name: 'a', match: { path: '/a' }, sample: 1.5 }] }, 'VIGIL_ERR_POLICY_INVALID', /rules\[0\]\.sample/);
  bad({ rules: [{ match: { path: '/a' } }] }, 'VIGIL_ERR_POLICY_INVALID', /rules\[0\]: missing required key "name"/);
  bad({ rules: [{ name: 'a', match: { path: '/a/**x' } }] }, 'VIGIL_ERR_POLICY_GLOB', /rules\[0\]\.match\.path/);
  bad({ rules: [{ name: 'a', match: { path: '/a' }, redact: { json_fields: ['$.ok', '$..bad'] } }] }, 'VIGIL_ERR_POLICY_JSON_PATH', /rules\[0\]\.redact\.json_fields\[1\]/);
  bad({ rules: [{ name: 'a', match: { path: '/a' }, meter: { tokens: '$.**' } }] }, 'VIGIL_ERR_POLICY_JSON_PATH', /rules\[0\]\.meter\.tokens/);
});

test('service is not governance: compilePolicy ignores it, whatever keys it holds', () => {
  const p = compilePolicy({ service: { upstream: 'http://x', timeout: '5s' } as never, rules: [{ name: 'a', match: { path: '/a' } }] });
  assert.equal(p.decide('GET', '/a').matchedRules, ['a']);
});

test('an empty policy compiles and captures everything', () => {
  const p = compilePolicy({});
  const d = p.decide('GET', '/x');
  assert.is(d.captureRequestBody, true);
  assert.equal(p.rules, []);
});

test('a label named like a built-in dimension of the traffic metrics is refused, naming the rule and the label', () => {
  for (const name of ['route', 'method', 'status_class']) {
    try {
      compilePolicy({ rules: [{ name: 'ok', match: { path: '/**' } }, { name: 'bad', match: { path: '/**' }, labels: { [name]: 'header:X' } }] });
      assert.unreachable(`${name} accepted`);
    } catch (err) {
      assert.instance(err, PolicyError);
      assert.is((err as PolicyError).code, 'VIGIL_ERR_POLICY_LABEL');
      assert.is((err as PolicyError).where, `rules[1].labels.${name}`);
    }
  }
});

// Issue 21 (1): the rules of the policy, and every spelling family of the two paths it names.
const governed: PolicyConfig = {
  rules: [
    { name: 'all', match: { path: '/**' } },
    { name: 'admin', match: { path: '/admin/**' }, restrict: ['request_body', 'response_body'] },
    { name: 'payments', match: { path: '/api/payments/**' }, redact: { json_fields: ['$.card.number'] } },
  ],
};

test('every spelling of /admin/users meets the restricting rule, with the very decision of /admin/users', () => {
  const p = compilePolicy(governed);
  const canonical = p.decide('POST', '/admin/users');
  assert.equal(canonical.matchedRules, ['all', 'admin']);
  for (const [family, target] of [...eachSpelling(adminUsers), ...eachSpelling(authorityTricks)]) {
    const d = p.decide('POST', target);
    assert.ok(d.matchedRules.includes('admin'), `${family}: ${target} matched ${d.matchedRules.join(', ')}`);
    assert.is(d.captureRequestBody, false, `${family}: ${target}`);
    assert.is(d.captureResponseBody, false, `${family}: ${target}`);
  }
});

test('every spelling of /api/payments/charge meets the redacting rule', () => {
  const p = compilePolicy(governed);
  for (const [family, target] of eachSpelling(paymentsCharge)) {
    const d = p.decide('POST', target);
    assert.equal(d.matchedRules, ['all', 'payments'], `${family}: ${target}`);
    assert.is(d, p.decide('POST', '/api/payments/charge'), `${family}: ${target} has the same decision object`);
  }
});

test('a decoded character that ends the path for a downstream (?, #, NUL, a line break) cannot hide an exact rule', () => {
  const p = compilePolicy({ rules: [
    { name: 'all', match: { path: '/**' } },
    { name: 'charge', match: { path: '/api/payments/charge' }, restrict: ['request_body'] },
  ] });
  for (const [family, target] of eachSpelling(terminatorTricks)) {
    const d = p.decide('POST', target);
    assert.equal(d.matchedRules, ['all', 'charge'], `${family}: ${target}`);
    assert.is(d.captureRequestBody, false, `${family}: ${target}`);
  }
});

test('globs are folded like paths: a rule written in capitals or with escapes meets every spelling', () => {
  const p = compilePolicy({ rules: [
    { name: 'users', match: { path: '/API/Users/**' }, restrict: ['request_body'] },
    { name: 'files', match: { path: '/Files;v=1/*.BIN' }, restrict: ['headers'] },
    { name: 'cafe', match: { path: '/café/**' }, restrict: ['response_body'] },
  ] });
  for (const t of ['/api/users/1', '/API/USERS', '/Api\\Users/x', '/api;x/users;y/1']) assert.equal(p.decide('GET', t).matchedRules, ['users'], t);
  for (const t of ['/files/a.bin', '/FILES/A.Bin', '/files;v=2/a.bin;x', '/files/a.bin%00.txt']) assert.equal(p.decide('GET', t).matchedRules, ['files'], t);
  for (const t of ['/caf%C3%A9/x', '/CAF%C3%89/x', '/cafe%CC%81/x', '/café/x']) assert.equal(p.decide('GET', t).matchedRules, ['cafe'], t);
  assert.equal(p.decide('GET', '/api/usersx').matchedRules, []);
  assert.equal(p.decide('GET', '/files/a.json').matchedRules, []);
});

test('a literal router reading applies too: encoded separators inside a * segment, unresolved dot segments', () => {
  const p = compilePolicy({ rules: [
    { name: 'profile', match: { path: '/api/*/profile' }, redact: { json_fields: ['$.email'] } },
    { name: 'admin', match: { path: '/admin/**' }, restrict: ['request_body'] },
  ] });
  // Express routes these to /api/:id/profile (id "a/b") and to /admin/:id (id ".."), without resolving anything.
  for (const t of ['/api/a%2Fb/profile', '/api/a%5Cb/profile', '/API/a%252Fb/Profile']) assert.equal(p.decide('GET', t).matchedRules, ['profile'], t);
  for (const t of ['/admin/..', '/admin/%2e%2e', '/ADMIN/..%2F..%2Fpublic']) assert.equal(p.decide('GET', t).matchedRules, ['admin'], t);
  assert.equal(p.decide('GET', '/public').matchedRules, []);
});

test('a path whose escapes do not settle within the bound meets every rule of its method', () => {
  const p = compilePolicy({ rules: [
    { name: 'admin', match: { path: '/admin/**' }, restrict: ['request_body'] },
    { name: 'posts', match: { path: '/other', methods: ['POST'] } },
  ] });
  // `a` percent-encoded thirteen times over: each round of decoding peels one level.
  const target = `/x/%${'25'.repeat(12)}61dmin`;
  assert.equal(p.decide('GET', target).matchedRules, ['admin']);
  assert.equal(p.decide('POST', target).matchedRules, ['admin', 'posts']);
  assert.is(p.decide('GET', target).captureRequestBody, false);
});

test('the cache is keyed on the raw path for hits and stays bounded whatever the spellings', () => {
  const p = compilePolicy(governed, { cacheSize: 16 });
  const first = p.decide('GET', '/ADMIN/users');
  for (let i = 0; i < 500; i++) {
    const d = p.decide('GET', `/ADMIN/users;v=${i}`);
    assert.is(d, first);
    assert.ok(p.cachedRoutes <= 16);
  }
  assert.is(p.decide('GET', '/admin/users'), first);
});

test('a rule on an exact path meets it with a format extension too, as suffix-matching routers read it', () => {
  const p = compilePolicy({ rules: [{ name: 'charge', match: { path: '/api/payments/charge' }, redact: { json_fields: ['$.card'] } }] });
  for (const t of ['/api/payments/charge.json', '/api/payments/charge.xml', '/API/payments/Charge.JSON', '/api/payments/charge.json;x=1']) {
    assert.equal(p.decide('POST', t).matchedRules, ['charge'], t);
  }
  assert.equal(p.decide('POST', '/api/payments/charges').matchedRules, []);
});

test.run();
