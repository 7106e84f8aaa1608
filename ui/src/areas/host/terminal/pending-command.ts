// What another page hands the terminal page to open its first tab on (the Containers page's "Shell"): a session of a
// terminal source (a container's exec through its engine's API), or a command line typed into a login shell (an
// engine's CLI exec). Held in memory and taken once, never read from the address: a link must not be able to run a
// command in someone's shell.
export interface PendingSession {
  /** A registered source of the terminal plugin and its target (`container`, `docker:<id>`). */
  source?: { name: string; target: string };
  /** A command line typed into a login shell. */
  command?: string;
}

let pending: PendingSession | undefined;

/** Sets what the next terminal page opens its first tab on. */
export function openShellWith(session: PendingSession): void {
  pending = session;
}

/** What was handed over, once; undefined when nothing was. */
export function takePendingSession(): PendingSession | undefined {
  const session = pending;
  pending = undefined;
  return session;
}
