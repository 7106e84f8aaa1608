/** One server-sent event: its `event` field (default `message`) and its data lines joined with `\n`. */
export interface SseEvent {
  event: string;
  data: string;
}

/** The most one event's text may hold before the stream is called broken (a provider's delta is a few hundred bytes). */
export const MAX_EVENT_CHARS = 1024 * 1024;

/**
 * An incremental parser of the `text/event-stream` format (WHATWG HTML, "Server-sent events"): feed it text as it
 * arrives, in chunks cut anywhere (mid-line, between `\r` and `\n`), and it returns the events each chunk completed.
 * Comments (`:`) and `id`/`retry` fields are dropped; they mean nothing to a chat answer.
 */
export class SseParser {
  private pending = '';
  private data: string[] = [];
  private dataChars = 0;
  private event = '';
  /** A chunk ended in `\r`: a `\n` starting the next one belongs to the same line end. */
  private afterCr = false;

  feed(chunk: string): SseEvent[] {
    if (this.afterCr && chunk.startsWith('\n')) chunk = chunk.slice(1);
    this.afterCr = chunk.endsWith('\r');
    const text = this.pending + chunk;
    const out: SseEvent[] = [];
    let at = 0;
    for (;;) {
      const end = nextLineEnd(text, at);
      if (end < 0) break;
      this.line(text.slice(at, end), out);
      at = end + (text[end] === '\r' && text[end + 1] === '\n' ? 2 : 1);
    }
    this.pending = text.slice(at);
    if (this.pending.length + this.dataChars > MAX_EVENT_CHARS) throw new Error(`an event of the stream passed ${MAX_EVENT_CHARS} characters`);
    return out;
  }

  private line(line: string, out: SseEvent[]): void {
    if (line === '') {
      if (this.data.length) out.push({ event: this.event || 'message', data: this.data.join('\n') });
      this.data = [];
      this.dataChars = 0;
      this.event = '';
      return;
    }
    if (line.startsWith(':')) return;
    const colon = line.indexOf(':');
    const field = colon < 0 ? line : line.slice(0, colon);
    let value = colon < 0 ? '' : line.slice(colon + 1);
    if (value.startsWith(' ')) value = value.slice(1);
    if (field === 'data') {
      this.data.push(value);
      this.dataChars += value.length;
    } else if (field === 'event') {
      this.event = value;
    }
  }
}

function nextLineEnd(text: string, from: number): number {
  for (let i = from; i < text.length; i++) {
    const c = text.charCodeAt(i);
    // A lone `\r` at the very end may be half of `\r\n`: wait for the next chunk (feed() drops its `\n`).
    if (c === 10 || c === 13) return i;
  }
  return -1;
}
