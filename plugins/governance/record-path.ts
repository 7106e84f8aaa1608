/**
 * Paths into a governed record, as written in `vigil test` expectations: `request_body.card.number`,
 * `request_body.items[0].card` (or `.items.0.card`), `headers.Authorization`, `query.token`, `labels.tenant`,
 * `headers["X-Odd.Name"]`. Keys of `headers` and `response_headers` match case-insensitively, as header names do.
 */
export type RecordPath = readonly (string | number)[];

export function parseRecordPath(text: string): RecordPath | null {
  const out: (string | number)[] = [];
  let i = 0;
  while (i < text.length) {
    if (text[i] === '[') {
      const close = text.indexOf(']', i);
      if (close === -1) return null;
      const inner = text.slice(i + 1, close);
      if (/^[0-9]+$/.test(inner)) out.push(Number(inner));
      else if (/^"(?:[^"\\]|\\.)*"$|^'[^']*'$/.test(inner)) out.push(inner.slice(1, -1).replace(/\\(.)/g, '$1'));
      else return null;
      i = close + 1;
      if (text[i] === '.') {
        if (i + 1 === text.length) return null;
        i++;
      }
      continue;
    }
    let j = i;
    while (j < text.length && text[j] !== '.' && text[j] !== '[') j++;
    const key = text.slice(i, j);
    if (key === '') return null;
    out.push(key);
    if (text[j] === '.' && j + 1 === text.length) return null;
    i = text[j] === '.' ? j + 1 : j;
  }
  return out.length === 0 ? null : out;
}

const CASE_INSENSITIVE = new Set(['headers', 'response_headers']);

/** The value at `path`, or `{ found: false }` with the first segment that is missing. */
export function lookupRecordPath(root: unknown, path: RecordPath): { found: true; value: unknown } | { found: false; missingAt: number } {
  let node: unknown = root;
  for (let k = 0; k < path.length; k++) {
    const seg = path[k];
    if (node === null || typeof node !== 'object') return { found: false, missingAt: k };
    if (Array.isArray(node)) {
      const index = typeof seg === 'number' ? seg : /^[0-9]+$/.test(seg) ? Number(seg) : NaN;
      if (!(index >= 0 && index < node.length)) return { found: false, missingAt: k };
      node = node[index];
      continue;
    }
    const obj = node as Record<string, unknown>;
    let key = String(seg);
    if (k === 1 && CASE_INSENSITIVE.has(String(path[0]))) {
      key = Object.keys(obj).find((name) => name.toLowerCase() === key.toLowerCase()) ?? key;
    }
    if (!Object.prototype.hasOwnProperty.call(obj, key)) return { found: false, missingAt: k };
    node = obj[key];
  }
  return { found: true, value: node };
}
