// Shows the page the address names: it loads the page's module the first time (its own chunk), titles the
// document, and after a navigation moves focus to the new page's heading so screen readers announce it.
import type { ComponentType } from 'preact';
import { useEffect, useState } from 'preact/hooks';
import { areas, systemPages } from '../areas/index.js';
import type { AreaPage, PageProps } from '../areas/types.js';
import { ErrorState } from '../components/error-state.js';
import { Loading } from '../components/skeleton.js';
import { HomePage } from './home-page.js';
import { NotFoundPage } from './not-found-page.js';
import { here, navigations } from './router.js';
import { documentTitle, resolveRoute } from './routes.js';
import { isConfigured } from './shell-info.js';
import { UnconfiguredAreaPage } from './unconfigured-area-page.js';

const loaded = new Map<AreaPage, ComponentType<PageProps>>();

function focusPageTitle(): void {
  // A dialog opened meanwhile (the palette) keeps the focus.
  if (document.querySelector('dialog[open]')) return;
  const title = document.querySelector<HTMLElement>('[data-page-title]');
  title?.focus({ preventScroll: true });
}

function LazyPage({ page, params }: { page: AreaPage; params: Record<string, string> }) {
  const [Page, setPage] = useState<ComponentType<PageProps> | undefined>(() => loaded.get(page));
  const [failed, setFailed] = useState(false);
  useEffect(() => {
    if (loaded.has(page)) return setPage(() => loaded.get(page));
    let live = true;
    setPage(undefined);
    setFailed(false);
    page.load().then(
      (m) => {
        loaded.set(page, m.default);
        if (live) setPage(() => m.default);
      },
      () => { if (live) setFailed(true); },
    );
    return () => { live = false; };
  }, [page]);
  useEffect(() => {
    if (Page && navigations.peek() > 0) requestAnimationFrame(focusPageTitle);
  }, [Page, navigations.value]);
  if (failed) {
    const error = Object.assign(new Error(`The ${page.title} page could not load.`), { next: 'Reload the page: Vigil may have been updated since it opened.' });
    return <ErrorState error={error} onRetry={() => window.location.reload()} />;
  }
  if (!Page) return <Loading label={`Loading ${page.title}`} lines={4} />;
  return <Page params={params} />;
}

export function PageHost() {
  const resolved = resolveRoute(here.value.path, areas, systemPages, isConfigured);
  useEffect(() => {
    document.title = documentTitle(resolved);
  });
  useEffect(() => {
    window.scrollTo(0, 0);
    if (resolved.kind !== 'page' && navigations.peek() > 0) requestAnimationFrame(focusPageTitle);
  }, [here.value.path]);
  switch (resolved.kind) {
    case 'home': return <HomePage />;
    case 'unconfigured': return <UnconfiguredAreaPage area={resolved.area} />;
    case 'not-found': return <NotFoundPage />;
    default: return <LazyPage key={resolved.page.path} page={resolved.page} params={resolved.params} />;
  }
}
