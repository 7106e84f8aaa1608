import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { areas, systemPages } from '../../../../ui/src/areas/index.js';
import type { Area } from '../../../../ui/src/areas/types.js';
import { documentTitle, homePath, isListed, resolveRoute } from '../../../../ui/src/shell/routes.js';

const only = (...ids: string[]) => (a: Area) => ids.includes(a.id);

test('paths resolve to pages of configured areas, with parameters', () => {
  const r = resolveRoute('/gateway/requests/0190abc', areas, systemPages, only('gateway'));
  assert.is(r.kind, 'page');
  if (r.kind !== 'page') return;
  assert.is(r.page.path, '/gateway/requests/:id');
  assert.equal(r.params, { id: '0190abc' });
  assert.is(r.area?.id, 'gateway');
  const overview = resolveRoute('/gateway/', areas, systemPages, only('gateway'));
  assert.is(overview.kind === 'page' && overview.page.title, 'Overview');
});

test('an area that is off answers every path under it with its setup page, not "not found"', () => {
  for (const path of ['/llm', '/llm/traces/42', '/gateway/requests']) {
    const r = resolveRoute(path, areas, systemPages, only());
    assert.is(r.kind, 'unconfigured', path);
  }
});

test('system pages, home and unknown paths', () => {
  assert.is(resolveRoute('/', areas, systemPages, only()).kind, 'home');
  const settings = resolveRoute('/settings', areas, systemPages, only());
  assert.is(settings.kind === 'page' && settings.page.title, 'Settings');
  assert.is(resolveRoute('/nowhere', areas, systemPages, only('gateway')).kind, 'not-found');
  assert.is(resolveRoute('/gateway/nowhere', areas, systemPages, only('gateway')).kind, 'not-found');
  assert.is(resolveRoute('/gatewayx', areas, systemPages, only('gateway')).kind, 'not-found');
});

test('home leads to the first configured area with pages, or nowhere (the welcome page)', () => {
  assert.is(homePath(areas, only('gateway')), '/gateway');
  assert.is(homePath(areas, only()), undefined);
  assert.is(homePath(areas, only('llm')), '/llm');
  assert.is(homePath(areas, only('host')), '/host', 'the host area leads to this machine\'s overview');
});

test('Simple mode hides developer pages; detail pages are never listed', () => {
  const gateway = areas.find((a) => a.id === 'gateway')!;
  const listed = (simple: boolean) => gateway.pages.filter((p) => isListed(p, simple)).map((p) => p.title);
  assert.equal(listed(false), ['Overview', 'Requests', 'Usage and cost', 'Policy', 'API']);
  assert.equal(listed(true), ['Overview', 'Requests', 'Usage and cost']);
});

test('document titles name the page and its area', () => {
  assert.is(documentTitle(resolveRoute('/gateway', areas, systemPages, only('gateway'))), 'Overview · Gateway · Vigil');
  assert.is(documentTitle(resolveRoute('/about', areas, systemPages, only())), 'About · Vigil');
  assert.is(documentTitle(resolveRoute('/llm', areas, systemPages, only())), 'LLM · Vigil');
  assert.is(documentTitle(resolveRoute('/x', areas, systemPages, only())), 'Page not found · Vigil');
});

test('a page that needs a capability is listed until /api/caps answers, then only where the machine has it', () => {
  const containers = areas.find((a) => a.id === 'host')!.pages.find((p) => p.path === '/host/containers')!;
  assert.is(containers.cap, 'containers');
  assert.is(isListed(containers, false, undefined), true, 'caps not known yet');
  assert.is(isListed(containers, false, { containers: [] }), false, 'no engine found');
  assert.is(isListed(containers, false, { containers: ['podman'] }), true);
  assert.is(isListed(containers, true, { containers: ['docker'] }), false, 'a developer page in Simple mode');
  const overview = areas.find((a) => a.id === 'host')!.pages[0];
  assert.is(isListed(overview, false, { containers: [] }), true, 'pages without a cap are unaffected');
});

test.run();
