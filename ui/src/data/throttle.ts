// At most one call per interval: the first call runs at once, calls during the interval collapse into one at its
// end. Live pages refresh on every event, and a burst of traffic must not become a burst of requests.

export interface Timers {
  setTimeout(fn: () => void, ms: number): unknown;
  clearTimeout(id: unknown): void;
  now(): number;
}

const realTimers: Timers = { setTimeout: (fn, ms) => setTimeout(fn, ms), clearTimeout: (id) => clearTimeout(id as number), now: () => Date.now() };

/** `fn` throttled to once per `ms`, with a `cancel` for unmounting. */
export function throttle(fn: () => void, ms: number, timers: Timers = realTimers): (() => void) & { cancel(): void } {
  let last = -Infinity;
  let pending: unknown;
  const fire = () => {
    pending = undefined;
    last = timers.now();
    fn();
  };
  const throttled = () => {
    if (pending !== undefined) return;
    const wait = last + ms - timers.now();
    if (wait <= 0) fire();
    else pending = timers.setTimeout(fire, wait);
  };
  throttled.cancel = () => {
    if (pending !== undefined) timers.clearTimeout(pending);
    pending = undefined;
  };
  return throttled;
}
