/**
 * What one minute sample holds, and what the hourly rollup averages and peaks. Adding a metric means adding it here
 * and a migration that adds its columns (`<name>` to the samples, `<name>_avg` and `<name>_max` to the hours).
 *
 * Units: percentages 0..100, °C, bytes a second. A metric the machine cannot measure (no sensor, no battery) is null
 * and stays out of the hour's average.
 */
export const SAMPLE_METRICS = [
  'cpu', // busy share of all cores over the minute, %
  'mem', // used (total − available) / total, %
  'swap', // used swap / swap total, % (0 without swap)
  'load1', // 1-minute load average
  'temp', // hottest sensor, °C
  'disk', // fullest real partition, %
  'battery', // charge, %
  'net_rx', // all interfaces but loopback, bytes/s
  'net_tx',
  'io_read', // all disks, bytes/s
  'io_write',
] as const;

export type SampleMetric = (typeof SAMPLE_METRICS)[number];

/** One minute's values; `t` is the sample's time in epoch ms. */
export type Sample = { t: number } & { [M in SampleMetric]: number | null };

/** One finished hour: `hour` is its start in epoch ms, `n` the samples it was made of. */
export type HourlyRow = { hour: number; n: number } & { [M in SampleMetric as `${M}_avg` | `${M}_max`]: number | null };
