/**
 * Nesting depth of JSON text, read without parsing it. The child checks each result with it: a value nested
 * thousands deep is valid JSON, but the host's JSON.stringify and every recursive consumer overflow their stack on it.
 */

const QUOTE = 0x22;
const BACKSLASH = 0x5c;
const OPEN_BRACKET = 0x5b;
const CLOSE_BRACKET = 0x5d;
const OPEN_BRACE = 0x7b;
const CLOSE_BRACE = 0x7d;

/** Whether valid JSON text nests arrays and objects more than `max` levels deep; brackets inside strings do not count. */
export function jsonDeeperThan(json: string, max: number): boolean {
  // Each level takes an opening and a closing bracket, so text this short cannot go deeper.
  if (json.length <= 2 * max) return false;
  let depth = 0;
  for (let i = 0; i < json.length; i++) {
    const c = json.charCodeAt(i);
    if (c === QUOTE) {
      for (i++; i < json.length; i++) {
        const s = json.charCodeAt(i);
        if (s === BACKSLASH) i++;
        else if (s === QUOTE) break;
      }
    } else if (c === OPEN_BRACKET || c === OPEN_BRACE) {
      if (++depth > max) return true;
    } else if (c === CLOSE_BRACKET || c === CLOSE_BRACE) {
      depth--;
    }
  }
  return false;
}
