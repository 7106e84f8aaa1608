/**
 * What a key accepts, as `gsettings range` prints it: `type b`, `type s`, `enum` then one quoted choice a line,
 * `range d 0.5 3.0`. Only the GVariant types the offered keys use are understood; anything else is read-only here.
 */
export type GsettingsRange =
  | { kind: 'boolean' }
  | { kind: 'string' }
  | { kind: 'enum'; choices: string[] }
  | { kind: 'number'; integer: boolean; min: number | null; max: number | null }
  | { kind: 'other'; text: string };

const INTEGER_TYPES = new Set(['y', 'n', 'q', 'i', 'u', 'x', 't']);

/** A GVariant text string literal ('…' with \ and ' escaped), as gsettings prints and reads them. */
export function gvariantString(value: string): string {
  return `'${value.replace(/\\/g, '\\\\').replace(/'/g, "\\'")}'`;
}

/** Reads a GVariant string literal back; null when `text` is not one. */
export function readGvariantString(text: string): string | null {
  const m = /^'((?:[^'\\]|\\.)*)'$|^"((?:[^"\\]|\\.)*)"$/.exec(text.trim());
  if (!m) return null;
  return (m[1] ?? m[2]).replace(/\\(.)/g, '$1');
}

export function parseRange(output: string): GsettingsRange {
  const lines = output.trim().split('\n');
  const [head] = lines;
  if (head === 'type b') return { kind: 'boolean' };
  if (head === 'type s') return { kind: 'string' };
  if (head === 'enum') return { kind: 'enum', choices: lines.slice(1).map((l) => readGvariantString(l) ?? l.trim()) };
  const type = /^type ([a-z])$/.exec(head);
  if (type && (type[1] === 'd' || INTEGER_TYPES.has(type[1]))) return { kind: 'number', integer: type[1] !== 'd', min: null, max: null };
  const range = /^range ([a-z]) (\S+) (\S+)$/.exec(head);
  if (range) return { kind: 'number', integer: range[1] !== 'd', min: Number(range[2]), max: Number(range[3]) };
  return { kind: 'other', text: output.trim().slice(0, 200) };
}

/** A value as the page shows it, from `gsettings get`'s GVariant text. */
export function readValue(range: GsettingsRange, text: string): boolean | number | string {
  const t = text.trim();
  if (range.kind === 'boolean') return t === 'true';
  if (range.kind === 'number') return Number(t.replace(/^[a-z]+\d* /, ''));
  if (range.kind === 'string' || range.kind === 'enum') return readGvariantString(t) ?? t;
  return t;
}

/** The GVariant text for `gsettings set`, or the reason `value` is outside the range. */
export function encodeValue(range: GsettingsRange, value: unknown): { text: string } | { problem: string } {
  switch (range.kind) {
    case 'boolean':
      return typeof value === 'boolean' ? { text: String(value) } : { problem: 'needs true or false' };
    case 'enum':
      return typeof value === 'string' && range.choices.includes(value) ? { text: gvariantString(value) } : { problem: `needs one of ${range.choices.join(', ')}` };
    case 'string':
      if (typeof value !== 'string' || value.length > 256 || /\p{Cc}/u.test(value)) return { problem: 'needs text of at most 256 characters, on one line' };
      return { text: gvariantString(value) };
    case 'number': {
      if (typeof value !== 'number' || !Number.isFinite(value)) return { problem: 'needs a number' };
      if (range.integer && !Number.isInteger(value)) return { problem: 'needs a whole number' };
      if ((range.min !== null && value < range.min) || (range.max !== null && value > range.max)) return { problem: `needs a number from ${range.min} to ${range.max}` };
      // A double must read as one (`2.0`, not `2`): gsettings would take `2` for an int32 and refuse it.
      return { text: range.integer || !Number.isInteger(value) ? String(value) : `${value}.0` };
    }
    default:
      return { problem: 'is not changed from this page' };
  }
}
