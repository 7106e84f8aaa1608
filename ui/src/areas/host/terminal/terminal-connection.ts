// The browser's side of plugins/terminal's protocol: text frames "i"+keystrokes, "r"+{"cols","rows"} and
// "a"+bytes rendered; binary frames of output. Output is acknowledged once xterm has parsed it, in batches, so the
// server pauses the shell while this tab cannot keep up (a `cat` of a huge file, a tab in the background).

/** Acknowledge once this many bytes are rendered (VS Code's batch), well under the server's 5,000-byte low-water mark. */
export const ACK_BATCH_BYTES = 4_096;
/** Keystrokes are sent in pieces under the server's 64 KiB frame limit (a paste can be larger). */
export const INPUT_PIECE_CHARS = 16_384;

export interface ConnectionRequest {
  cwd?: string;
  /** A command line typed in as the first line. */
  command?: string;
  /** A terminal source's session (plugins/terminal `terminalSources`) instead of a login shell. */
  source?: { name: string; target: string };
  cols: number;
  rows: number;
}

/** `/ws/term?…` on this page's own origin (ws: or wss:), where the session cookie and Origin go along. */
export function terminalUrl(location: { protocol: string; host: string }, request: ConnectionRequest): string {
  const params = new URLSearchParams({ cols: String(request.cols), rows: String(request.rows) });
  if (request.cwd) params.set('cwd', request.cwd);
  if (request.command) params.set('cmd', base64Utf8(request.command));
  if (request.source) { params.set('source', request.source.name); params.set('target', request.source.target); }
  return `${location.protocol === 'https:' ? 'wss' : 'ws'}://${location.host}/ws/term?${params}`;
}

export function base64Utf8(text: string): string {
  let binary = '';
  for (const byte of new TextEncoder().encode(text)) binary += String.fromCharCode(byte);
  return btoa(binary);
}

/** Splits `data` into frames the server accepts: "i" plus at most INPUT_PIECE_CHARS characters (≤ 48 KiB of UTF-8). */
export function inputFrames(data: string): string[] {
  const frames: string[] = [];
  let start = 0;
  while (start < data.length) {
    let end = Math.min(data.length, start + INPUT_PIECE_CHARS);
    // Never split a surrogate pair.
    if (end < data.length && /[\uD800-\uDBFF]/.test(data[end - 1])) end -= 1;
    frames.push(`i${data.slice(start, end)}`);
    start = end;
  }
  return frames;
}

/**
 * Counts rendered bytes and says when to send an acknowledgement. What stays under a batch is never acknowledged
 * and needs not be: the server resumes below 5,000 unacknowledged bytes, more than a batch.
 */
export class AckCounter {
  private rendered = 0;

  constructor(private readonly batch = ACK_BATCH_BYTES) {}

  /** `bytes` more were rendered; returns the count to acknowledge now, or 0 to wait for more. */
  add(bytes: number): number {
    this.rendered += bytes;
    if (this.rendered < this.batch) return 0;
    const n = this.rendered;
    this.rendered = 0;
    return n;
  }
}

/** What a close code means, for the line written into the terminal when it ends. */
export function describeClose(code: number, reason: string): string {
  const detail = reason.replace(/^VIGIL_ERR_[A-Z_]+: /, '');
  switch (code) {
    case 1000: return detail || 'the shell exited';
    case 1001: return 'the server closed the terminal';
    case 1006: return 'the connection was lost';
    case 1008: return detail ? `the server refused: ${detail}` : 'your session ended';
    case 1009: return 'a message was too large';
    case 1013: return detail || 'too many terminals are open';
    case 4000: return `closed after being idle (${detail})`;
    case 4001: return detail || 'that folder cannot be opened';
    default: return detail || `closed (${code})`;
  }
}
