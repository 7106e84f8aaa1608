// Number formats of the dashboard. Fixed English separators (1,234.5): figures line up the same for every reader,
// and screenshots read the same everywhere. A unit is joined to its number by a no-break space (NBSP), so that a
// narrow cell never leaves `ms` alone on a line of its own.

/** The space between a number and its unit. */
export const NBSP = '\u00a0';

const grouped = new Intl.NumberFormat('en-US', { maximumFractionDigits: 0 });

/** A count with thousands separators: 12345 → `12,345`. */
export function formatInteger(n: number): string {
  return grouped.format(Math.round(n));
}

/** A count in at most four characters of digits: 950 → `950`, 12_345 → `12.3k`, 1_234_567 → `1.23M`. */
export function formatCompact(n: number): string {
  const abs = Math.abs(n);
  if (abs < 1000) return formatInteger(n);
  for (const [unit, size] of [['T', 1e12], ['B', 1e9], ['M', 1e6], ['k', 1e3]] as const) {
    if (abs >= size * 0.9995) {
      const v = n / size;
      const digits = Math.abs(v) >= 100 ? 0 : Math.abs(v) >= 10 ? 1 : 2;
      // 999.95k rounds to 1000.0k: say 1.00M instead.
      const text = v.toFixed(digits);
      if (Number(text) >= 1000 && unit !== 'T') continue;
      return `${trimZeros(text)}${unit}`;
    }
  }
  return formatInteger(n);
}

/**
 * A rate given per minute, in the unit that keeps a digit: `14 a minute`, and below one a minute per hour
 * (`13 an hour`), so a quiet day does not read as `0 a minute`.
 */
export function formatRate(perMinute: number): string {
  if (perMinute === 0 || Math.abs(perMinute) >= 1) return `${formatCount(perMinute)}${NBSP}a minute`;
  const perHour = perMinute * 60;
  return Math.round(perHour) >= 1 ? `${formatCount(perHour)}${NBSP}an hour` : `under 1${NBSP}an hour`;
}

const trimZeros = (text: string): string => (text.includes('.') ? text.replace(/\.?0+$/, '') : text);

/**
 * A ratio as a percentage with the precision it needs: 0.04 → `4%`, 0.0412 → `4.12%`, 0.0004 → `0.04%`; a
 * non-zero ratio below 0.01 % reads `<0.01%`, so a rare error never shows as none.
 */
export function formatPercent(ratio: number): string {
  if (!Number.isFinite(ratio)) return '—';
  if (ratio === 0) return '0%';
  const pct = ratio * 100;
  if (Math.abs(pct) < 0.01) return pct > 0 ? '<0.01%' : '>-0.01%';
  const digits = Math.abs(pct) >= 100 ? 0 : Math.abs(pct) >= 10 ? 1 : 2;
  return `${trimZeros(pct.toFixed(digits))}%`;
}

/** Milliseconds as a latency: `0.4 ms`, `12 ms`, `1.5 s`, `2 min 5 s`; null (no data) as `—`. */
export function formatLatency(ms: number | null | undefined): string {
  if (ms === null || ms === undefined || !Number.isFinite(ms)) return '—';
  if (ms < 1) return `${trimZeros(ms.toFixed(2))}${NBSP}ms`;
  if (ms < 10) return `${trimZeros(ms.toFixed(1))}${NBSP}ms`;
  if (ms < 1000) return `${Math.round(ms)}${NBSP}ms`;
  if (ms < 60_000) return `${trimZeros((ms / 1000).toFixed(ms < 10_000 ? 2 : 1))}${NBSP}s`;
  const minutes = Math.floor(ms / 60_000);
  const seconds = Math.round((ms % 60_000) / 1000);
  return seconds ? `${minutes}${NBSP}min ${seconds}${NBSP}s` : `${minutes}${NBSP}min`;
}

/** Seconds of uptime in its two largest units: `45 s`, `12 min 5 s`, `3 h 4 min`, `2 d 5 h`. */
export function formatUptime(seconds: number): string {
  const s = Math.max(0, Math.floor(seconds));
  const d = Math.floor(s / 86_400);
  const h = Math.floor((s % 86_400) / 3600);
  const m = Math.floor((s % 3600) / 60);
  const u = (n: number, unit: string) => `${n}${NBSP}${unit}`;
  if (d) return h ? `${u(d, 'd')} ${u(h, 'h')}` : u(d, 'd');
  if (h) return m ? `${u(h, 'h')} ${u(m, 'min')}` : u(h, 'h');
  if (m) return s % 60 ? `${u(m, 'min')} ${u(s % 60, 's')}` : u(m, 'min');
  return u(s, 's');
}

/** An amount of money in `currency` (ISO 4217), with the cents a bill needs and more below one unit. */
export function formatMoney(amount: number, currency: string): string {
  const digits = amount !== 0 && Math.abs(amount) < 1 ? 4 : 2;
  try {
    return new Intl.NumberFormat('en-US', { style: 'currency', currency, minimumFractionDigits: 2, maximumFractionDigits: digits }).format(amount);
  } catch {
    return `${amount.toFixed(digits)}${NBSP}${currency}`;
  }
}

/**
 * The decimals a column of amounts in `currency` shows, the same for every row so the column reads and lines up as
 * one: the currency's own minor unit (2 for USD, 0 for JPY), more when an amount needs them to show two significant
 * digits (an LLM call costs $0.00042), fewer than that when it is exact sooner ($0.02 stays `$0.02`); at most 6.
 */
export function moneyDigits(amounts: readonly number[], currency: string): number {
  let minor = 2;
  try {
    minor = new Intl.NumberFormat('en-US', { style: 'currency', currency }).resolvedOptions().maximumFractionDigits ?? 2;
  } catch { /* an unknown code: cents */ }
  let digits = minor;
  for (const a of amounts) {
    const abs = Math.abs(a);
    if (abs === 0 || abs >= 1 || !Number.isFinite(abs)) continue;
    let d = minor;
    const twoSignificant = 1 - Math.floor(Math.log10(abs));
    while (d < Math.min(6, twoSignificant) && Math.abs(Number(abs.toFixed(d)) - abs) > abs * 1e-9) d++;
    digits = Math.max(digits, d);
  }
  return Math.min(6, digits);
}

/** One column's formatter for amounts of money: fixed decimals chosen from the whole column (moneyDigits). */
export function moneyFormat(amounts: readonly number[], currency: string): (amount: number) => string {
  const digits = moneyDigits(amounts, currency);
  let f: Intl.NumberFormat | null = null;
  try {
    f = new Intl.NumberFormat('en-US', { style: 'currency', currency, minimumFractionDigits: digits, maximumFractionDigits: digits });
  } catch { /* an unknown code */ }
  return (amount) => (f ? f.format(amount) : `${amount.toFixed(digits)}${NBSP}${currency}`);
}

/** Counts at or above this read compact (`12.3k`); below it in full (`1,079`). */
export const COMPACT_FROM = 10_000;

/** A count by the dashboard's one rule: in full below 10,000 (`1,079`), compact from there (`12.3k`). */
export const formatCount = (n: number): string => (Math.abs(n) >= COMPACT_FROM ? formatCompact(n) : formatInteger(n));

/**
 * One column's formatter for counts: the rule of formatCount decided once for the whole column by its largest value,
 * so that a column never mixes `1,079` and `12.3k`.
 */
export function countFormat(counts: readonly number[]): (n: number) => string {
  return counts.some((n) => Math.abs(n) >= COMPACT_FROM) ? formatCompact : formatInteger;
}

/**
 * A histogram's axis tick at a bin edge, with the decimals the bin width needs and no more: edges 0.1 apart read
 * `0`, `0.1` … `1`; 0.25 apart `0`, `0.25` … `1`; 5 apart `0`, `5`, `10`. Fixed decimals of the wrong size write every
 * edge the same (`0`) or clutter them (`0.100`).
 */
export function formatBinEdge(edge: number, binWidth: number): string {
  let digits = 0;
  // The fewest decimals at which the width itself is exact (0.25 → 2), at most 6.
  while (digits < 6 && Math.abs(Number(binWidth.toFixed(digits)) - binWidth) > binWidth * 1e-9) digits++;
  return trimZeros(edge.toFixed(digits));
}
