import { EmptyState } from '../components/empty-state.js';
import { openPalette } from './overlays.js';
import { here, Link } from './router.js';

export function NotFoundPage() {
  return (
    <div class="page-center">
      <h1 class="sr-only" tabIndex={-1} data-page-title>Page not found</h1>
      <EmptyState icon="search" title="There is no page here"
        actions={<>
          <Link href="/" class="button button-primary">Go to the start</Link>
          <button type="button" class="button button-secondary" onClick={openPalette}>Search pages</button>
        </>}>
        <p><code class="inline-code">{here.value.path}</code> is not a page of this dashboard. The address may be mistyped, or the page may belong to an area that this version does not have.</p>
      </EmptyState>
    </div>
  );
}
