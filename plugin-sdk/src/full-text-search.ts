import type { Dialect, SqlValue } from './store.js';

/**
 * Full-text search text as plugins take it from users, and its match for SQLite FTS5 and PostgreSQL tsquery: words
 * (all must match), "a phrase" in double quotes (its words in order), and `word*` as a prefix. Every other character
 * is literal text, so neither engine ever sees user text as query syntax: FTS5 gets each term as a quoted string, and
 * PostgreSQL each term through phraseto_tsquery (a prefix word is letters and digits only, so `word:*` is valid).
 */

export interface SearchTerm {
  /** A word, or the words of a phrase, as written. */
  text: string;
  /** `word*`: the word is a prefix (single words only). */
  prefix: boolean;
}

export interface SearchLimits {
  /** Characters the text may have. */
  maxChars: number;
  /** Words and phrases: each is one more index lookup. */
  maxTerms: number;
}

/** Letters and digits: a term without any matches nothing in either index, so it is dropped. */
const WORDY = /[\p{L}\p{N}]/u;
const PREFIX_WORD = /^[\p{L}\p{N}]+$/u;

/** The terms of a search text, or why it cannot be searched (the plugin answers that as its own 400). */
export function parseSearchTerms(q: string, limits: SearchLimits): { terms: SearchTerm[] } | { error: string } {
  // Control characters (U+0000 among them, which PostgreSQL text cannot hold) separate words like spaces.
  const text = q.replace(/[\u0000-\u001f\u007f]/g, ' ');
  if (text.length > limits.maxChars) return { error: `a search is at most ${limits.maxChars} characters; this one has ${text.length}` };
  if ((text.match(/"/g)?.length ?? 0) % 2) return { error: 'a search has an unmatched double quote: close the phrase ("like this"), or leave the quote out' };
  const terms: SearchTerm[] = [];
  text.split('"').forEach((part, i) => {
    if (i % 2) {
      if (WORDY.test(part)) terms.push({ text: part.trim(), prefix: false });
      return;
    }
    for (const word of part.split(/\s+/)) {
      if (!WORDY.test(word)) continue;
      const prefix = word.endsWith('*') && PREFIX_WORD.test(word.slice(0, -1));
      terms.push({ text: prefix ? word.slice(0, -1) : word, prefix });
    }
  });
  if (!terms.length) return { error: `a search needs at least one word with a letter or a digit; got ${JSON.stringify(q.slice(0, 64))}` };
  if (terms.length > limits.maxTerms) return { error: `a search takes at most ${limits.maxTerms} words or phrases; this one has ${terms.length}` };
  return { terms };
}

/** The FTS5 MATCH text of the terms (SQLite): each a quoted string, all required. */
export const fts5Match = (terms: readonly SearchTerm[]): string =>
  terms.map((t) => `"${t.text.replace(/"/g, '""')}"${t.prefix ? '*' : ''}`).join(' AND ');

/** The tsquery of the terms (PostgreSQL, `simple` configuration) as SQL with its parameters. */
export function tsQuery(terms: readonly SearchTerm[]): { sql: string; params: SqlValue[] } {
  return {
    sql: `(${terms.map((t) => (t.prefix ? "to_tsquery('simple', ?)" : "phraseto_tsquery('simple', ?)")).join(' && ')})`,
    params: terms.map((t) => (t.prefix ? `${t.text.toLowerCase()}:*` : t.text)),
  };
}

/** Which of the two the dialect uses: a helper for plugins that keep one index per backend. */
export function searchMatch(dialect: Dialect, terms: readonly SearchTerm[]): { kind: 'fts5'; match: string } | { kind: 'tsquery'; sql: string; params: SqlValue[] } {
  return dialect === 'sqlite' ? { kind: 'fts5', match: fts5Match(terms) } : { kind: 'tsquery', ...tsQuery(terms) };
}
