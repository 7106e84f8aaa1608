// Role resolution (runtime/auth/roles.ts) and the role a route asks for (runtime/http/route-access.ts).
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import type { RouteDefinition } from '@vigil/plugin-sdk';
import { allows, higher, OWNER_GRANTS, roleIn, type Grants } from '../../../../runtime/auth/roles.js';
import { requestAccess, routeAccess } from '../../../../runtime/http/route-access.js';
import { pathParamNames } from '../../../../runtime/http/route-table.js';

const grants = (instance: Grants['instance'], projects: Grants['projects'] = {}): Grants => ({ instance, projects });

test('a project grant raises the instance role in that project only; it never lowers it', () => {
  const g = grants('viewer', { checkout: 'admin', search: 'viewer' });
  assert.is(roleIn(g, 'checkout'), 'admin');
  assert.is(roleIn(g, 'search'), 'viewer');
  assert.is(roleIn(g, 'billing'), 'viewer');
  assert.is(roleIn(g, null), 'viewer', 'the instance role is the instance-wide one');
  assert.is(roleIn(grants('admin', { checkout: 'viewer' }), 'checkout'), 'admin');
  assert.is(roleIn(grants(null, { checkout: 'member' }), 'checkout'), 'member');
  assert.is(roleIn(grants(null, { checkout: 'member' }), null), null);
  assert.is(roleIn(grants(null, { checkout: 'member' }), 'other'), null);
});

test('allows: ranks viewer < member < admin < owner, per project and on the instance', () => {
  const member = grants(null, { checkout: 'member' });
  assert.ok(allows(member, { role: 'viewer', project: 'checkout' }));
  assert.ok(allows(member, { role: 'member', project: 'checkout' }));
  assert.not.ok(allows(member, { role: 'admin', project: 'checkout' }));
  assert.not.ok(allows(member, { role: 'viewer', project: 'search' }));
  assert.not.ok(allows(member, { role: 'viewer', project: null }));
  assert.not.ok(allows(grants('admin'), { role: 'owner', project: null }));
  assert.ok(allows(grants('admin'), { role: 'admin', project: 'anything' }));
  assert.ok(allows(OWNER_GRANTS, { role: 'owner', project: null }));
  assert.ok(allows(OWNER_GRANTS, { role: 'admin', project: 'checkout' }));
  // A project named like an Object.prototype key is just a name.
  assert.not.ok(allows(grants(null), { role: 'viewer', project: 'constructor' }));
  assert.is(higher(null, 'viewer'), 'viewer');
  assert.is(higher('member', 'admin'), 'admin');
});

const def = (method: RouteDefinition['method'], path: string, extra: Partial<RouteDefinition> = {}): RouteDefinition =>
  ({ method, path, summary: 's', response: {}, handler: () => undefined, ...extra }) as RouteDefinition;
const accessOf = (d: RouteDefinition) => routeAccess(d, pathParamNames(d.path));

test('defaults: reads need viewer; changes need admin in a project and owner on the instance', () => {
  assert.equal(accessOf(def('GET', '/api/gateway/records')), { role: 'viewer', projectParam: null, declared: false });
  assert.equal(accessOf(def('POST', '/api/gateway/policy')), { role: 'owner', projectParam: null, declared: false });
  assert.equal(accessOf(def('DELETE', '/api/llm/projects/:project/evals/:id')), { role: 'admin', projectParam: 'project', declared: false });
  assert.equal(accessOf(def('PUT', '/api/llm/projects/:name/settings')), { role: 'admin', projectParam: 'name', declared: false },
    'a parameter after a projects segment names the project');
  assert.equal(accessOf(def('POST', '/api/x/:project/rerun', { role: 'member' })), { role: 'member', projectParam: 'project', declared: true });
  assert.equal(accessOf(def('POST', '/api/llm/projects/:name', { projectParam: null })), { role: 'owner', projectParam: null, declared: false });
  assert.type(accessOf(def('POST', '/api/x/:id', { projectParam: 'project' })), 'string', 'a projectParam that is no parameter is refused');
  assert.type(accessOf(def('POST', '/api/x', { role: 'root' as never })), 'string');
  const access = accessOf(def('POST', '/api/llm/projects/:project/evals')) as Exclude<ReturnType<typeof accessOf>, string>;
  assert.equal(requestAccess(access, { project: 'checkout' }), { role: 'admin', project: 'checkout' });
});
test.run();
