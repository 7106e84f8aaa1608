"""JSON paths: ``$.a.b``, ``$.*.x``, ``$.**.x``, ``$['a.b'][0]`` (policies/compile-json-path.ts)."""
from __future__ import annotations

import re
from typing import List, NamedTuple, Tuple

from .errors import KeyPath, PolicyError
from .js_json import js_string

REDACTED = '[REDACTED]'
MAX_SEGMENTS = 30
KEY, ANY, DEEP = 0, 1, 2

_DIGITS = re.compile(r'[0-9]+\Z')
_QUOTED = re.compile(r"'(?:[^'\\]|\\.)*'\Z|\"(?:[^\"\\]|\\.)*\"\Z")
_UNESCAPE = re.compile(r'\\(.)')
_INDEX_NAME = re.compile(r'(?:0|[1-9][0-9]{0,8})\Z')


class CompiledJsonPath(NamedTuple):
    expression: str
    # (kind, name) per segment; name is '' for wildcards.
    segments: Tuple[Tuple[int, str], ...]


def compile_json_path(expression: str, where: KeyPath = ('json_path',)) -> CompiledJsonPath:
    def fail(why: str) -> PolicyError:
        return PolicyError('JSON_PATH', where, '%s: %s' % (js_string(expression) if isinstance(expression, str) else repr(expression), why))

    if not isinstance(expression, str) or expression[:1] != '$':
        raise fail('must start with "$" (e.g. "$.card.number")')
    segments: List[Tuple[int, str]] = []
    i = 1
    n = len(expression)
    while i < n:
        c = expression[i]
        if c == '.':
            j = i + 1
            while j < n and expression[j] != '.' and expression[j] != '[':
                j += 1
            name = expression[i + 1:j]
            if name == '':
                raise fail('empty name at offset %d (write "$.a.b", "$.*.x" or "$.**.x")' % (i + 1))
            if name == '**':
                if not segments or segments[-1][0] != DEEP:
                    segments.append((DEEP, ''))
            elif name == '*':
                segments.append((ANY, ''))
            elif '*' in name:
                raise fail('"%s": "*" and "**" must be a whole name' % name)
            else:
                segments.append((KEY, name))
            i = j
        elif c == '[':
            close = _bracket_end(expression, i)
            if close == -1:
                raise fail('unclosed "[" at offset %d' % i)
            inner = expression[i + 1:close]
            if inner == '*':
                segments.append((ANY, ''))
            elif _DIGITS.match(inner):
                segments.append((KEY, str(int(inner))))
            elif _QUOTED.match(inner):
                segments.append((KEY, _UNESCAPE.sub(r'\1', inner[1:-1])))
            else:
                raise fail('"[%s]": write [*], [0] or [\'name\']' % inner)
            i = close + 1
        else:
            raise fail('unexpected "%s" at offset %d' % (c, i))
    if segments and segments[-1][0] == DEEP:
        raise fail('cannot end with "**" (name the key it leads to, e.g. "$.**.card", or use "$" for the whole body)')
    if len(segments) > MAX_SEGMENTS:
        raise fail('more than %d segments' % MAX_SEGMENTS)
    return CompiledJsonPath(expression, tuple(segments))


def _bracket_end(text: str, open_at: int) -> int:
    quote = text[open_at + 1] if open_at + 1 < len(text) else ''
    if quote in ("'", '"'):
        k = open_at + 2
        while k < len(text):
            if text[k] == '\\':
                k += 2
                continue
            if text[k] == quote:
                return k + 1 if k + 1 < len(text) and text[k + 1] == ']' else -1
            k += 1
        return -1
    return text.find(']', open_at)


class PathAutomaton:
    """A compiled path as the text scan runs it (policies/json-path-automaton.ts)."""
    __slots__ = ('kinds', 'names', 'indexes', 'deep', 'matched', 'start', 'count')

    def __init__(self, path: CompiledJsonPath) -> None:
        segments = [s for i, s in enumerate(path.segments) if not (s[0] == DEEP and i > 0 and path.segments[i - 1][0] == DEEP)]
        self.kinds = [s[0] for s in segments]
        self.names = [s[1] for s in segments]
        self.indexes = [int(s[1]) if s[0] == KEY and _INDEX_NAME.match(s[1]) else -1 for s in segments]
        deep = 0
        for i, s in enumerate(segments):
            if s[0] == DEEP:
                deep |= 1 << i
        self.deep = deep
        self.count = len(segments)
        self.matched = 1 << len(segments)
        self.start = 1 | ((1 & deep) << 1)


_automata: dict = {}


def automaton_of(path: CompiledJsonPath) -> PathAutomaton:
    a = _automata.get(path)
    if a is None:
        a = PathAutomaton(path)
        if len(_automata) < 4096:
            _automata[path] = a
    return a
