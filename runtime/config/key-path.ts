/** A location in the config document: keys of mappings and indexes of lists, from the top level down. */
export type KeyPath = ReadonlyArray<string | number>;

const plainKey = /^[A-Za-z_][A-Za-z0-9_-]*$/;

/**
 * `['rules', 2, 'redact', 'json_feilds']` → `rules[2].redact.json_feilds`. Keys that are not identifier-like
 * (`x.y`, `a b`, `''`) are written as `["x.y"]` so the path stays unambiguous.
 */
export function formatKeyPath(path: KeyPath): string {
  let out = '';
  for (const segment of path) {
    if (typeof segment === 'number') out += `[${segment}]`;
    else if (plainKey.test(segment)) out += out === '' ? segment : `.${segment}`;
    else out += `[${JSON.stringify(segment)}]`;
  }
  return out;
}

/**
 * Turns an Ajv instance path (a JSON pointer such as `/rules/2/redact`) into a KeyPath. A pointer cannot tell the
 * list index 2 from the key "2", so the data decides: a segment under an array becomes a number.
 */
export function pointerToPath(pointer: string, data: unknown): (string | number)[] {
  if (pointer === '') return [];
  const path: (string | number)[] = [];
  let node: unknown = data;
  for (const raw of pointer.slice(1).split('/')) {
    const key = raw.replace(/~1/g, '/').replace(/~0/g, '~');
    if (Array.isArray(node) && /^(0|[1-9][0-9]*)$/.test(key)) {
      path.push(Number(key));
      node = node[Number(key)];
    } else {
      path.push(key);
      node = node !== null && typeof node === 'object' ? (node as Record<string, unknown>)[key] : undefined;
    }
  }
  return path;
}
