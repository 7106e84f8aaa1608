import { setPriority } from 'node:os';

/** The `workerData` key under which a background pool's threads find their task module's URL. */
export const BACKGROUND_TASK_KEY = 'vigilBackgroundTask';

/** The nice value of background threads: the lowest priority there is. */
const BACKGROUND_NICE = 19;

/**
 * Moves the calling thread to the lowest CPU priority. Linux only: there a thread's priority is its own, and
 * setpriority(2) without a pid moves the calling thread alone. Elsewhere (macOS, Windows) it would move the whole
 * process, the traffic lane with it, so nothing changes. False when the thread's priority was not lowered.
 *
 * Not SCHED_IDLE, although it would give a saturated machine's CPU to the event loop more fully
 * (bench/gateway-throughput.ts). Below saturation, with the capture workers under SCHED_IDLE, the event loop's
 * longest scavenges grew several times over (bench/gateway-gc.ts): most likely a worker preempted while it held a
 * lock the whole process shares (the address space's, taken by page faults and mmap), which under SCHED_IDLE it may
 * wait milliseconds to release.
 */
export function lowerThreadPriority(platform: NodeJS.Platform = process.platform): boolean {
  if (platform !== 'linux') return false;
  try {
    setPriority(BACKGROUND_NICE);
    return true;
  } catch {
    return false;
  }
}
