/**
 * Ends this process as `signal`'s default action does: at once, by the kernel, without Node's teardown. That teardown
 * ends each worker thread and finishes the native calls in flight in it; node-sqlite3 then calls back into a thread
 * that can no longer run JavaScript, and the whole process aborts with a fatal error (and a core dump where enabled).
 * A process ended by the signal it was sent is what shells and service managers expect after such a signal anyway.
 */
export function exitBySignal(signal: 'SIGINT' | 'SIGTERM'): Promise<never> {
  // With no listener left, Node stops watching the signal and its disposition returns to the default.
  process.removeAllListeners(signal);
  process.kill(process.pid, signal);
  // Not reached where the signal's default action ends the process; elsewhere, end it anyway.
  setTimeout(() => process.kill(process.pid, 'SIGKILL'), 1000);
  return new Promise<never>(() => {});
}
