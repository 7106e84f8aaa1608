// A record's text with the keys of its `response_headers` object sorted, and every other byte as it was (bodies keep
// their own spelling): for comparing records of a stack that writes response headers in an order of its own (Go's
// net/http sorts them by name).

/** The end (exclusive) of the JSON object that starts at `start` in `text`. */
function objectEnd(text: string, start: number): number {
  let depth = 0;
  for (let i = start; i < text.length; i++) {
    const c = text[i];
    if (c === '"') {
      for (i++; text[i] !== '"'; i++) if (text[i] === '\\') i++;
    } else if (c === '{' || c === '[') depth++;
    else if (c === '}' || c === ']') {
      depth--;
      if (depth === 0) return i + 1;
    }
  }
  return text.length;
}

function sortedAt(text: string, key: string): string {
  const marker = `"${key}":{`;
  const at = text.indexOf(marker);
  if (at === -1) return text;
  const start = at + marker.length - 1;
  const end = objectEnd(text, start);
  const object = JSON.parse(text.slice(start, end)) as Record<string, unknown>;
  // Header names are never array indices (canonical names start with a letter), so insertion order is kept.
  const sorted = Object.fromEntries(Object.entries(object).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)));
  return text.slice(0, start) + JSON.stringify(sorted) + text.slice(end);
}

export function responseHeadersSorted(recordText: string): string {
  return sortedAt(recordText, 'response_headers');
}
