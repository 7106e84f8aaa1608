import { httpError, parseSearchTerms, searchMatch, type Dialect, type SearchTerm, type SqlValue } from '@vigil/plugin-sdk';
import { LlmErrors } from '../errors.js';

/** Characters a search takes at most; the route's schema refuses longer (400). */
export const MAX_SEARCH_CHARS = 256;
/** Words and phrases a search takes at most: each is one more index lookup. */
export const MAX_SEARCH_TERMS = 12;

/** What the `q` parameter of a trace list means, for the API listing and the README. */
export const SEARCH_DESCRIPTION = `Full-text search over the stored (redacted) input and output: every word must match; "a phrase" in double quotes `
  + `matches its words in order; a word ending in * matches as a prefix. Nothing else is an operator. At most ${MAX_SEARCH_CHARS} `
  + `characters and ${MAX_SEARCH_TERMS} words or phrases; a lone double quote is a 400.`;

/** The terms of a trace search (plugin-sdk's full-text search syntax); a text that cannot be searched is a 400. */
export function parseSearch(q: string): SearchTerm[] {
  const parsed = parseSearchTerms(q, { maxChars: MAX_SEARCH_CHARS, maxTerms: MAX_SEARCH_TERMS });
  if ('error' in parsed) throw httpError(LlmErrors.SEARCH_QUERY, parsed.error);
  return parsed.terms;
}

/**
 * The condition on `llm_traces` rows (written against the table's own columns, unaliased) for a search, with its
 * parameters: the FTS5 table's rowids on SQLite, the generated `search_vector` on PostgreSQL (trace-search-index.ts).
 */
export function searchCondition(dialect: Dialect, searchTable: string, terms: readonly SearchTerm[]): { sql: string; params: SqlValue[] } {
  const m = searchMatch(dialect, terms);
  if (m.kind === 'fts5') return { sql: `rowid IN (SELECT rowid FROM ${searchTable} WHERE ${searchTable} MATCH ?)`, params: [m.match] };
  return { sql: `search_vector @@ ${m.sql}`, params: m.params };
}
