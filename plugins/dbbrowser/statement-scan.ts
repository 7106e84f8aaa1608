// What the editor needs to know of a statement before it runs, without parsing SQL: its first keyword and whether a
// second statement follows. Only quotes, comments and PostgreSQL's dollar quoting are recognised, and only so that a
// semicolon inside them is not taken for the end. The databases stay the judges of what a statement does.

export interface ScannedStatement {
  /** The statement without the comments before it and the semicolons and blanks after it. */
  text: string;
  /** Its first word in capitals (`SELECT`, `WITH`, `INSERT`), or '' when it starts with none. */
  keyword: string;
  /** True when something other than blanks, comments and semicolons follows the first statement's semicolon. */
  multiple: boolean;
}

/** Statements that return rows without changing anything when the database agrees: what is run through a cursor. */
export const QUERY_KEYWORDS = new Set(['SELECT', 'WITH', 'VALUES', 'TABLE']);

/** Index just past the quoted run that starts at `i` (`quote` is its opening character), or the end of the text. */
function skipQuoted(sql: string, i: number, close: string, backslashes: boolean): number {
  let j = i + 1;
  while (j < sql.length) {
    const c = sql[j];
    if (backslashes && c === '\\') { j += 2; continue; }
    if (c === close) {
      if (sql[j + 1] === close && close !== ']') { j += 2; continue; }
      return j + 1;
    }
    j++;
  }
  return j;
}

/** Index just past the comment at `i`, or `i` when none starts there. */
function skipComment(sql: string, i: number): number {
  if (sql.startsWith('--', i)) {
    const end = sql.indexOf('\n', i);
    return end < 0 ? sql.length : end + 1;
  }
  if (sql.startsWith('/*', i)) {
    const end = sql.indexOf('*/', i + 2);
    return end < 0 ? sql.length : end + 2;
  }
  return i;
}

function skipBlanksAndComments(sql: string, i: number): number {
  for (;;) {
    while (i < sql.length && /\s/.test(sql[i])) i++;
    const next = skipComment(sql, i);
    if (next === i) return i;
    i = next;
  }
}

export function scanStatement(sql: string): ScannedStatement {
  const start = skipBlanksAndComments(sql, 0);
  const keyword = /^[A-Za-z]+/.exec(sql.slice(start, start + 32))?.[0].toUpperCase() ?? '';
  let i = start;
  let end = sql.length;
  while (i < sql.length) {
    const c = sql[i];
    const comment = skipComment(sql, i);
    if (comment !== i) { i = comment; continue; }
    if (c === "'") {
      const escaped = i > 0 && /[eE]/.test(sql[i - 1]) && (i < 2 || !/\w/.test(sql[i - 2]));
      i = skipQuoted(sql, i, "'", escaped);
    } else if (c === '"' || c === '`') {
      i = skipQuoted(sql, i, c, false);
    } else if (c === '[') {
      i = skipQuoted(sql, i, ']', false);
    } else if (c === '$') {
      const tag = /^\$[A-Za-z_]?\w*\$/.exec(sql.slice(i, i + 64))?.[0];
      if (tag && !(i > 0 && /\w/.test(sql[i - 1]))) {
        const close = sql.indexOf(tag, i + tag.length);
        i = close < 0 ? sql.length : close + tag.length;
      } else {
        i++;
      }
    } else if (c === ';') {
      end = i;
      break;
    } else {
      i++;
    }
  }
  let rest = end;
  while (rest < sql.length) {
    rest = skipBlanksAndComments(sql, rest);
    if (sql[rest] === ';') rest++;
    else break;
  }
  return { text: sql.slice(start, end).trimEnd(), keyword, multiple: rest < sql.length };
}
