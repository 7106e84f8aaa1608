import { setPriority } from 'node:os';

/** The `workerData` key under which a background pool's threads find their task module's URL. */
export const BACKGROUND_TASK_KEY = 'vigilBackgroundTask';

/** The nice value of background threads: the lowest priority there is. */
const BACKGROUND_NICE = 19;

/**
 * Moves the calling thread to the lowest CPU priority. Linux only: there a thread's priority is its own, and
 * setpriority(2) without a pid moves the calling thread alone. Elsewhere (macOS, Windows) it would move the whole
 * process, the traffic lane with it, so nothing changes. False when the thread's priority was not lowered.
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
