// A compiled JSON path as the text scan of json-text.ts runs it: flat per-segment arrays and a bit per state, so
// matching a key is a few shifts and no allocation.
import type { CompiledJsonPath } from './compile-json-path.js';

const KEY = 0;
export const ANY = 1;
export const DEEP = 2;

/** A compiled path as the scan runs it: flat per-segment arrays, and its state bits. */
export interface PathAutomaton {
  readonly kinds: Uint8Array;
  /** Per segment: the key's name ('' for a wildcard). */
  readonly names: readonly string[];
  /** Per segment: the array index the key's name selects (as `String(index)` spells it), else -1. */
  readonly indexes: Int32Array;
  /** Bits of the `**` segments, whose states also stand at the segment after them. */
  readonly deep: number;
  /** The state bit of a match. */
  readonly matched: number;
  /** States at the document's root. */
  readonly start: number;
}

// A policy's paths live as long as its decisions, so each is turned into an automaton once.
const automata = new WeakMap<CompiledJsonPath, PathAutomaton>();

export function automatonOf(path: CompiledJsonPath): PathAutomaton {
  let automaton = automata.get(path);
  if (automaton === undefined) {
    // `**.**` is `**`: merged here too (compileJsonPath already does), so one shift closes a state set (`step`).
    const segments = path.segments.filter((s, i) => !(s.kind === 'deep' && path.segments[i - 1]?.kind === 'deep'));
    const kinds = new Uint8Array(segments.length);
    const indexes = new Int32Array(segments.length).fill(-1);
    let deep = 0;
    segments.forEach((s, i) => {
      if (s.kind === 'key') {
        kinds[i] = KEY;
        if (/^(?:0|[1-9][0-9]{0,8})$/.test(s.name)) indexes[i] = Number(s.name);
      } else if (s.kind === 'any') kinds[i] = ANY;
      else {
        kinds[i] = DEEP;
        deep |= 1 << i;
      }
    });
    const names = segments.map((s) => (s.kind === 'key' ? s.name : ''));
    automaton = { kinds, names, indexes, deep, matched: 1 << segments.length, start: 1 | ((1 & deep) << 1) };
    automata.set(path, automaton);
  }
  return automaton;
}
