/** Largest message a client may send, in bytes: keystrokes and pastes come in pieces under it. */
export const MAX_INPUT_FRAME_BYTES = 64 * 1024;

/** One message of the client, perch's protocol plus flow control. */
export type ClientFrame =
  | { kind: 'input'; data: string }
  | { kind: 'resize'; cols: number; rows: number }
  | { kind: 'ack'; bytes: number };

/** Bounds of a terminal's size, in cells: a client cannot ask the kernel for a screen of a billion cells. */
export const MAX_COLS = 1000;
export const MAX_ROWS = 500;

const cells = (value: unknown, max: number): number | undefined =>
  Number.isInteger(value) && (value as number) >= 1 && (value as number) <= max ? value as number : undefined;

/**
 * Parses a client message: `"i"+data` (keystrokes, as typed), `"r"+{"cols","rows"}` (resize) or `"a"+count` (bytes of
 * output rendered). Returns a string saying what is wrong for anything else.
 */
export function parseClientFrame(text: string): ClientFrame | string {
  const kind = text[0];
  const rest = text.slice(1);
  if (kind === 'i') return { kind: 'input', data: rest };
  if (kind === 'a') {
    if (!/^\d{1,9}$/.test(rest)) return 'an acknowledgement is "a" and a count of bytes';
    return { kind: 'ack', bytes: Number(rest) };
  }
  if (kind === 'r') {
    let size: { cols?: unknown; rows?: unknown };
    try { size = JSON.parse(rest) as typeof size; } catch { return 'a resize is "r" and JSON {"cols","rows"}'; }
    const cols = cells(size?.cols, MAX_COLS);
    const rows = cells(size?.rows, MAX_ROWS);
    if (cols === undefined || rows === undefined) return `a resize needs integer cols 1-${MAX_COLS} and rows 1-${MAX_ROWS}`;
    return { kind: 'resize', cols, rows };
  }
  return 'messages start with "i" (input), "r" (resize) or "a" (acknowledgement)';
}

/** The first command line, from the query's `cmd` (base64 of UTF-8); undefined when absent, a string error when bad. */
export function decodeCommand(cmd: string | null): { command?: string } | string {
  if (cmd === null || cmd === '') return {};
  if (cmd.length > 8192 || !/^[A-Za-z0-9+/_-]*={0,2}$/.test(cmd)) return '`cmd` is not base64';
  const bytes = Buffer.from(cmd, cmd.includes('-') || cmd.includes('_') ? 'base64url' : 'base64');
  if (bytes.length > 4096) return '`cmd` is over 4 KiB';
  const command = new TextDecoder('utf-8', { fatal: false }).decode(bytes);
  if (command.includes('\uFFFD') || command.includes('\0')) return '`cmd` is not UTF-8 text';
  return { command };
}
