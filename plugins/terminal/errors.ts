import { defineErrorCodes } from '@vigil/plugin-sdk';

/**
 * Codes of the terminal plugin. A terminal's problems arrive after the websocket upgrade, so they are sent as the
 * close frame's reason (`<code>: <message>`, at most 123 bytes) with the close code in each entry's meaning.
 */
export const TerminalErrors = defineErrorCodes('TERMINAL', {
  FOLDER: {
    meaning: 'The folder asked for (`cwd`) does not exist or is not a directory (close code 4001).',
    action: 'Give an absolute path to an existing directory, or leave `cwd` out for the home directory.',
  },
  REQUEST: {
    meaning: 'The terminal\'s query string is malformed: `cmd` is not base64 of UTF-8 text under 4 KiB, or `cols`/`rows` are out of range (close code 1008).',
    action: 'Send `cmd` as base64 of the command line, and `cols` 1 to 1000, `rows` 1 to 500.',
  },
  FRAME: {
    meaning: 'A message from the client is not one of the protocol\'s (`i` keystrokes, `r` resize, `a` acknowledgement) (close code 1008), or is larger than 64 KiB (close code 1009).',
    action: 'Send keystrokes in pieces under 64 KiB; see plugins/terminal/README.md for the protocol.',
  },
  LIMIT: {
    meaning: 'As many terminals as `terminal.max_sessions` are open already (close code 1013).',
    action: 'Close a terminal tab, or raise `terminal.max_sessions`.',
  },
  IDLE: {
    meaning: 'Nothing was typed and the shell wrote nothing for `terminal.idle_timeout` (close code 4000); the shell was ended.',
    action: 'Open a new terminal; raise `terminal.idle_timeout` for long quiet sessions.',
  },
  SPAWN: {
    meaning: 'The shell could not be started, or a source\'s session (`?source=`, e.g. a container\'s exec) could not be opened; the reason says why (close code 1011).',
    action: 'Check `terminal.shell` (or $SHELL) names an executable shell; for a source, that its target exists and runs (a container must be running). The server log has the cause.',
  },
});
