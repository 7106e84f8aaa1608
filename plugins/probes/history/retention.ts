export const MINUTE_MS = 60_000;
export const HOUR_MS = 3_600_000;
export const DAY_MS = 86_400_000;

/** Minute samples are kept 24 hours: 1,440 rows when one is taken every minute. */
export const SAMPLE_RETENTION_MS = DAY_MS;
/** Hourly rows are kept 120 days (2,880 rows), enough for the 90-day range with room to spare. */
export const HOURLY_RETENTION_MS = 120 * DAY_MS;

/** The start of the UTC hour holding `t`. */
export function hourStart(t: number): number {
  return Math.floor(t / HOUR_MS) * HOUR_MS;
}

/** Samples at or before this time are deleted: exactly 24 hours of minutes stay, the newest at `now`. */
export function sampleCutoff(now: number): number {
  return now - SAMPLE_RETENTION_MS;
}

/** Hours starting before this time are deleted. */
export function hourlyCutoff(now: number): number {
  return hourStart(now) - HOURLY_RETENTION_MS;
}
