// The control plane's API, read from its own OpenAPI 3.1 listing (GET /api): every endpoint that the runtime and the
// enabled plugins registered, grouped by owner, with a filter kept in the URL (?q=) and a curl command for each. The
// listing is product-wide, so the page lists every tag, not only the gateway's.
import { useMemo } from 'preact/hooks';
import { Card } from '../../components/card.js';
import { CodeBlock } from '../../components/code-block.js';
import { EmptyState } from '../../components/empty-state.js';
import { ErrorState } from '../../components/error-state.js';
import { Icon } from '../../components/icon.js';
import { PageHeader } from '../../components/page-header.js';
import { Loading } from '../../components/skeleton.js';
import { useResource } from '../../data/use-resource.js';
import { formatInteger } from '../../format/numbers.js';
import { here, navigate } from '../../shell/router.js';
import { readText, withParams } from '../../shell/url-state.js';
import { OperationItem } from './api-operation.js';
import { groupByTag, listOperations, matchesQuery, type OpenApiDocument } from './openapi-listing.js';

const count = (n: number, one: string, many: string) => `${formatInteger(n)} ${n === 1 ? one : many}`;

export default function ApiPage() {
  const listing = useResource<OpenApiDocument>('/api', 'the API listing');
  const { path, search } = here.value;
  const query = readText(search, 'q');
  // Each keystroke replaces the history entry: back leaves the page rather than undoing letters.
  const setQuery = (q: string) => navigate(path + withParams(search, { q }), { replace: true });
  const doc = listing.data;
  const operations = useMemo(() => (doc ? listOperations(doc) : []), [doc]);
  const groups = useMemo(
    () => groupByTag(operations.filter((op) => matchesQuery(op, query)), doc?.tags?.map((t) => t.name)),
    [operations, query, doc],
  );
  const shown = groups.reduce((n, g) => n + g.operations.length, 0);
  const schemes = doc?.components?.securitySchemes ?? {};
  const origin = window.location.origin;

  return (
    <>
      <PageHeader title="API" subtitle={<>Every endpoint of the control plane at <code class="inline-code">{origin}</code>, from its OpenAPI 3.1 listing.</>}
        actions={
          <a class="button button-secondary" href="/api" download="vigil-openapi.json">
            <Icon name="download" /> OpenAPI JSON
          </a>
        } />
      {listing.error && <ErrorState error={listing.error} onRetry={listing.reload} />}
      {listing.loading && <Loading label="Loading the API listing" lines={8} />}
      {doc && (
        <div class="stack">
          <div class="notice api-intro">
            <p>
              Scripts authenticate with the dashboard token as a bearer token: the one Vigil printed when it first started, or{' '}
              <code class="inline-code">control_plane.token</code> in the config. Keep it in an environment variable, as the examples do:
            </p>
            <CodeBlock label="Set the token for the examples" code={'export VIGIL_TOKEN=\'<your dashboard token>\''} />
          </div>
          <div class="toolbar api-toolbar">
            <label class="filter-field">
              <Icon name="search" />
              <span class="sr-only">Filter the endpoints</span>
              <input type="search" value={query} placeholder="Filter by path, method or word" autocomplete="off" spellcheck={false}
                onInput={(e) => setQuery((e.currentTarget as HTMLInputElement).value)} />
            </label>
            <span class="muted" role="status">
              {query ? `${count(shown, 'endpoint', 'endpoints')} of ${formatInteger(operations.length)} match` : count(operations.length, 'endpoint', 'endpoints')}
            </span>
            {groups.length > 1 && (
              <nav class="api-tags" aria-label="Groups">
                {groups.map((g) => <a key={g.tag} href={`#api-${g.tag}`} class="api-tag-link">{g.tag} <span class="muted">{g.operations.length}</span></a>)}
              </nav>
            )}
          </div>
          {groups.length === 0 && (
            <Card>
              <EmptyState icon="search" title="No endpoint matches" compact
                actions={<button type="button" class="button button-secondary" onClick={() => setQuery('')}>Clear the filter</button>}>
                <p>Nothing in the listing has every word of <code class="inline-code">{query}</code> in its method, path, summary or parameters.</p>
              </EmptyState>
            </Card>
          )}
          {groups.map((g) => (
            <section key={g.tag} class="card api-group" id={`api-${g.tag}`} aria-labelledby={`api-${g.tag}-title`}>
              <header class="card-header">
                <div class="card-heading">
                  <h2 class="card-title" id={`api-${g.tag}-title`}>{g.tag}</h2>
                  <p class="card-description">{count(g.operations.length, 'endpoint', 'endpoints')}</p>
                </div>
              </header>
              <div class="api-ops">
                {g.operations.map((op) => <OperationItem key={op.id} op={op} origin={origin} schemes={schemes} />)}
              </div>
            </section>
          ))}
        </div>
      )}
    </>
  );
}
