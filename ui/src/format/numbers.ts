// Number formats of the dashboard. Fixed English separators (1,234.5): figures line up the same for every reader,
// and screenshots in issues read the same everywhere.

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
  if (perMinute === 0 || Math.abs(perMinute) >= 1) return `${formatCompact(perMinute)} a minute`;
  const perHour = perMinute * 60;
  return Math.round(perHour) >= 1 ? `${formatCompact(perHour)} an hour` : 'under 1 an hour';
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
  if (ms < 1) return `${trimZeros(ms.toFixed(2))} ms`;
  if (ms < 10) return `${trimZeros(ms.toFixed(1))} ms`;
  if (ms < 1000) return `${Math.round(ms)} ms`;
  if (ms < 60_000) return `${trimZeros((ms / 1000).toFixed(ms < 10_000 ? 2 : 1))} s`;
  const minutes = Math.floor(ms / 60_000);
  const seconds = Math.round((ms % 60_000) / 1000);
  return seconds ? `${minutes} min ${seconds} s` : `${minutes} min`;
}

/** Seconds of uptime in its two largest units: `45 s`, `12 min 5 s`, `3 h 4 min`, `2 d 5 h`. */
export function formatUptime(seconds: number): string {
  const s = Math.max(0, Math.floor(seconds));
  const d = Math.floor(s / 86_400);
  const h = Math.floor((s % 86_400) / 3600);
  const m = Math.floor((s % 3600) / 60);
  if (d) return h ? `${d} d ${h} h` : `${d} d`;
  if (h) return m ? `${h} h ${m} min` : `${h} h`;
  if (m) return s % 60 ? `${m} min ${s % 60} s` : `${m} min`;
  return `${s} s`;
}

/** An amount of money in `currency` (ISO 4217), with the cents a bill needs and more below one unit. */
export function formatMoney(amount: number, currency: string): string {
  const digits = amount !== 0 && Math.abs(amount) < 1 ? 4 : 2;
  try {
    return new Intl.NumberFormat('en-US', { style: 'currency', currency, minimumFractionDigits: 2, maximumFractionDigits: digits }).format(amount);
  } catch {
    return `${amount.toFixed(digits)} ${currency}`;
  }
}
