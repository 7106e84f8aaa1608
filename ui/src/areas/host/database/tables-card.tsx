// The schema tree of a connection: its schemas, each with its tables and views and their row counts (exact, or
// the server's estimate for a big table, marked "about").
import { Card } from '../../../components/card.js';
import { EmptyState } from '../../../components/empty-state.js';
import { ErrorState } from '../../../components/error-state.js';
import { Loading } from '../../../components/skeleton.js';
import type { Resource } from '../../../data/use-resource.js';
import { formatInteger } from '../../../format/numbers.js';
import type { DbTable, DbTableList } from './db-api.js';

const countText = (t: DbTable): string =>
  t.kind === 'view' ? 'view' : t.row_count === null ? 'not counted' : `${t.row_count_exact ? '' : 'about '}${formatInteger(t.row_count)} rows`;

export function TablesCard({ tables, selected, onSelect }: { tables: Resource<DbTableList>; selected: DbTable | undefined; onSelect(t: DbTable): void }) {
  const list = tables.data;
  const bySchema = new Map<string, DbTable[]>();
  for (const t of list?.tables ?? []) bySchema.set(t.schema, [...(bySchema.get(t.schema) ?? []), t]);
  return (
    <Card title="Tables" description={list ? `${formatInteger(list.tables.length)}${list.truncated ? '+' : ''} tables and views${list.truncated ? ' (the first 2,000)' : ''}` : undefined} class="db-tables">
      {tables.error && <ErrorState error={tables.error} onRetry={tables.reload} compact />}
      {tables.loading && !list && <Loading label="Reading the schema" lines={4} />}
      {list && list.tables.length === 0 && (
        <EmptyState compact icon="search" title="No tables here">
          <p>This database has no tables or views this login may read. Create one with the query editor (writes must be on), or check the user's privileges.</p>
        </EmptyState>
      )}
      {[...bySchema].map(([schema, items]) => (
        <section key={schema} class="db-schema" aria-label={`Schema ${schema}`}>
          <h3 class="db-schema-name">{schema}</h3>
          <ul class="db-table-list">
            {items.map((t) => (
              <li key={t.name}>
                <button type="button" class="db-table-button" aria-current={selected?.schema === t.schema && selected.name === t.name ? 'true' : undefined} onClick={() => onSelect(t)}>
                  <span class="db-table-name">{t.name}</span>
                  <span class="db-table-count">{countText(t)}</span>
                </button>
              </li>
            ))}
          </ul>
        </section>
      ))}
    </Card>
  );
}
