import { readText } from './read-text.js';

/** Seconds since boot, from the first field of /proc/uptime. */
export async function readUptime(root = '/'): Promise<number | undefined> {
  const seconds = Number((await readText(root, 'proc/uptime'))?.trim().split(/\s+/)[0]);
  return Number.isFinite(seconds) && seconds >= 0 ? seconds : undefined;
}
