import { createHash } from 'node:crypto';

/**
 * A prompt template's text as versions compare it, exactly as README.md ("Per item") says: CRLF becomes LF,
 * trailing whitespace is trimmed from each line, and blank lines at the start and the end are removed. Indentation
 * and inner blank lines are kept: they reach the model, so they make a different version.
 */
export function normaliseTemplate(raw: string): string {
  const lines = raw.replace(/\r\n/g, '\n').split('\n').map((line) => line.trimEnd());
  let start = 0;
  let end = lines.length;
  while (start < end && lines[start] === '') start++;
  while (end > start && lines[end - 1] === '') end--;
  return lines.slice(start, end).join('\n');
}

/** Hex SHA-256 of the normalised text's UTF-8 bytes: a version's identity within its template. */
export function templateHash(normalised: string): string {
  return createHash('sha256').update(normalised, 'utf8').digest('hex');
}
