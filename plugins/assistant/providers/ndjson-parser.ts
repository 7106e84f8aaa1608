/** The most one line may hold before the stream is called broken (an Ollama chunk is a few hundred bytes). */
export const MAX_LINE_CHARS = 1024 * 1024;

/**
 * Newline-delimited JSON, incrementally: feed text in chunks cut anywhere, get back the values of the lines each
 * chunk completed. Blank lines are skipped; a line that is not JSON throws (the provider broke the format).
 */
export class NdjsonParser {
  private pending = '';

  feed(chunk: string): unknown[] {
    const text = this.pending + chunk;
    const lines = text.split('\n');
    this.pending = lines.pop() ?? '';
    if (this.pending.length > MAX_LINE_CHARS) throw new Error(`a line of the stream passed ${MAX_LINE_CHARS} characters`);
    return lines.map((l) => l.trim()).filter(Boolean).map(parseLine);
  }

  /** What the stream left without a final newline (Ollama ends its last line with one, but a proxy may not). */
  end(): unknown[] {
    const rest = this.pending.trim();
    this.pending = '';
    return rest ? [parseLine(rest)] : [];
  }
}

function parseLine(line: string): unknown {
  try {
    return JSON.parse(line);
  } catch {
    throw new Error(`the stream sent a line that is not JSON: ${line.slice(0, 120)}`);
  }
}
