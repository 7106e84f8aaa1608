/**
 * Waits for `promise` at most `ms`: true when it settled in time (a rejection counts as settled). With `unref`, the
 * wait does not by itself keep the process alive. For bounded waits in `stop()`: draining, closing, finishing work.
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
