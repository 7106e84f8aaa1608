import { isAlias, isMap, isPair, isScalar, isSeq, type Document, type LineCounter, type Node } from 'yaml';
import type { KeyPath } from './key-path.js';

/** A 1-based place in the file. */
export interface Position {
  line: number;
  column: number;
}

/** `value`: where the node at the path starts. `key`: where its key is written (a list item: where the item starts). */
export type LocateTarget = 'key' | 'value';

export type Locator = (path: KeyPath, at?: LocateTarget) => Position | undefined;

/** A Locator over a parsed YAML document: walks the syntax tree, never the JS data, so positions are the source's. */
export function createLocator(doc: Document, lines: LineCounter): Locator {
  const position = (offset: number): Position => {
    const { line, col } = lines.linePos(offset);
    return { line, column: col };
  };
  return (path, at = 'value') => {
    let node: unknown = doc.contents;
    let keyNode: unknown;
    for (const segment of path) {
      if (isAlias(node)) node = node.resolve(doc);
      keyNode = undefined;
      if (isMap(node)) {
        const pair = node.items.find((p) => isPair(p) && keyText(p.key) === String(segment));
        if (!pair) return undefined;
        keyNode = pair.key;
        // `key:` with nothing after it has no value node; the key is then the best place to point at.
        node = pair.value ?? pair.key;
      } else if (isSeq(node) && typeof segment === 'number') {
        node = node.items[segment];
        keyNode = node;
      } else {
        return undefined;
      }
    }
    const target = at === 'key' && keyNode !== undefined ? keyNode : node;
    const range = (target as Node | null)?.range;
    return range ? position(range[0]) : undefined;
  };
}

/** The text of a mapping key as it appears in the loaded data (`1:` is the key "1"). */
export function keyText(key: unknown): string | undefined {
  if (isScalar(key)) return String(key.value);
  return key === null || key === undefined ? undefined : String(key);
}

/**
 * The position of `path`, or of its closest ancestor present in the file. Problems about values that are not in the
 * file (a default filled in, a key that is missing) still point somewhere useful. 0:0 when the config has no source.
 */
export function locateNearest(locate: Locator, path: KeyPath, at: LocateTarget): Position {
  for (let end = path.length; end >= 0; end--) {
    const found = locate(path.slice(0, end), end === path.length ? at : 'key');
    if (found) return found;
  }
  return { line: 0, column: 0 };
}
