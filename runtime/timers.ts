/** The longest delay setTimeout keeps (2^31 − 1 ms, about 24.8 days); longer waits are taken in steps. */
export const MAX_TIMER_MS = 2 ** 31 - 1;

/**
 * Waits for `promise` at most `ms`: true when it settled in time (a rejection counts as settled). With `unref`, the
 * wait does not by itself keep the process alive.
 */
export async function settledWithin(promise: Promise<unknown>, ms: number, options: { unref?: boolean } = {}): Promise<boolean> {
  let timer: NodeJS.Timeout | undefined;
  const settled = await Promise.race([
    promise.then(() => true, () => true),
    new Promise<false>((resolve) => {
      timer = setTimeout(() => resolve(false), ms);
      if (options.unref) timer.unref();
    }),
  ]);
  clearTimeout(timer);
  return settled;
}
