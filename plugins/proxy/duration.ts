const units: Record<string, number> = { ms: 1, s: 1000, m: 60_000, h: 3_600_000, d: 86_400_000 };

/**
 * Milliseconds in a duration the config validator accepted (`format: 'duration'`): a number of ms, or parts like
 * `500ms`, `30s`, `1m30s`. The validator has already rejected anything else; this only converts.
 */
export function durationMs(value: string | number): number {
  if (typeof value === 'number') return value;
  const text = value.trim();
  if (/^(\d+(?:\.\d+)?|\.\d+)$/.test(text)) return Number(text);
  let total = 0;
  for (const [, amount, unit] of text.matchAll(/(\d+(?:\.\d+)?|\.\d+)(ms|s|m|h|d)/g)) total += Number(amount) * units[unit];
  return total;
}
