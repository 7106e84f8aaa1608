import { execFileSync } from 'node:child_process';
import { readlinkSync } from 'node:fs';
import { setPriority } from 'node:os';

/** The `workerData` key under which a background pool's threads find their task module's URL. */
export const BACKGROUND_TASK_KEY = 'vigilBackgroundTask';

/** The nice value of background threads: the lowest priority there is. */
const BACKGROUND_NICE = 19;

/** How a thread's priority was lowered: SCHED_IDLE, nice 19 only, or not at all. */
export type LoweredPriority = 'idle' | 'nice' | 'unchanged';

/**
 * Moves the calling thread to the lowest CPU priority. Linux only: there a thread's priority is its own, and
 * setpriority(2) without a pid moves the calling thread alone. Elsewhere (macOS, Windows) it would move the whole
 * process, the traffic lane with it, so nothing changes.
 *
 * Nice 19 is not enough on its own: a nice-19 thread still takes its share of a busy core. On a saturated two-core
 * machine (`bench/gateway-throughput.ts`, full capture) the gateway kept 0.55 of the bare proxy's throughput with
 * the capture workers at nice 19, and 0.67 with them under SCHED_IDLE, every record stored either way. Under
 * SCHED_IDLE the scheduler runs the thread only where a core has nothing else to run. Node has no call for
 * sched_setscheduler(2), so util-linux's `chrt` (essential on Debian) sets it on this thread's id; where that
 * fails, nice 19 stays.
 */
export function lowerThreadPriority(platform: NodeJS.Platform = process.platform): LoweredPriority {
  if (platform !== 'linux') return 'unchanged';
  try {
    setPriority(BACKGROUND_NICE);
  } catch {
    return 'unchanged';
  }
  try {
    const tid = readlinkSync('/proc/thread-self').split('/').pop()!;
    execFileSync('chrt', ['--idle', '--pid', '0', tid], { stdio: 'ignore', timeout: 2000 });
    return 'idle';
  } catch {
    return 'nice';
  }
}
