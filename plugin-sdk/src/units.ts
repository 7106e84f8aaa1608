/**
 * Durations and byte sizes as people write them in config files.
 *
 * Durations: a number of milliseconds (`500`, or the number 500), or one or more `<number><unit>` parts with units
 * ms, s, m, h, d: `500ms`, `30s`, `10m`, `2h`, `7d`, `1h30m`, `1.5s`. Units are lower case (`M` would be ambiguous).
 *
 * Byte sizes are binary: kb = kib = 1024 bytes, mb = mib = 1024², gb = gib = 1024³, tb = tib = 1024⁴, the way the
 * `bytes` package (used by koa's and express's body parsers) reads `1mb`. Units are case-insensitive; a bare number
 * is bytes: `512`, `64kb`, `1mb`, `1MiB`, `2gb`, `1.5mb`. Fractional results are rounded down to whole bytes.
 */

const durationUnits: Record<string, number> = { ms: 1, s: 1000, m: 60_000, h: 3_600_000, d: 86_400_000 };
const durationPart = /(\d+(?:\.\d+)?|\.\d+)(ms|s|m|h|d)/y;
const plainNumber = /^(\d+(?:\.\d+)?|\.\d+)$/;

const byteUnits: Record<string, number> = { '': 1, b: 1, k: 1024, m: 1024 ** 2, g: 1024 ** 3, t: 1024 ** 4 };
const byteSize = /^(\d+(?:\.\d+)?|\.\d+)\s*(?:([kmgt])(?:i?b)?|(b))?$/i;

/** Milliseconds in a duration, or undefined when `value` is not one. */
export function tryParseDuration(value: unknown): number | undefined {
  if (typeof value === 'number') return Number.isFinite(value) && value >= 0 ? value : undefined;
  if (typeof value !== 'string') return undefined;
  const text = value.trim();
  if (plainNumber.test(text)) return Number(text);
  if (text === '') return undefined;
  let total = 0;
  durationPart.lastIndex = 0;
  while (durationPart.lastIndex < text.length) {
    const at = durationPart.lastIndex;
    const match = durationPart.exec(text);
    if (!match || match.index !== at) return undefined;
    total += Number(match[1]) * durationUnits[match[2]];
  }
  return total;
}

/** Milliseconds in a duration such as `500ms`, `30s`, `10m`, `2h`, `7d`, `1h30m`, or a number of ms. Throws on bad input. */
export function parseDuration(value: unknown): number {
  const ms = tryParseDuration(value);
  if (ms === undefined) {
    throw new RangeError(`invalid duration ${JSON.stringify(value)}: expected a number of milliseconds or e.g. 500ms, 30s, 10m, 2h, 7d`);
  }
  return ms;
}

/** Bytes in a size, or undefined when `value` is not one. */
export function tryParseByteSize(value: unknown): number | undefined {
  if (typeof value === 'number') return Number.isFinite(value) && value >= 0 ? Math.floor(value) : undefined;
  if (typeof value !== 'string') return undefined;
  const match = byteSize.exec(value.trim());
  if (!match) return undefined;
  const unit = (match[2] ?? match[3] ?? '').toLowerCase();
  return Math.floor(Number(match[1]) * byteUnits[unit]);
}

/** Bytes in a size such as `512`, `64kb`, `1mb`, `1MiB`, `2gb` (binary units: 1kb = 1024). Throws on bad input. */
export function parseByteSize(value: unknown): number {
  const bytes = tryParseByteSize(value);
  if (bytes === undefined) {
    throw new RangeError(`invalid byte size ${JSON.stringify(value)}: expected a number of bytes or e.g. 512, 64kb, 1mb, 2gb`);
  }
  return bytes;
}
