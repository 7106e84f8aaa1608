// JSON text to an escaped string literal and back, for pasting a document into a JSON field (an env var, a request
// body) or reading one out of a log. Runs in the browser only: nothing is sent to the server.

/** Characters the tool takes at most: a pasted document, not a dump (JSON.parse of this size stays under a frame or two). */
export const MAX_INPUT_CHARS = 1_000_000;

export type Converted = { ok: true; text: string } | { ok: false; problem: string };

/** `text` as a JSON string literal (`"{\"a\":1}"`); `quotes: false` leaves the outer quotes off. */
export function escapeText(text: string, quotes = true): Converted {
  if (text.length > MAX_INPUT_CHARS) return { ok: false, problem: `The text is longer than ${MAX_INPUT_CHARS.toLocaleString('en')} characters.` };
  const literal = JSON.stringify(text);
  return { ok: true, text: quotes ? literal : literal.slice(1, -1) };
}

/**
 * The text a JSON string literal holds. The outer quotes may be left off; a literal that holds JSON comes back
 * formatted (`pretty`) when asked. Says where a literal is broken, and what JSON that is not a string is.
 */
export function unescapeText(input: string, pretty = false): Converted {
  if (input.length > MAX_INPUT_CHARS) return { ok: false, problem: `The text is longer than ${MAX_INPUT_CHARS.toLocaleString('en')} characters.` };
  const trimmed = input.trim();
  if (!trimmed) return { ok: false, problem: 'Paste an escaped string, e.g. "{\\"a\\": 1}".' };
  const literal = trimmed.startsWith('"') ? trimmed : `"${trimmed}"`;
  let value: unknown;
  try {
    value = JSON.parse(literal);
  } catch (err) {
    try {
      const other = JSON.parse(trimmed);
      return { ok: false, problem: `That is JSON ${Array.isArray(other) ? 'array' : typeof other === 'object' ? 'object' : typeof other} text, not an escaped string: use Escape to turn it into one.` };
    } catch {
      return { ok: false, problem: `Not a valid escaped string: ${(err as Error).message}. Inside, quotes are \\" and backslashes \\\\.` };
    }
  }
  if (typeof value !== 'string') return { ok: false, problem: 'Not an escaped string.' };
  if (pretty) {
    try {
      return { ok: true, text: JSON.stringify(JSON.parse(value), null, 2) };
    } catch {
      // Not JSON inside: the text as it is.
    }
  }
  return { ok: true, text: value };
}
