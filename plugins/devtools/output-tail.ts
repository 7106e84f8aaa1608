/** Characters of one line kept; a longer line is cut with an ellipsis (a minified bundle printed whole). */
const LINE_CHARS = 4_096;
/** ANSI escape sequences (colours, cursor moves, OSC titles and links): stripped, the page shows plain text. */
const ANSI = /\x1b(?:\[[0-?]*[ -/]*[@-~]|\][^\x07\x1b]*(?:\x07|\x1b\\)|[@-Z\\-_])/g;

/**
 * A run's output as lines, capped in bytes: the newest lines are kept, the oldest dropped, and the drop is counted
 * (lines and UTF-8 bytes) so the page can say "N KiB dropped before this". Line indexes count from the run's start,
 * so a reader asks for lines `since` an index and never sees one twice.
 */
export class OutputTail {
  /** Index of the oldest kept line since the run began. */
  first = 0;
  /** UTF-8 bytes of the kept lines, and of everything the run printed. */
  keptBytes = 0;
  totalBytes = 0;
  droppedBytes = 0;
  private partial = '';
  // Kept lines are buf[head..]: dropping the oldest moves `head`, and the arrays are compacted once half is dead, so
  // dropping costs O(1) amortised instead of a shift of every kept line.
  private buf: string[] = [];
  private sizes: number[] = [];
  private head = 0;

  constructor(private readonly capBytes: number) {}

  /** Adds decoded output; complete lines are kept, an unfinished last one waits for its end (or `flush`). */
  append(text: string): void {
    this.totalBytes += Buffer.byteLength(text);
    const parts = (this.partial + text).split(/\r?\n/);
    this.partial = parts.pop() ?? '';
    if (this.partial.length > LINE_CHARS) { parts.push(this.partial); this.partial = ''; }
    for (const part of parts) this.push(part);
  }

  /** Keeps the unfinished last line (the run ended). */
  flush(): void {
    if (this.partial) this.push(this.partial);
    this.partial = '';
  }

  /** Lines from index `since` on, at most `max`. */
  since(since: number, max: number): { from: number; lines: string[] } {
    const from = Math.max(since, this.first);
    const at = this.head + from - this.first;
    return { from, lines: this.buf.slice(at, at + max) };
  }

  /** Lines kept now. */
  get count(): number {
    return this.buf.length - this.head;
  }

  /** Index after the last kept line. */
  get next(): number {
    return this.first + this.count;
  }

  /** The last `chars` characters of the kept output, cut at a line start (for the history). */
  tail(chars: number): string {
    const out: string[] = [];
    let n = 0;
    for (let i = this.buf.length - 1; i >= this.head && n + this.buf[i].length + 1 <= chars; i--) {
      out.push(this.buf[i]);
      n += this.buf[i].length + 1;
    }
    return out.reverse().join('\n');
  }

  private push(raw: string): void {
    // A progress bar redraws its line with \r: only what it last drew is the line.
    const drawn = raw.includes('\r') ? raw.slice(raw.lastIndexOf('\r', raw.length - 2) + 1).replace(/\r$/, '') : raw;
    const plain = drawn.replace(ANSI, '');
    const line = plain.length > LINE_CHARS ? `${plain.slice(0, LINE_CHARS - 1)}…` : plain;
    const size = Buffer.byteLength(line) + 1;
    this.buf.push(line);
    this.sizes.push(size);
    this.keptBytes += size;
    while (this.keptBytes > this.capBytes && this.count > 1) {
      const dropped = this.sizes[this.head];
      this.head++;
      this.keptBytes -= dropped;
      this.droppedBytes += dropped;
      this.first++;
    }
    if (this.head > 1024 && this.head * 2 > this.buf.length) {
      this.buf = this.buf.slice(this.head);
      this.sizes = this.sizes.slice(this.head);
      this.head = 0;
    }
  }
}
