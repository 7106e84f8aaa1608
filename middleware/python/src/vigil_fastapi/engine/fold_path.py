"""The paths rules are matched against: every reading of a request-target, folded (policies/fold-path.ts)."""
from __future__ import annotations

import re
import unicodedata
from typing import List, Optional

from .decode_escapes import decode_escapes
from .fold_segment import fold_segment_once, is_plain_segment

MAX_FOLD_ROUNDS = 8
MAX_FOLD_LENGTH = 2048

_ABSOLUTE_FORM = re.compile(r'[A-Za-z][A-Za-z0-9+.-]*:[/\\]{2}[^/\\?#]*')
_AUTHORITY = re.compile(r'[/\\]{2,}[^/\\]*')
_PLAIN = frozenset("abcdefghijklmnopqrstuvwxyz0123456789-._~!$&'()*+,=:@")
_TERMINATOR = re.compile(r'[?#\0\t\n\r ]')
_ESCAPED_OR_WIDE = re.compile(r'[%\x80-\U0010ffff]')
_ASTRAL = re.compile(r'[\U00010000-\U0010ffff]')


def _js_length(s: str) -> int:
    """``s.length`` in JavaScript: UTF-16 units."""
    n = len(s)
    return n + len(_ASTRAL.findall(s)) if n and max(s) > '\uffff' else n


def received_path(target: str) -> str:
    q = target.find('?')
    return target if q == -1 else target[:q]


def is_folded(path: str) -> bool:
    n = len(path)
    if n == 0 or path[0] != '/':
        return False
    if n == 1:
        return True
    prev = '/'
    for c in path[1:]:
        if c == '/':
            if prev == '/' or prev == '.':
                return False
        elif c not in _PLAIN:
            return False
        prev = c
    return path[-1] != '/' and path[-1] != '.'


def _folded_lower_case(path: str) -> Optional[str]:
    lower = path.lower()
    return lower if is_folded(lower) else None


def _origin_form(target: str) -> str:
    if target[:1] in ('/', '\\'):
        return target
    m = _ABSOLUTE_FORM.match(target)
    rest = target[m.end():] if m else target
    return rest if rest[:1] in ('/', '\\') else '/' + rest


def _resolve_dots(segments: List[str]) -> List[str]:
    out: List[str] = []
    for s in segments:
        if s == '' or s == '.':
            continue
        if s == '..':
            if out:
                out.pop()
        else:
            out.append(s)
    return out


def _decoding_round(path: str) -> str:
    folded = [fold_segment_once(s, False) for s in path.replace('\\', '/').split('/')]
    return '/' + '/'.join(_resolve_dots('/'.join(folded).split('/')))


def fold_path(target: str) -> Optional[str]:
    path = received_path(target)
    if is_folded(path):
        return path
    lower = _folded_lower_case(path)
    if lower is not None:
        return lower
    if _js_length(path) > MAX_FOLD_LENGTH:
        return None
    current = _origin_form(path)
    round_ = 1
    while True:
        nxt = _decoding_round(current)
        if nxt == current:
            return nxt
        if round_ > MAX_FOLD_ROUNDS:
            return None
        if is_folded(nxt):
            return nxt
        current = nxt
        round_ += 1


def _fold_segment(segment: str) -> Optional[str]:
    current = segment
    round_ = 1
    while True:
        nxt = fold_segment_once(current, True)
        if nxt == current:
            return nxt
        if round_ > MAX_FOLD_ROUNDS:
            return None
        if is_plain_segment(nxt):
            return nxt
        current = nxt
        round_ += 1


def _without_extension(path: str) -> List[str]:
    slash = path.rfind('/')
    start = slash + 1
    while start < len(path) and path[start] == '.':
        start += 1
    first = -1 if start == len(path) else path.find('.', start + 1)
    if first == -1:
        return []
    last = path.rfind('.')
    return [path[:first]] if last == first else [path[:first], path[:last]]


def _with_extension_readings(readings: List[str]) -> List[str]:
    out = list(readings)
    for r in readings:
        for e in _without_extension(r):
            if e not in out:
                out.append(e)
    return out


def _terminated_readings(received: str) -> Optional[List[str]]:
    out: List[str] = []
    text = received
    layer = 0
    while layer <= MAX_FOLD_ROUNDS and _ESCAPED_OR_WIDE.search(text):
        decoded = unicodedata.normalize('NFKC', decode_escapes(text))
        if decoded == text:
            break
        m = _TERMINATOR.search(decoded)
        if m is not None:
            part = path_readings(decoded[:m.start()])
            if part is None:
                return None
            for r in part:
                if r not in out:
                    out.append(r)
            return out
        text = decoded
        layer += 1
    return out


def path_readings(target: str) -> Optional[List[str]]:
    received = received_path(target)
    if is_folded(received):
        return _with_extension_readings([received])
    lower = _folded_lower_case(received)
    if lower is not None:
        return _with_extension_readings([lower])
    decoding = fold_path(received)
    if decoding is None:
        return None
    path = _origin_form(received)
    hash_at = path.find('#')
    raw = (path if hash_at == -1 else path[:hash_at]).replace('\\', '/')
    literal: List[str] = []
    for segment in raw.split('/'):
        folded = _fold_segment(segment)
        if folded is None:
            return None
        literal.append(folded)
    authority = _AUTHORITY.match(raw)
    host_segments = len(authority.group(0).split('/')) if authority else 0
    whatwg = '/' + '/'.join(_resolve_dots(literal[host_segments:]))
    router = '/' + '/'.join(s for s in literal if s != '')
    readings = [decoding]
    for r in (whatwg, router):
        if r not in readings:
            readings.append(r)
    terminated = _terminated_readings(received)
    if terminated is None:
        return None
    all_ = _with_extension_readings(readings)
    for r in terminated:
        if r not in all_:
            all_.append(r)
    return all_
