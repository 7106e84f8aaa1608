/**
 * How busy the demo shop is over a day, by the local hour: quiet at night, a morning peak, a dip at lunch, an
 * afternoon peak and a small evening one. The history and the live traffic follow the same curve, so the hour the
 * demo starts in continues the day before it instead of jumping.
 */

const bump = (hour: number, peak: number, width: number): number => Math.exp(-((hour - peak) ** 2) / (2 * width ** 2));

/** The load at `hour` (0 to 24, fractional) of the day, from about 0.12 at night to 1 at the busiest hour. */
export function dailyLoad(hour: number): number {
  const h = ((hour % 24) + 24) % 24;
  // The day wraps: the evening's tail reaches past midnight, so each bump is also taken a day earlier and later.
  const at = (peak: number, width: number): number => Math.max(bump(h, peak, width), bump(h, peak - 24, width), bump(h, peak + 24, width));
  const day = Math.min(1, 0.95 * at(10.5, 2.4) + 0.9 * at(15, 2.6) + 0.35 * at(20.5, 1.8));
  return 0.12 + 0.88 * day;
}

/** The load at the instant `ms` (epoch), by the machine's local time. */
export const loadAt = (ms: number): number => {
  const d = new Date(ms);
  return dailyLoad(d.getHours() + d.getMinutes() / 60 + d.getSeconds() / 3600);
};
