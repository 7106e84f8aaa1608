/** The longest delay setTimeout keeps (2^31 − 1 ms, about 24.8 days); longer waits are taken in steps. */
export const MAX_TIMER_MS = 2 ** 31 - 1;
