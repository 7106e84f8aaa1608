// Path templates for field observations, cached by shape: a path's literal segments and the formats of its value
// segments decide its template (pathTemplate names parameters from nothing else), so `/orders/ord_8f3k2j9d1x` and
// `/orders/ord_1ak93hx7` share one entry while each is classified once per segment. Most traffic carries a new id in
// every path: a cache by whole path would miss every time, and pathTemplate costs a few microseconds per path.
// The shapes are a tree walked segment by segment (literal children by name, parameters by format): no shape string
// is built and hashed per path, and a uuid or a number is recognised without the regular expressions. Every exchange
// pays this, walked by field sampling or not (bench/field-recording.ts).
import { classifySegment, pathTemplate, type RouteTemplate } from './api-fields.js';

/** Nodes of the tree; cleared when full (a client inventing literals cannot grow it). */
const CACHE_MAX = 8_192;
/** Deeper paths go to pathTemplate as they are (it folds the rest into `{rest}`). */
const MAX_SEGMENTS = 32;

class ShapeNode {
  /** Children by literal segment: values are never kept, they are new on every request. */
  readonly literals = new Map<string, ShapeNode>();
  /** Children by the format that made the segment a parameter. */
  readonly params = new Map<string, ShapeNode>();
  /** The template of a path that ends here. */
  template: RouteTemplate | null = null;
}

let root = new ShapeNode();
let nodes = 0;

export function templateOf(path: string): RouteTemplate {
  if (path.charCodeAt(0) !== 47 /* / */) return pathTemplate(path);
  let node = root;
  let start = 1;
  let segments = 0;
  for (let i = 1; i <= path.length; i++) {
    if (i < path.length && path.charCodeAt(i) !== 47) continue;
    if (++segments > MAX_SEGMENTS) return pathTemplate(path);
    const segment = path.slice(start, i);
    start = i + 1;
    // A uuid or a number first: a look at its first characters, where a literal lookup would hash the whole id.
    const quick = quickFormat(segment);
    if (quick !== null) {
      node = child(node.params, quick);
      continue;
    }
    const literal = node.literals.get(segment);
    if (literal !== undefined) {
      node = literal;
      continue;
    }
    const format = formatOf(segment);
    node = format === null ? child(node.literals, segment) : child(node.params, format);
  }
  return node.template ??= pathTemplate(path);
}

function child(map: Map<string, ShapeNode>, key: string): ShapeNode {
  let next = map.get(key);
  if (next === undefined) {
    if (nodes >= CACHE_MAX) {
      root = new ShapeNode();
      nodes = 0;
    }
    next = new ShapeNode();
    map.set(key, next);
    nodes++;
  }
  return next;
}

/** classifySegment's answer: the parameter format, or null for a literal. */
function formatOf(segment: string): string | null {
  const kind = classifySegment(segment);
  return kind.param ? kind.format : null;
}

/**
 * The two commonest ids, recognised as classifySegment would (its first tests: a version starts with `v`, so neither
 * is one), a character at a time; anything else is left to it.
 */
function quickFormat(segment: string): string | null {
  const n = segment.length;
  if (n === 0) return null;
  if (n === 36) {
    for (let i = 0; i < 36; i++) {
      const c = segment.charCodeAt(i);
      if (i === 8 || i === 13 || i === 18 || i === 23) {
        if (c !== 45) return null;
      } else if (!((c >= 48 && c <= 57) || ((c | 32) >= 97 && (c | 32) <= 102))) return null;
    }
    return 'uuid';
  }
  for (let i = 0; i < n; i++) {
    const c = segment.charCodeAt(i);
    if (c < 48 || c > 57) return null;
  }
  return 'integer';
}
