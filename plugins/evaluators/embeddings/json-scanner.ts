/**
 * A streaming JSON scanner: feed it chunks of bytes, it calls the handler for each token. Memory: the current chunk
 * plus at most one unfinished token carried into the next (a string or number cut by the chunk's end), never the
 * document. It exists so that a 307 MB word-vector file can be read in a few tens of MB.
 *
 * Numbers are delimited, not parsed: the handler gets the bytes and parses only those it keeps (most of the file's
 * 35 million numbers are skipped). Strings are decoded as UTF-8, escapes included. Structure is checked (commas,
 * colons, matching brackets, one top-level value); a violation throws with the byte offset.
 */
export interface JsonHandler {
  open(kind: 'object' | 'array'): void;
  close(kind: 'object' | 'array'): void;
  key(name: string): void;
  string(value: string): void;
  /** The number's text is `bytes[start..end)`, ASCII. */
  number(bytes: Buffer, start: number, end: number): void;
  literal(value: boolean | null): void;
}

const enum Expect { Value, ValueOrClose, Key, KeyOrClose, Colon, CommaOrClose, End }

const OBJECT = 0;
const ARRAY = 1;
const MAX_DEPTH = 256;
/** A single token longer than this (bytes) is refused rather than carried from chunk to chunk without bound. */
const MAX_TOKEN = 1 << 20;

const QUOTE = 0x22;
const BACKSLASH = 0x5c;

function isNumberByte(c: number): boolean {
  // 0-9 . + - e E
  return (c >= 0x30 && c <= 0x39) || c === 0x2e || c === 0x2b || c === 0x2d || c === 0x65 || c === 0x45;
}

/** Index of the quote closing a string whose content starts at `from`, or -1 if the chunk ends first. */
function stringEnd(bytes: Buffer, from: number): number {
  let at = from;
  for (;;) {
    const quote = bytes.indexOf(QUOTE, at);
    if (quote < 0) return -1;
    let slashes = 0;
    for (let k = quote - 1; k >= from && bytes[k] === BACKSLASH; k--) slashes++;
    if (slashes % 2 === 0) return quote;
    at = quote + 1;
  }
}

export class JsonScanner {
  private expect: Expect = Expect.Value;
  private readonly stack = new Uint8Array(MAX_DEPTH);
  private depth = 0;
  private carry: Buffer | null = null;
  /** Bytes consumed before the current chunk, for error offsets. */
  private consumed = 0;

  constructor(private readonly handler: JsonHandler) {}

  write(chunk: Buffer): void {
    this.scan(this.carry ? Buffer.concat([this.carry, chunk]) : chunk, false);
  }

  /** Ends the document: throws unless exactly one complete value was read. */
  end(): void {
    if (this.carry) this.scan(this.carry, true);
    if (this.expect !== Expect.End) throw this.error('the document ends early', this.consumed);
  }

  private error(what: string, at: number): Error {
    return new SyntaxError(`JSON: ${what} at byte ${at}`);
  }

  private afterValue(): void {
    this.expect = this.depth === 0 ? Expect.End : Expect.CommaOrClose;
  }

  private push(kind: number, at: number): void {
    if (this.depth === MAX_DEPTH) throw this.error(`nesting deeper than ${MAX_DEPTH}`, at);
    this.stack[this.depth++] = kind;
    this.handler.open(kind === OBJECT ? 'object' : 'array');
    this.expect = kind === OBJECT ? Expect.KeyOrClose : Expect.ValueOrClose;
  }

  private pop(kind: number, at: number): void {
    if (this.depth === 0 || this.stack[this.depth - 1] !== kind) throw this.error(`unexpected '${kind === OBJECT ? '}' : ']'}'`, at);
    this.depth--;
    this.handler.close(kind === OBJECT ? 'object' : 'array');
    this.afterValue();
  }

  /** Keeps `bytes[from..]` for the next chunk; false (stop scanning) unless the document has ended. */
  private hold(bytes: Buffer, from: number, ended: boolean): boolean {
    if (ended) throw this.error('the document ends inside a token', this.consumed + from);
    if (bytes.length - from > MAX_TOKEN) throw this.error(`a token longer than ${MAX_TOKEN} bytes`, this.consumed + from);
    // A copy, so that the caller's chunk can be reused or freed.
    this.carry = Buffer.from(bytes.subarray(from));
    this.consumed += from;
    return false;
  }

  private scan(bytes: Buffer, ended: boolean): void {
    this.carry = null;
    const n = bytes.length;
    let i = 0;
    while (i < n) {
      const c = bytes[i];
      if (c === 0x20 || c === 0x0a || c === 0x0d || c === 0x09) { i++; continue; }
      const at = this.consumed + i;
      // An empty array or object closes where its first member would start.
      if (this.expect === Expect.ValueOrClose && c === 0x5d) { this.pop(ARRAY, at); i++; continue; }
      if (this.expect === Expect.KeyOrClose && c === 0x7d) { this.pop(OBJECT, at); i++; continue; }
      switch (this.expect) {
        case Expect.Value:
        case Expect.ValueOrClose: {
          if (c === QUOTE) {
            const end = stringEnd(bytes, i + 1);
            if (end < 0) { this.hold(bytes, i, ended); return; }
            this.handler.string(this.decode(bytes, i, end));
            i = end + 1;
            this.afterValue();
          } else if (c === 0x7b) {
            this.push(OBJECT, at); i++;
          } else if (c === 0x5b) {
            this.push(ARRAY, at); i++;
          } else if (c === 0x2d || (c >= 0x30 && c <= 0x39)) {
            let j = i + 1;
            while (j < n && isNumberByte(bytes[j])) j++;
            if (j === n && !ended) { this.hold(bytes, i, ended); return; }
            this.handler.number(bytes, i, j);
            i = j;
            this.afterValue();
          } else if (c === 0x74 || c === 0x66 || c === 0x6e) {
            const word = c === 0x74 ? 'true' : c === 0x66 ? 'false' : 'null';
            if (n - i < word.length) { this.hold(bytes, i, ended); return; }
            if (bytes.toString('latin1', i, i + word.length) !== word) throw this.error('an unknown literal', at);
            this.handler.literal(c === 0x74 ? true : c === 0x66 ? false : null);
            i += word.length;
            this.afterValue();
          } else {
            throw this.error(`unexpected '${String.fromCharCode(c)}' where a value belongs`, at);
          }
          continue;
        }
        case Expect.Key:
        case Expect.KeyOrClose: {
          if (c !== QUOTE) throw this.error('a key must be a string', at);
          const end = stringEnd(bytes, i + 1);
          if (end < 0) { this.hold(bytes, i, ended); return; }
          this.handler.key(this.decode(bytes, i, end));
          i = end + 1;
          this.expect = Expect.Colon;
          continue;
        }
        case Expect.Colon:
          if (c !== 0x3a) throw this.error("expected ':' after a key", at);
          this.expect = Expect.Value;
          i++;
          continue;
        case Expect.CommaOrClose:
          if (c === 0x2c) {
            this.expect = this.stack[this.depth - 1] === OBJECT ? Expect.Key : Expect.Value;
          } else if (c === 0x7d) {
            this.pop(OBJECT, at);
          } else if (c === 0x5d) {
            this.pop(ARRAY, at);
          } else {
            throw this.error(`expected ',' or a closing bracket, found '${String.fromCharCode(c)}'`, at);
          }
          i++;
          continue;
        case Expect.End:
          throw this.error('data after the end of the document', at);
      }
    }
    this.consumed += n;
  }

  /** The string whose quotes are at `open` and `close`. */
  private decode(bytes: Buffer, open: number, close: number): string {
    const slash = bytes.indexOf(BACKSLASH, open + 1);
    if (slash < 0 || slash > close) return bytes.toString('utf8', open + 1, close);
    try {
      return JSON.parse(bytes.toString('utf8', open, close + 1)) as string;
    } catch {
      throw this.error('an invalid escape in a string', this.consumed + open);
    }
  }
}
