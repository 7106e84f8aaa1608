import type { ComponentChildren } from 'preact';
import { useMemo, useState } from 'preact/hooks';
import { TableFrame, type TableLayout } from './table-frame.js';

export interface Column<T> {
  key: string;
  label: string;
  /** Numbers align to the end, so their digits line up. */
  align?: 'start' | 'end';
  /** What the column sorts by. */
  value(row: T): string | number | null;
  /** What the cell shows (default: `text`, the value through `numbers` when given, `—` for null). */
  render?(row: T, text: string): ComponentChildren;
  /**
   * The column's number format, chosen once from all its values (countFormat, moneyFormat), so that every row of the
   * column reads alike. A null value shows `—` (no data).
   */
  numbers?(values: number[]): (value: number) => string;
  /**
   * Where the cell goes when the rows are cards (see TableFrame): `top`, the first line, says what the row is;
   * `lead` and `main` share the second; the rest go on the third, named by their column's label.
   */
  card?: 'top' | 'lead' | 'main';
  /** Default true. */
  sortable?: boolean;
  /** A CSS width for the column, e.g. `40%`. */
  width?: string;
}

export type SortDirection = 'ascending' | 'descending';

export interface TableProps<T> {
  /** Names the table (a caption, hidden unless `showCaption`). */
  caption: string;
  showCaption?: boolean;
  columns: readonly Column<T>[];
  rows: readonly T[];
  rowKey(row: T): string;
  initialSort?: { key: string; direction: SortDirection };
  /** Shown in place of the body when there are no rows. */
  empty?: ComponentChildren;
  /** On a narrow screen: rows as cards (the default), or the grid scrolling sideways (TableFrame). */
  layout?: TableLayout;
  /**
   * Sorting done by the server (a paged list): the headers show `sort` and ask `onSort` for another order; the rows
   * are shown in the order given.
   */
  sort?: { key: string; direction: SortDirection };
  onSort?(sort: { key: string; direction: SortDirection }): void;
}

/**
 * Sorts rows by a column's value: numbers numerically, text by locale; nulls last whichever the direction. Stable,
 * so equal values keep the order the server gave.
 */
export function sortRows<T>(rows: readonly T[], value: (row: T) => string | number | null, direction: SortDirection): T[] {
  const sign = direction === 'ascending' ? 1 : -1;
  return rows
    .map((row, index) => ({ row, index, v: value(row) }))
    .sort((a, b) => {
      if (a.v === null || b.v === null) return a.v === b.v ? a.index - b.index : a.v === null ? 1 : -1;
      const c = typeof a.v === 'number' && typeof b.v === 'number' ? a.v - b.v : String(a.v).localeCompare(String(b.v));
      return c === 0 ? a.index - b.index : c * sign;
    })
    .map((x) => x.row);
}

/**
 * A data table whose column headers are buttons: activating one sorts by it, again reverses. `aria-sort` tells
 * assistive technology the order. On narrow screens it is a TableFrame's cards, or scrolls sideways.
 */
export function Table<T>({ caption, showCaption, columns, rows, rowKey, initialSort, empty, layout = 'cards', sort: served, onSort }: TableProps<T>) {
  const [local, setSort] = useState(initialSort);
  const sort = onSort ? served : local;
  const sorted = useMemo(() => {
    const column = !onSort && sort && columns.find((c) => c.key === sort.key);
    return column ? sortRows(rows, column.value, sort.direction) : rows;
  }, [rows, sort, columns, onSort]);
  const formats = useMemo(() => new Map(columns.filter((c) => c.numbers).map((c) => {
    const values = rows.map(c.value).filter((v): v is number => typeof v === 'number');
    return [c.key, c.numbers!(values)] as const;
  })), [rows, columns]);
  const cell = (c: Column<T>, row: T): ComponentChildren => {
    const v = c.value(row);
    const format = formats.get(c.key);
    const text = v === null ? '—' : format && typeof v === 'number' ? format(v) : String(v);
    if (c.render) return c.render(row, text);
    return v === null ? <span class="muted">{text}</span> : text;
  };
  // A table that places no cell on its cards leads each card with its first column.
  const cardOf = (c: Column<T>): Column<T>['card'] => c.card ?? (columns.some((x) => x.card) || c !== columns[0] ? undefined : 'top');
  const toggle = (column: Column<T>) => {
    // Numbers start from the largest, text from A.
    const first: SortDirection = column.align === 'end' ? 'descending' : 'ascending';
    const next = (s: typeof sort) => (s?.key === column.key ? { key: column.key, direction: s.direction === 'ascending' ? 'descending' as const : 'ascending' as const } : { key: column.key, direction: first });
    if (onSort) onSort(next(sort)); else setSort(next);
  };
  return (
    <TableFrame caption={caption} showCaption={showCaption} layout={layout}>
      <colgroup>{columns.map((c) => <col key={c.key} style={c.width ? { width: c.width } : undefined} />)}</colgroup>
      <thead>
        <tr>
          {columns.map((c) => {
            const active = sort?.key === c.key;
            return (
              <th key={c.key} scope="col" class={c.align === 'end' ? 'align-end' : undefined} aria-sort={active ? sort!.direction : undefined}>
                {c.sortable === false ? c.label : (
                  <button type="button" class="th-button" onClick={() => toggle(c)}>
                    {c.label}
                    <span class={`sort-mark${active ? ' sort-active' : ''}`} aria-hidden="true">{active ? (sort!.direction === 'ascending' ? '↑' : '↓') : '↕'}</span>
                  </button>
                )}
              </th>
            );
          })}
        </tr>
      </thead>
      <tbody>
        {sorted.length === 0 && empty !== undefined ? (
          <tr><td colSpan={columns.length} class="table-empty">{empty}</td></tr>
        ) : sorted.map((row) => (
          <tr key={rowKey(row)}>
            {columns.map((c) => (
              <td key={c.key} class={cellClass(c.align, cardOf(c))} data-label={cardOf(c) === 'top' ? undefined : c.label}>{cell(c, row)}</td>
            ))}
          </tr>
        ))}
      </tbody>
    </TableFrame>
  );
}

const cellClass = (align: Column<never>['align'], card: Column<never>['card']): string | undefined =>
  [align === 'end' ? 'align-end numeric' : '', card ? `card-${card}` : ''].filter(Boolean).join(' ') || undefined;
