// The bodies of an ingest batch as the middleware wrote them. A governed record keeps each JSON body's own text
// (whitespace, escapes, number spellings, a repeated key: json-text.ts cuts only redacted values out), and the
// gateway stores that text; a record a middleware sent must be stored with the same text, not with what
// `JSON.stringify` makes of its parsed value (`1.50e+2` → `150`, a 20-digit integer rounded, `"a\/b"` → `"a/b"`,
// `{"2":…,"1":…}` reordered). So the text of each record's two bodies is cut out of the batch's own text.

/** The JSON texts of one record's bodies, exactly as they stand in the batch (blanks around them included); `null` for none. */
export interface SentBodyTexts {
  request_body?: string;
  response_body?: string;
}

const QUOTE = 0x22;
const BACKSLASH = 0x5c;

/**
 * For `text`, a batch `{"records":[…]}` that `JSON.parse` accepted, the text of each record's `request_body` and
 * `response_body` values, by record index. Where a key repeats, the last occurrence counts, as in `JSON.parse`.
 * Linear in the text, iterative (no recursion, whatever the nesting). Returns null when `text` is not shaped so
 * (the caller then serialises the parsed values).
 */
export function sentBodyTexts(text: string): SentBodyTexts[] | null {
  let i = 0;
  const n = text.length;

  const blanks = () => {
    for (;;) {
      const c = text.charCodeAt(i);
      if (c === 0x20 || c === 0x09 || c === 0x0a || c === 0x0d) i++;
      else return;
    }
  };
  const expect = (ch: string) => {
    blanks();
    if (text[i] !== ch) throw new SyntaxError(`expected ${ch} at ${i}`);
    i++;
  };
  const skipString = () => {
    i++;
    while (i < n) {
      const c = text.charCodeAt(i);
      if (c === BACKSLASH) i += 2;
      else if (c === QUOTE) { i++; return; } else i++;
    }
    throw new SyntaxError('unterminated string');
  };
  const key = (): string => {
    blanks();
    const start = i;
    skipString();
    return JSON.parse(text.slice(start, i)) as string;
  };
  /** Skips one value (after blanks); returns its [start, end). */
  const value = (): [number, number] => {
    blanks();
    const start = i;
    let depth = 0;
    do {
      const c = text.charCodeAt(i);
      if (c === QUOTE) skipString();
      else if (c === 0x7b || c === 0x5b) { depth++; i++; } else if (c === 0x7d || c === 0x5d) { depth--; i++; } else if (depth > 0) i++;
      else {
        // A number or a literal at the top of this value: it runs to the next delimiter.
        while (i < n && !',}] \t\r\n'.includes(text[i])) i++;
      }
      if (i > n) throw new SyntaxError('unterminated value');
    } while (depth > 0);
    return [start, i];
  };
  /** Walks an object's members, handing each key to `member`, which must consume its value. */
  const members = (member: (name: string) => void) => {
    expect('{');
    blanks();
    if (text[i] === '}') { i++; return; }
    for (;;) {
      const name = key();
      expect(':');
      member(name);
      blanks();
      if (text[i] === ',') { i++; continue; }
      expect('}');
      return;
    }
  };

  try {
    let out: SentBodyTexts[] | null = null;
    members((name) => {
      if (name !== 'records') { value(); return; }
      const records: SentBodyTexts[] = [];
      expect('[');
      blanks();
      if (text[i] === ']') i++;
      else {
        for (;;) {
          const bodies: SentBodyTexts = {};
          members((field) => {
            // From the colon to the comma: blanks around a body are part of its text (the gateway keeps them).
            const from = i;
            const [start, end] = value();
            blanks();
            if (field === 'request_body' || field === 'response_body') {
              bodies[field] = text.startsWith('null', start) && end - start === 4 ? 'null' : text.slice(from, i);
            }
          });
          records.push(bodies);
          blanks();
          if (text[i] === ',') { i++; continue; }
          expect(']');
          break;
        }
      }
      out = records;
    });
    return out;
  } catch {
    return null;
  }
}
