import type { ComponentChildren } from 'preact';
import { useMemo, useState } from 'preact/hooks';

export interface Column<T> {
  key: string;
  label: string;
  /** Numbers align to the end, so their digits line up. */
  align?: 'start' | 'end';
  /** What the column sorts by. */
  value(row: T): string | number | null;
  /** What the cell shows (default: `value`). */
  render?(row: T): ComponentChildren;
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
 * assistive technology the order. The table scrolls sideways inside its own focusable region on narrow screens.
 */
export function Table<T>({ caption, showCaption, columns, rows, rowKey, initialSort, empty }: TableProps<T>) {
  const [sort, setSort] = useState(initialSort);
  const sorted = useMemo(() => {
    const column = sort && columns.find((c) => c.key === sort.key);
    return column ? sortRows(rows, column.value, sort.direction) : rows;
  }, [rows, sort, columns]);
  const toggle = (column: Column<T>) => {
    // Numbers start from the largest, text from A.
    const first: SortDirection = column.align === 'end' ? 'descending' : 'ascending';
    setSort((s) => (s?.key === column.key ? { key: column.key, direction: s.direction === 'ascending' ? 'descending' : 'ascending' } : { key: column.key, direction: first }));
  };
  return (
    <div class="table-wrap" role="region" aria-label={caption} tabIndex={0}>
      <table class="table">
        <caption class={showCaption ? 'table-caption' : 'sr-only'}>{caption}</caption>
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
                <td key={c.key} class={c.align === 'end' ? 'align-end numeric' : undefined}>{c.render ? c.render(row) : c.value(row)}</td>
              ))}
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}
