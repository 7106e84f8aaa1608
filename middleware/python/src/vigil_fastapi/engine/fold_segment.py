"""One round of the fold on one path segment (policies/fold-segment.ts)."""
from __future__ import annotations

import re
import unicodedata

from .decode_escapes import decode_escapes

_TAB_OR_NEWLINE = re.compile(r'[\t\n\r]')
# JavaScript's `[\u0080-\uffff]` meets every non-ASCII character (astral ones as surrogate pairs).
_NEEDS_DECODING = re.compile(r'[%\x80-\U0010ffff]')
_NON_ASCII = re.compile(r'[\x80-\U0010ffff]')
_ASCII_UPPER = re.compile(r'[A-Z]')
_DOTTED_I = re.compile('i\u0307')
_UNPRINTABLE = re.compile(r'[\x00-\x1f\x7f-\U0010ffff]+')
_UNPRINTABLE_ONE = re.compile(r'[\x00-\x1f\x7f-\U0010ffff]')
_SEPARATORS = re.compile(r'[/\\]')
_LONE_SURROGATE = re.compile(r'[\ud800-\udfff]')
_DOTS = re.compile(r'\.+\Z')

IN_SEGMENT_SEPARATOR = '%2f'


def fold_segment_once(segment: str, keep_separators_in_segment: bool) -> str:
    if is_plain_segment(segment):
        return segment
    s = _TAB_OR_NEWLINE.sub('', segment)
    semicolon = s.find(';')
    if semicolon != -1:
        s = s[:semicolon]
    if _NEEDS_DECODING.search(s):
        s = decode_escapes(s)
    if _NON_ASCII.search(s):
        s = _unicode_caseless(unicodedata.normalize('NFKC', s))
    elif _ASCII_UPPER.search(s):
        s = s.lower()
    nul = s.find('\0')
    if nul != -1:
        s = s[:nul]
    s = _trim_segment(s)
    s = _SEPARATORS.sub(IN_SEGMENT_SEPARATOR, s) if keep_separators_in_segment else s.replace('\\', '/')
    return _UNPRINTABLE.sub(_utf8_escapes, s) if _UNPRINTABLE_ONE.search(s) else s


def is_plain_segment(segment: str) -> bool:
    for ch in segment:
        c = ord(ch)
        if c <= 0x20 or c >= 0x7f or 65 <= c <= 90 or c == 37 or c == 59 or c == 92:
            return False
    return not segment.endswith('.') or _DOTS.match(segment) is not None


def _unicode_caseless(s: str) -> str:
    return _DOTTED_I.sub('i', s.upper().lower())


def _utf8_escapes(m: 're.Match[str]') -> str:
    # TextEncoder writes a lone surrogate as U+FFFD.
    run = _LONE_SURROGATE.sub('\ufffd', m.group(0))
    return ''.join('%%%02x' % b for b in run.encode('utf-8'))


def _is_blank(c: int) -> bool:
    return c <= 0x20 or (c >= 0x85 and (c == 0x85 or c == 0xa0 or c == 0x1680 or c == 0x180e or 0x2000 <= c <= 0x200b
                                         or c == 0x2028 or c == 0x2029 or c == 0x202f or c == 0x205f or c == 0x3000 or c == 0xfeff))


def _trim_segment(s: str) -> str:
    start = 0
    end = len(s)
    while start < end and _is_blank(ord(s[start])):
        start += 1
    while end > start and _is_blank(ord(s[end - 1])):
        end -= 1
    name = end
    while name > start and (s[name - 1] == '.' or _is_blank(ord(s[name - 1]))):
        name -= 1
    if name > start:
        end = name
    return s if start == 0 and end == len(s) else s[start:end]
