/**
 * The middle value of a benchmark's rounds (the upper one of an even count). Helpers live in bench/support/: every
 * file directly in bench/ is run as a benchmark.
 */
export const median = (xs: readonly number[]): number => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
