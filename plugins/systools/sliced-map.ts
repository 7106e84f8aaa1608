import { setImmediate as yieldToLoop } from 'node:timers/promises';

/**
 * `items.map(fn)` in slices of `slice` items, giving the event loop back between slices: a 256 KiB crontab or a
 * 1 MiB authorized_keys is a few thousand lines, and reading them all in one go would hold the loop for 100 ms or more.
 */
export async function mapInSlices<T, U>(items: readonly T[], fn: (item: T, index: number) => U, slice = 100): Promise<U[]> {
  const out: U[] = [];
  for (let start = 0; start < items.length; start += slice) {
    if (start > 0) await yieldToLoop();
    const end = Math.min(items.length, start + slice);
    for (let i = start; i < end; i++) out.push(fn(items[i], i));
  }
  return out;
}
