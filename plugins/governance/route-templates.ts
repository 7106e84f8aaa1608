// Path templates for field observations, cached by shape: a path's literal segments and the formats of its value
// segments decide its template (pathTemplate names parameters from nothing else), so `/orders/ord_8f3k2j9d1x` and
// `/orders/ord_1ak93hx7` share one entry while each is classified once per segment. Most traffic carries a new id in
// every path: a cache by whole path would miss every time, and pathTemplate costs a few microseconds per path.
import { classifySegment, pathTemplate, type RouteTemplate } from '@vigil/plugin-sdk';

/** Entries of each cache; cleared when full (a client inventing literals cannot grow them). */
const CACHE_MAX = 4_096;
/** Literal segments, known not to be values. Values are never kept: they are new on every request. */
const literals = new Set<string>();
const byShape = new Map<string, RouteTemplate>();
/** Deeper paths go to pathTemplate as they are (it folds the rest into `{rest}`). */
const MAX_SEGMENTS = 32;

export function templateOf(path: string): RouteTemplate {
  if (path.charCodeAt(0) !== 47 /* / */) return pathTemplate(path);
  let shape = '';
  let start = 1;
  let segments = 0;
  for (let i = 1; i <= path.length; i++) {
    if (i < path.length && path.charCodeAt(i) !== 47) continue;
    if (++segments > MAX_SEGMENTS) return pathTemplate(path);
    const segment = path.slice(start, i);
    if (literals.has(segment)) shape += `/${segment}`;
    else {
      const kind = classifySegment(segment);
      if (kind.param) shape += `/\u0000${kind.format}`;
      else {
        if (literals.size >= CACHE_MAX) literals.clear();
        literals.add(segment);
        shape += `/${segment}`;
      }
    }
    start = i + 1;
  }
  let template = byShape.get(shape);
  if (template === undefined) {
    template = pathTemplate(path);
    if (byShape.size >= CACHE_MAX) byShape.clear();
    byShape.set(shape, template);
  }
  return template;
}
