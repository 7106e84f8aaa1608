import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { compilePolicy } from '../../../policies/compile.js';
import { PolicyError } from '../../../policies/errors.js';
import type { PolicyConfig } from '../../../policies/schema.js';

const restricted: PolicyConfig = {
  rules: [
    { name: 'all', match: { path: '/**' } },
    { name: 'admin', match: { path: '/admin/**' }, restrict: ['request_body', 'response_body', 'headers'] },
  ],
};

test('decide matches on the normalised path: no spelling escapes a rule', () => {
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

test.run();
