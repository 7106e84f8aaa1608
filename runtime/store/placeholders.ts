import type { Dialect } from '@vigil/plugin-sdk';

export interface ScannedSql {
  /** `?` placeholders outside quotes and comments. */
  count: number;
  /** The statement as the database takes it: `$1…$n` for PostgreSQL, unchanged for SQLite. */
  text: string;
}

/**
 * Finds the `?` placeholders of a statement, skipping string literals ('…', E'…' with backslash escapes,
 * $tag$…$tag$), quoted identifiers ("…", and `…` / […] on SQLite) and comments (-- to end of line, nested /* … *\/).
 * PostgreSQL's jsonb operators `?`, `?|` and `?&` cannot be written; use jsonb_exists / jsonb_exists_any instead.
 */
export function scanPlaceholders(sql: string, dialect: Dialect): ScannedSql {
  const pg = dialect === 'postgres';
  let out = '';
  let from = 0;
  let count = 0;
  let i = 0;
  const n = sql.length;
  while (i < n) {
    const c = sql[i];
    if (c === '?') {
      count++;
      if (pg) { out += sql.slice(from, i) + '$' + count; from = i + 1; }
      i++;
    } else if (c === "'") {
      const escapes = pg && i > 0 && (sql[i - 1] === 'E' || sql[i - 1] === 'e') && !isWordChar(sql[i - 2]);
      i = skipQuoted(sql, i + 1, "'", escapes);
    } else if (c === '"') {
      i = skipQuoted(sql, i + 1, '"', false);
    } else if (!pg && c === '`') {
      i = skipQuoted(sql, i + 1, '`', false);
    } else if (!pg && c === '[') {
      const end = sql.indexOf(']', i + 1);
      i = end < 0 ? n : end + 1;
    } else if (c === '-' && sql[i + 1] === '-') {
      const end = sql.indexOf('\n', i + 2);
      i = end < 0 ? n : end + 1;
    } else if (c === '/' && sql[i + 1] === '*') {
      i = skipBlockComment(sql, i + 2, pg);
    } else if (pg && c === '$' && !isWordChar(sql[i - 1])) {
      const tag = /^\$([A-Za-z_][A-Za-z0-9_]*)?\$/.exec(sql.slice(i, i + 64));
      if (tag) {
        const end = sql.indexOf(tag[0], i + tag[0].length);
        i = end < 0 ? n : end + tag[0].length;
      } else i++;
    } else i++;
  }
  return { count, text: pg ? out + sql.slice(from) : sql };
}

function isWordChar(c: string | undefined): boolean {
  return c !== undefined && /[A-Za-z0-9_$]/.test(c);
}

/** Index just past the closing quote; a doubled quote is an escaped quote. */
function skipQuoted(sql: string, i: number, quote: string, backslashEscapes: boolean): number {
  const n = sql.length;
  while (i < n) {
    const c = sql[i];
    if (backslashEscapes && c === '\\') { i += 2; continue; }
    if (c === quote) {
      if (sql[i + 1] === quote) { i += 2; continue; }
      return i + 1;
    }
    i++;
  }
  return n;
}

/** PostgreSQL nests block comments; SQLite does not. */
function skipBlockComment(sql: string, i: number, nested: boolean): number {
  let depth = 1;
  const n = sql.length;
  while (i < n) {
    if (sql[i] === '*' && sql[i + 1] === '/') {
      depth--;
      i += 2;
      if (depth === 0) return i;
    } else if (nested && sql[i] === '/' && sql[i + 1] === '*') {
      depth++;
      i += 2;
    } else i++;
  }
  return n;
}

/** Scans are cached per statement text: the same few hundred statements run over and over. */
export class PlaceholderCache {
  private readonly entries = new Map<string, ScannedSql>();
  constructor(private readonly dialect: Dialect, private readonly capacity = 1000) {}

  get(sql: string): ScannedSql {
    let hit = this.entries.get(sql);
    if (hit) return hit;
    hit = scanPlaceholders(sql, this.dialect);
    // Bulk inserts build long one-off statements; caching them would only evict the hot ones.
    if (sql.length <= 4096) {
      if (this.entries.size >= this.capacity) this.entries.delete(this.entries.keys().next().value as string);
      this.entries.set(sql, hit);
    }
    return hit;
  }
}
