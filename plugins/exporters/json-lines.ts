import type { ExportRecord } from './exporter.js';

/**
 * A record's line: its JSON text and "\n", in UTF-8. Stored records are one line already; a raw CR or LF in other
 * JSON text can only be whitespace between tokens (inside a string it must be escaped), so it becomes a space and
 * a record never spans two lines of a file or of a pipe whose reader counts lines.
 */
export function jsonLine(record: ExportRecord): Buffer {
  const { json } = record;
  const text = json.includes('\n') || json.includes('\r') ? json.replace(/[\r\n]/g, ' ') : json;
  // Encoded straight into a buffer one byte longer: `text + '\n'` would copy the text into a new string first.
  const line = Buffer.allocUnsafe(Buffer.byteLength(text, 'utf8') + 1);
  const end = line.write(text, 0, 'utf8');
  line[end] = 0x0a;
  return line.subarray(0, end + 1);
}
