// piscina task module of `background: true` pools: lowers this thread's CPU priority, then serves the pool's own task
// module (its URL under BACKGROUND_TASK_KEY in workerData) as if piscina had loaded it.
import { workerData } from 'node:worker_threads';
import { BACKGROUND_TASK_KEY, lowerThreadPriority } from './thread-priority.js';

lowerThreadPriority();
const task = ((await import((workerData as Record<string, string>)[BACKGROUND_TASK_KEY])) as { default: (input: unknown) => unknown }).default;
export default task;
