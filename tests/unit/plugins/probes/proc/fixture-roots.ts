import { resolve } from 'node:path';

// The suites run with the repository as the working directory (scripts/run-tests.mjs).
/** A laptop: four cores, swap, wifi and ethernet, NVMe with LVM, three hwmon chips, a battery and a wireless mouse's battery. */
export const laptop = resolve('tests/fixtures/proc-laptop');
/** A machine with only thermal zones, an old kernel's meminfo (no MemAvailable) and a battery that reports charge, not energy. */
export const server = resolve('tests/fixtures/proc-server');
/** A root with no /proc or /sys at all (it does not exist), as inside a restricted sandbox. */
export const empty = resolve('tests/fixtures/proc-none');
