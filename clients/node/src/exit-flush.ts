/**
 * Flushes live clients when the process is about to exit on its own (`beforeExit`: the event loop ran empty). One
 * listener serves every client, so creating many clients never trips Node's listener-leak warning, and it is removed
 * when the last client shuts down. `beforeExit` is not emitted on `process.exit()`, on a signal or on an uncaught
 * exception: call `await client.shutdown()` on those paths.
 */

export interface ExitFlushable {
  /** Sends what is held; resolves when done or given up. Any work it starts keeps the loop (and the process) alive. */
  flushOnExit(): Promise<void> | void;
}

const clients = new Set<ExitFlushable>();

function onBeforeExit(): void {
  for (const client of clients) {
    try { void client.flushOnExit(); } catch { /* a client never fails the process's exit */ }
  }
}

export function registerExitFlush(client: ExitFlushable): void {
  if (clients.size === 0) process.on('beforeExit', onBeforeExit);
  clients.add(client);
}

export function unregisterExitFlush(client: ExitFlushable): void {
  if (!clients.delete(client)) return;
  if (clients.size === 0) process.off('beforeExit', onBeforeExit);
}
