// A string that matches a schema's `pattern`, for the simple patterns specs use (`^[A-Z]{3}-[0-9]{4}$`,
// `^\+?[0-9]{7,15}$`, `^(draft|live)$`): literals, escapes, classes, groups with alternatives, and quantifiers.
// Anything else (lookarounds, backreferences) gives undefined, and the caller keeps its own value.
import type { Random } from '@vigil/plugin-sdk';

type Node =
  | { kind: 'chars'; chars: string }
  | { kind: 'group'; alternatives: Node[][] }
  | { kind: 'repeat'; node: Node; min: number; max: number };

const DIGITS = '0123456789';
const WORD = 'abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789_';
const ESCAPES: Record<string, string> = { d: DIGITS, w: WORD, s: ' ', n: '\n', t: '\t' };
/** How far `*`, `+` and `{n,}` reach: enough to look real, short enough to stay inside a maxLength. */
const OPEN_REPEAT = 3;

class Unsupported extends Error {}

function parse(source: string): Node[] {
  let i = 0;
  const sequence = (): Node[][] => {
    const alternatives: Node[][] = [[]];
    while (i < source.length && source[i] !== ')') {
      const c = source[i];
      if (c === '|') { i++; alternatives.push([]); continue; }
      let node: Node;
      if (c === '^' || c === '$') { i++; continue; }
      if (c === '(') {
        i++;
        if (source[i] === '?') {
          if (source[i + 1] !== ':') throw new Unsupported('lookaround');
          i += 2;
        }
        const inner = sequence();
        if (source[i] !== ')') throw new Unsupported('unclosed group');
        i++;
        node = { kind: 'group', alternatives: inner };
      } else if (c === '[') node = { kind: 'chars', chars: charClass() };
      else if (c === '\\') node = { kind: 'chars', chars: escape() };
      else if (c === '.') { i++; node = { kind: 'chars', chars: WORD }; }
      else if ('*+?{'.includes(c)) throw new Unsupported('quantifier without a target');
      else { i++; node = { kind: 'chars', chars: c }; }
      alternatives[alternatives.length - 1].push(quantified(node));
    }
    return alternatives;
  };
  const escape = (): string => {
    const e = source[i + 1];
    i += 2;
    if (e === undefined || /[1-9bBDWS]/.test(e)) throw new Unsupported(`\\${e}`);
    return ESCAPES[e] ?? e;
  };
  const charClass = (): string => {
    i++;
    if (source[i] === '^') throw new Unsupported('negated class');
    let chars = '';
    while (i < source.length && source[i] !== ']') {
      const from = source[i] === '\\' ? escape() : source[i++];
      if (source[i] === '-' && source[i + 1] !== ']' && from.length === 1) {
        i++;
        const to = source[i] === '\\' ? escape() : source[i++];
        for (let code = from.charCodeAt(0); code <= to.charCodeAt(0); code++) chars += String.fromCharCode(code);
      } else chars += from;
    }
    if (source[i] !== ']' || !chars) throw new Unsupported('bad class');
    i++;
    return chars;
  };
  const quantified = (node: Node): Node => {
    const q = source[i];
    let min = 1;
    let max = 1;
    if (q === '*') { min = 0; max = OPEN_REPEAT; i++; }
    else if (q === '+') { min = 1; max = OPEN_REPEAT; i++; }
    else if (q === '?') { min = 0; max = 1; i++; }
    else if (q === '{') {
      const m = /^\{(\d+)(,(\d*))?\}/.exec(source.slice(i));
      if (!m) throw new Unsupported('bad quantifier');
      min = Number(m[1]);
      max = m[2] === undefined ? min : m[3] ? Number(m[3]) : min + OPEN_REPEAT;
      i += m[0].length;
    } else return node;
    if (source[i] === '?' || source[i] === '+') i++; // lazy and possessive forms generate alike
    return { kind: 'repeat', node, min, max };
  };
  const out = sequence();
  if (i < source.length) throw new Unsupported('unbalanced )');
  return [{ kind: 'group', alternatives: out }];
}

function emit(nodes: Node[], random: Random): string {
  let out = '';
  for (const node of nodes) {
    if (node.kind === 'chars') out += node.chars[Math.floor(random() * node.chars.length)];
    else if (node.kind === 'group') out += emit(node.alternatives[Math.floor(random() * node.alternatives.length)], random);
    else {
      const n = node.min + Math.floor(random() * (node.max - node.min + 1));
      for (let k = 0; k < n; k++) out += emit([node.node], random);
    }
  }
  return out;
}

/** A string matching `pattern` (checked with the real RegExp), or undefined when the pattern is beyond this subset. */
export function stringForPattern(pattern: string, random: Random): string | undefined {
  let re: RegExp;
  try {
    re = new RegExp(pattern, 'u');
  } catch {
    return undefined;
  }
  try {
    const nodes = parse(pattern);
    for (let attempt = 0; attempt < 5; attempt++) {
      const s = emit(nodes, random);
      if (re.test(s)) return s;
    }
  } catch (err) {
    if (!(err instanceof Unsupported)) throw err;
  }
  return undefined;
}
