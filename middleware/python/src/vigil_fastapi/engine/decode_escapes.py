"""One round of percent-decoding, as lenient as the most lenient decoder an upstream might run (policies/decode-escapes.ts)."""
from __future__ import annotations

from typing import Dict, List, Optional

_HEX = {c: int(c, 16) for c in '0123456789abcdefABCDEF'}


def _hex_at(text: str, at: int, digits: int) -> int:
    if at + digits > len(text):
        return -1
    v = 0
    for i in range(at, at + digits):
        d = _HEX.get(text[i])
        if d is None:
            return -1
        v = v * 16 + d
    return v


def _push_utf8(out: List[int], cp: int) -> None:
    if cp < 0x80:
        out.append(cp)
    elif cp < 0x800:
        out.extend((0xc0 | (cp >> 6), 0x80 | (cp & 63)))
    elif cp < 0x10000:
        out.extend((0xe0 | (cp >> 12), 0x80 | ((cp >> 6) & 63), 0x80 | (cp & 63)))
    else:
        out.extend((0xf0 | (cp >> 18), 0x80 | ((cp >> 12) & 63), 0x80 | ((cp >> 6) & 63), 0x80 | (cp & 63)))


def _sequence_length(lead: int) -> int:
    if lead < 0xc0:
        return 0
    if lead < 0xe0:
        return 2
    if lead < 0xf0:
        return 3
    if lead < 0xf8:
        return 4
    if lead < 0xfc:
        return 5
    return 6 if lead < 0xfe else 0


def _is_u(text: str, at: int) -> bool:
    return at < len(text) and text[at] in 'uU'


def decode_escapes(text: str) -> str:
    """Decodes ``%XX`` and ``%uXXXX`` escapes, reading the bytes as UTF-8 with the characters around them."""
    data: List[int] = []
    kept: Optional[Dict[int, str]] = None
    i = 0
    n = len(text)
    while i < n:
        c = text[i]
        if c == '%':
            byte = _hex_at(text, i + 1, 2)
            if byte >= 0:
                data.append(byte)
                i += 3
                continue
            if _is_u(text, i + 1):
                unit = _hex_at(text, i + 2, 4)
                if unit >= 0:
                    low = _hex_at(text, i + 8, 4) if (0xd800 <= unit < 0xdc00 and i + 6 < n and text[i + 6] == '%'
                                                      and _is_u(text, i + 7)) else -1
                    if 0xdc00 <= low < 0xe000:
                        _push_utf8(data, 0x10000 + ((unit - 0xd800) << 10) + (low - 0xdc00))
                        i += 12
                    elif 0xd800 <= unit < 0xe000:
                        if kept is None:
                            kept = {}
                        kept[len(data)] = '%u' + text[i + 2:i + 6].lower()
                        data.append(-1)
                        i += 6
                    else:
                        _push_utf8(data, unit)
                        i += 6
                    continue
        _push_utf8(data, ord(c))
        i += 1
    return _read_utf8(data, kept)


def _read_utf8(data: List[int], kept: Optional[Dict[int, str]]) -> str:
    out: List[str] = []
    i = 0
    n = len(data)
    while i < n:
        b = data[i]
        if b == -1:
            assert kept is not None
            out.append(kept[i])
            i += 1
            continue
        if b < 0x80:
            out.append(chr(b))
            i += 1
            continue
        k = _sequence_length(b)
        cp = -1 if k == 0 else b & (0x7f >> k)
        j = 1
        while j < k and cp >= 0:
            nxt = data[i + j] if i + j < n else -1
            cp = cp * 64 + (nxt & 63) if nxt >= 0 and (nxt & 0xc0) == 0x80 else -1
            j += 1
        if cp < 0 or cp > 0x10ffff or 0xd800 <= cp < 0xe000:
            out.append('%%%02x' % b)
            i += 1
        else:
            out.append(chr(cp))
            i += k
    return ''.join(out)
