// Rows of a table or of a statement, as a grid that scrolls sideways on a narrow screen (its columns only mean
// something side by side). Rows are shown in the database's order; nulls read NULL, so they differ from empty text.
import type { ComponentChildren } from 'preact';
import { Table, type Column } from '../../../components/table.js';
import type { Cell } from './db-api.js';

interface Row { i: number; cells: Cell[] }

export function ResultGrid({ caption, columns, rows, empty }: { caption: string; columns: { name: string; type: string | null }[]; rows: Cell[][]; empty: ComponentChildren }) {
  const cols: Column<Row>[] = columns.map((c, index) => ({
    key: `c${index}`,
    label: c.name,
    sortable: false,
    align: rows.length && typeof rows[0][index] === 'number' ? 'end' : 'start',
    value: (r) => r.cells[index],
    render: (r) => {
      const v = r.cells[index];
      return v === null ? <span class="db-null">NULL</span> : <span class="db-cell">{String(v)}</span>;
    },
  }));
  return (
    <Table caption={caption} columns={cols} rows={rows.map((cells, i) => ({ i, cells }))} rowKey={(r) => String(r.i)} layout="scroll" empty={empty} />
  );
}
