// The lines the logs page holds: the server answers oldest first with a cursor that asks for the lines after them
// (journalctl --after-cursor); the page shows newest first and keeps a bounded number as newer lines arrive.

/** Lines kept on the page at most: older ones fall off the end as newer ones arrive. */
export const MAX_KEPT_LINES = 2000;

/**
 * The lines to show, newest first, after an answer whose `lines` are oldest first: `fresh` replaces them all (a new
 * filter or the first load), otherwise the answer's lines go on top of `shown`.
 */
export function mergeLines<T>(shown: readonly T[], answer: readonly T[], fresh: boolean, max = MAX_KEPT_LINES): T[] {
  const newestFirst = [...answer].reverse();
  const merged = fresh ? newestFirst : [...newestFirst, ...shown];
  return merged.length > max ? merged.slice(0, max) : merged;
}
