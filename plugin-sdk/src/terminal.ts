/**
 * The web terminal's seam for other plugins: the `terminalSources` service the `terminal` plugin provides. A plugin
 * registers a source of sessions that are not a login shell on a pty (a shell inside a container, through its engine's
 * API); `/ws/term?source=<name>&target=<…>` then opens a tab on one, with the terminal's own guards: auth and the
 * Origin check at the upgrade, the session limit, flow control, the idle timeout and the audit lines.
 */

/** One session's two-way stream: output bytes out, keystrokes in. */
export interface TerminalStream {
  onData(listener: (chunk: Buffer) => void): void;
  /** Called once when the session ends on its side (the shell exited, the engine closed the stream). */
  onExit(listener: () => void): void;
  write(data: string): void;
  resize(cols: number, rows: number): void;
  /** Flow control: stop reading output until `resume`. */
  pause(): void;
  resume(): void;
  /** Ends the session; resolves once it is gone. Safe to call twice. */
  close(): Promise<void>;
}

export interface TerminalSource {
  /** The `source` query value: lower case, digits and `-`. */
  name: string;
  /** Opens a session on `target` (the source's own syntax, e.g. `docker:<id>`); throws an Error whose message says why not. */
  open(target: string, size: { cols: number; rows: number }): Promise<TerminalStream>;
  /** What the audit line names as the session's program, e.g. `docker exec <id>`. */
  describe(target: string): string;
}

/** What the `terminal` plugin offers other plugins. */
export interface TerminalSourcesService {
  /** Adds a source; returns a function that removes it. A second source of the same name is refused (throws). */
  register(source: TerminalSource): () => void;
}
