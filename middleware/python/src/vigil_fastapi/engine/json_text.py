"""JSON governed as text (policies/json-text.ts): validated exactly as ``JSON.parse`` would, the values redaction
paths match replaced by the marker, the number a meter path points at read; the rest of the text kept as it is.

Validation runs in C (``json``), with what JavaScript refuses refused too (``NaN``, ``Infinity``) and the depth
bound of the TypeScript scan (``MAX_JSON_DEPTH``); a document it refuses is scanned by ``_first_problem``, which says
what the TypeScript scan says first (malformed or too deep). Paths are then walked over the validated text.
"""
from __future__ import annotations

import json
import re
from json.decoder import scanstring
from typing import List, NamedTuple, Optional, Sequence, Tuple

from .compile_json_path import ANY, DEEP, REDACTED, CompiledJsonPath, PathAutomaton, automaton_of
from .js_json import js_string

MAX_JSON_DEPTH = 256
_MARKER_JSON = js_string(REDACTED)


def _refuse(name: str) -> None:
    raise ValueError(name)


_VALIDATOR = json.JSONDecoder(parse_constant=_refuse)
_SCAN_ONCE = _VALIDATOR.scan_once
_WS = re.compile(r'[ \t\n\r]*').match
_BLANKS = frozenset(' \t\n\r')
_SCANSTRING = scanstring
_NUMBER = re.compile(r'-?(?:0|[1-9][0-9]*)(?:\.[0-9]+)?(?:[eE][+-]?[0-9]+)?')


class JsonTextResult(NamedTuple):
    ok: bool
    text: str = ''
    redactions: int = 0
    number: Optional[float] = None
    reason: str = ''


def govern_json_text(text: str, redact: Sequence[CompiledJsonPath] = (), read: Optional[CompiledJsonPath] = None) -> JsonTextResult:
    if not redact and read is None:
        try:
            value = _VALIDATOR.decode(text)
            valid = True
        except (ValueError, RecursionError):
            valid = False
        if not valid or (text.count('[') + text.count('{') > MAX_JSON_DEPTH and _too_deep(value)):
            return JsonTextResult(False, reason=_first_problem(text) or 'malformed')
        return JsonTextResult(True, text, 0, None)
    # The walk validates as it goes (the C scanner takes every value no path reaches): one pass, not two.
    scan = _Scan(text, redact, read)
    try:
        scan.document()
    except (ValueError, IndexError, StopIteration, RecursionError):
        return JsonTextResult(False, reason=_first_problem(text) or 'malformed')
    if text.count('[') + text.count('{') > MAX_JSON_DEPTH and _too_deep(_VALIDATOR.decode(text)):
        return JsonTextResult(False, reason=_first_problem(text) or 'too-deep')
    return JsonTextResult(True, scan.output(), scan.redactions, scan.number)


class _Scan:
    """The paths' walk over a validated document (the TypeScript scan's `value`, `object`, `array` and `child`)."""

    def __init__(self, text: str, redact: Sequence[CompiledJsonPath], read: Optional[CompiledJsonPath]) -> None:
        self.text = text
        self.pos = 0
        self.out: List[str] = []
        self.copied_to = 0
        self.redactions = 0
        self.number: Optional[float] = None
        self.paths: List[PathAutomaton] = [automaton_of(p) for p in redact]
        self.redact_count = len(self.paths)
        if read is not None:
            self.paths.append(automaton_of(read))

    def output(self) -> str:
        if self.redactions == 0:
            return self.text
        return ''.join(self.out) + self.text[self.copied_to:]

    def document(self) -> None:
        """Raises ValueError (or IndexError, StopIteration) where the text is not one JSON value."""
        states = [p.start for p in self.paths]
        self.pos = _WS(self.text, 0).end()
        if any(states):
            self._value(states, True)
        else:
            self.pos = _SCAN_ONCE(self.text, self.pos)[1]
        if _WS(self.text, self.pos).end() != len(self.text):
            raise ValueError('extra data')

    def _value(self, states: List[int], matched: bool) -> None:
        text = self.text
        want_number = False
        if matched:
            for p, path in enumerate(self.paths):
                if states[p] & path.matched:
                    if p < self.redact_count:
                        start = self.pos
                        self.pos = _SCAN_ONCE(text, start)[1]
                        self.out.append(text[self.copied_to:start])
                        self.out.append(_MARKER_JSON)
                        self.copied_to = self.pos
                        self.redactions += 1
                        return
                    want_number = True
        c = text[self.pos]
        if c == '{' or c == '[':
            is_object = c == '{'
            close = '}' if is_object else ']'
            pos = self.pos + 1
            if text[pos] in _BLANKS:
                pos = _WS(text, pos).end()
            if text[pos] == close:
                self.pos = pos + 1
                return
            paths = self.paths
            index = 0
            key: Optional[str] = None
            while True:
                if is_object:
                    if text[pos] != '"':
                        raise ValueError('a key expected')
                    key, pos = _SCANSTRING(text, pos + 1)
                    if text[pos] != ':':
                        pos = _WS(text, pos).end()
                        if text[pos] != ':':
                            raise ValueError('":" expected')
                    pos += 1
                    if text[pos] in _BLANKS:
                        pos = _WS(text, pos).end()
                # The child's states, from each path's states here.
                nxt: List[int] = []
                live = False
                child_matched = False
                for p, path in enumerate(paths):
                    m = states[p]
                    if m:
                        m = _step(path, m, key, index)
                        if m:
                            live = True
                            if m & path.matched:
                                child_matched = True
                    nxt.append(m)
                if live:
                    self.pos = pos
                    self._value(nxt, child_matched)
                    pos = self.pos
                else:
                    pos = _SCAN_ONCE(text, pos)[1]
                if text[pos] in _BLANKS:
                    pos = _WS(text, pos).end()
                c = text[pos]
                pos += 1
                if c == close:
                    self.pos = pos
                    return
                if c != ',':
                    raise ValueError('"," expected')
                if text[pos] in _BLANKS:
                    pos = _WS(text, pos).end()
                index += 1
        elif want_number and self.number is None and (c == '-' or '0' <= c <= '9'):
            m = _NUMBER.match(text, self.pos)
            if m is None:
                raise ValueError('a number expected')
            self.pos = m.end()
            n = float(m.group(0))
            if n == n and n not in (float('inf'), float('-inf')) and n >= 0:
                self.number = n
        else:
            self.pos = _SCAN_ONCE(text, self.pos)[1]


def _step(path: PathAutomaton, mask: int, key: Optional[str], index: int) -> int:
    nxt = 0
    kinds = path.kinds
    for i in range(path.count):
        bit = 1 << i
        if not mask & bit:
            continue
        kind = kinds[i]
        if kind == DEEP:
            nxt |= bit
        elif kind == ANY:
            nxt |= bit << 1
        elif (path.indexes[i] == index) if key is None else (path.names[i] == key):
            nxt |= bit << 1
    return nxt | ((nxt & path.deep) << 1)


def _too_deep(value: object) -> bool:
    """Some container of the parsed document has MAX_JSON_DEPTH containers around it."""
    stack = [(value, 0)]
    while stack:
        v, level = stack.pop()
        if isinstance(v, dict):
            children = v.values()
        elif isinstance(v, list):
            children = v
        else:
            continue
        if level >= MAX_JSON_DEPTH:
            return True
        stack.extend((c, level + 1) for c in children if isinstance(c, (dict, list)))
    return False


# ---- what the TypeScript scan reports first of a document it refuses ---------------------------------------------

_STRING = re.compile(r'"(?:[^"\\\x00-\x1f]|\\(?:["\\/bfnrt]|u[0-9a-fA-F]{4}))*"')


def _first_problem(text: str) -> Optional[str]:
    """'malformed' or 'too-deep', whichever a left-to-right scan meets first; None when the text is one JSON value."""
    pos = _WS(text, 0).end()
    n = len(text)
    # Each open container: its closing character, and whether a member (object) or element (array) is expected next.
    stack: List[Tuple[str, int]] = []
    # 0: a value is expected; 1: after a value
    expect_value = True
    while True:
        if expect_value:
            if pos >= n:
                return 'malformed'
            c = text[pos]
            if c == '{' or c == '[':
                if len(stack) >= MAX_JSON_DEPTH:
                    return 'too-deep'
                close = '}' if c == '{' else ']'
                pos = _WS(text, pos + 1).end()
                if pos < n and text[pos] == close:
                    pos += 1
                    expect_value = False
                else:
                    stack.append((close, 0))
                    if close == '}':
                        pos = _key(text, pos)
                        if pos < 0:
                            return 'malformed'
                    continue
            elif c == '"':
                m = _STRING.match(text, pos)
                if m is None:
                    return 'malformed'
                pos = m.end()
                expect_value = False
            elif c == '-' or '0' <= c <= '9':
                m = _NUMBER.match(text, pos)
                if m is None:
                    return 'malformed'
                pos = m.end()
                expect_value = False
            else:
                for word in ('true', 'false', 'null'):
                    if text.startswith(word, pos):
                        pos += len(word)
                        break
                else:
                    return 'malformed'
                expect_value = False
            continue
        pos = _WS(text, pos).end()
        if not stack:
            return None if pos == n else 'malformed'
        close = stack[-1][0]
        c = text[pos] if pos < n else ''
        pos += 1
        if c == close:
            stack.pop()
            continue
        if c != ',':
            return 'malformed'
        pos = _WS(text, pos).end()
        if close == '}':
            pos = _key(text, pos)
            if pos < 0:
                return 'malformed'
        expect_value = True


def _key(text: str, pos: int) -> int:
    """After a key and its colon (and the blanks after it), or -1."""
    m = _STRING.match(text, pos)
    if m is None:
        return -1
    pos = _WS(text, m.end()).end()
    if pos >= len(text) or text[pos] != ':':
        return -1
    return _WS(text, pos + 1).end()
