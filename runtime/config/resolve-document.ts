import { isMap, isScalar, isSeq, parseDocument, Scalar, type Document, type LineCounter } from 'yaml';
import { ConfigErrors, type ConfigProblem } from './errors.js';
import { hasReference, interpolateString, isWholeReference, type Env } from './interpolate.js';
import { formatKeyPath } from './key-path.js';
import { keyText } from './locate.js';

/**
 * Walks the syntax tree once: reports duplicate keys, and expands `${…}` in scalar values in place. Working on
 * nodes, not on raw text, keeps every position true and never lets a variable's value inject YAML structure.
 * Keys are never interpolated.
 */
export function resolveDocument(doc: Document, lines: LineCounter, file: string, env: Env): ConfigProblem[] {
  const problems: ConfigProblem[] = [];
  const at = (offset: number) => {
    const { line, col } = lines.linePos(offset);
    return { line, column: col };
  };
  const seen = new Set<unknown>();

  const walk = (node: unknown, path: (string | number)[]): void => {
    // Anchored nodes are reached once; aliases share the node, so they see the same result.
    if (node === null || typeof node !== 'object' || seen.has(node)) return;
    seen.add(node);
    if (isMap(node)) {
      const first = new Map<string, number>();
      for (const pair of node.items) {
        const key = keyText(pair.key);
        if (key === undefined) continue;
        const keyOffset = (pair.key as { range?: [number, number, number] } | null)?.range?.[0] ?? 0;
        const earlier = first.get(key);
        if (earlier !== undefined && key !== '<<') {
          const keyPath = formatKeyPath([...path, key]);
          problems.push({
            code: ConfigErrors.DUPLICATE_KEY, file, ...at(keyOffset), keyPath,
            message: `duplicate key ${keyPath} (first set on line ${at(earlier).line}); keep one of them`,
          });
        } else if (earlier === undefined) {
          first.set(key, keyOffset);
        }
        walk(pair.value, [...path, key]);
      }
    } else if (isSeq(node)) {
      node.items.forEach((item, index) => walk(item, [...path, index]));
    } else if (isScalar(node) && typeof node.value === 'string' && hasReference(node.value)) {
      expandScalar(node as Scalar<unknown>, node.value, path);
    }
  };

  const expandScalar = (node: Scalar<unknown>, source: string, path: (string | number)[]): void => {
    const result = interpolateString(source, env);
    const keyPath = formatKeyPath(path);
    const position = at(node.range?.[0] ?? 0);
    if (result.malformed) {
      problems.push({ code: ConfigErrors.ENV, file, ...position, keyPath, message: `${keyPath || 'value'} has ${result.malformed}` });
      return;
    }
    for (const name of result.missing) {
      problems.push({
        code: ConfigErrors.ENV, file, ...position, keyPath,
        message: `${keyPath || 'value'} uses environment variable ${name}, which is not set (set it, or give a default: \${${name}:-value})`,
      });
    }
    if (result.missing.length > 0) return;
    const typed = node.type === Scalar.PLAIN && !node.tag && isWholeReference(source);
    node.value = typed ? readPlainScalar(result.text) : result.text;
  };

  walk(doc.contents, []);
  return problems;
}

/**
 * What the substituted text would mean had it been written in place: `8080` → 8080, `true` → true, `null` → null.
 * Anything that is not a single plain scalar (`a: b`, `[1]`, `x # y`, '') stays the string it is.
 */
function readPlainScalar(text: string): unknown {
  if (text.trim() === '') return text;
  const doc = parseDocument(text, { prettyErrors: false });
  const node = doc.contents;
  if (doc.errors.length > 0 || !isScalar(node) || node.type !== Scalar.PLAIN || doc.commentBefore || node.comment) return text;
  return typeof node.value === 'string' ? text : node.value;
}
