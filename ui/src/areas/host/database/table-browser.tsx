// One table's rows, a page at a time: Next follows the server's cursor (keyset by primary key where there is one),
// Previous goes back through the cursors already seen.
import { useEffect, useState } from 'preact/hooks';
import { Card } from '../../../components/card.js';
import { EmptyState } from '../../../components/empty-state.js';
import { ErrorState } from '../../../components/error-state.js';
import { Loading } from '../../../components/skeleton.js';
import { useResource } from '../../../data/use-resource.js';
import { formatInteger } from '../../../format/numbers.js';
import { connectionPath, type DbRowsPage, type DbTable } from './db-api.js';
import { ResultGrid } from './result-grid.js';

const PAGE_ROWS = 100;

export function TableBrowser({ connectionId, table, onQuery }: { connectionId: string; table: DbTable; onQuery(sql: string): void }) {
  // The cursors of the pages before this one; the last is this page's ('' for the first).
  const [trail, setTrail] = useState<string[]>(['']);
  useEffect(() => setTrail(['']), [connectionId, table.schema, table.name]);
  const cursor = trail[trail.length - 1];
  const page = useResource<DbRowsPage>(
    `${connectionPath(connectionId)}/rows?schema=${encodeURIComponent(table.schema)}&table=${encodeURIComponent(table.name)}&limit=${PAGE_ROWS}${cursor ? `&cursor=${encodeURIComponent(cursor)}` : ''}`,
    `the rows of ${table.name}`,
  );
  const p = page.data;
  const first = (trail.length - 1) * PAGE_ROWS + 1;
  const count = table.row_count === null ? '' : ` of ${table.row_count_exact ? '' : 'about '}${formatInteger(table.row_count)}`;
  const quoted = `"${table.name.replace(/"/g, '""')}"`;
  return (
    <Card padded={false} title={`Rows of ${table.name}`}
      description={p ? (p.rows.length ? `Rows ${formatInteger(first)}–${formatInteger(first + p.rows.length - 1)}${count}, ${p.paging === 'keyset' ? 'in primary key order' : 'in storage order'}` : 'No rows') : 'Loading'}
      actions={
        <div class="db-pager">
          <button type="button" class="button button-ghost button-small" onClick={() => onQuery(`SELECT * FROM ${table.schema === 'main' ? '' : `"${table.schema.replace(/"/g, '""')}".`}${quoted} LIMIT 100`)}>Query</button>
          <button type="button" class="button button-small" disabled={trail.length < 2} onClick={() => setTrail(trail.slice(0, -1))}>Previous</button>
          <button type="button" class="button button-small" disabled={!p?.next} onClick={() => p?.next && setTrail([...trail, p.next])}>Next</button>
        </div>
      }>
      {page.error && <ErrorState error={page.error} onRetry={page.reload} />}
      {page.loading && !p && <Loading label="Reading rows" lines={6} />}
      {p && (
        <ResultGrid caption={`Rows of ${table.name}`} columns={p.columns} rows={p.rows}
          empty={<EmptyState compact icon="search" title="This table is empty"><p>Add rows with the query editor if writes are on for this connection.</p></EmptyState>} />
      )}
    </Card>
  );
}
