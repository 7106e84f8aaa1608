"""JSON as JavaScript writes and reads it: records must match the TypeScript engine's text byte for byte.

- ``stringify``: ``JSON.stringify`` (no HTML escaping, non-ASCII kept, control characters as ``\\u00xx`` except
  ``\\b \\f \\n \\r \\t``, lone surrogates as ``\\udxxx``; numbers as ``Number.prototype.toString`` writes them; object
  keys in JavaScript's property order: array indexes first, ascending, then the rest in insertion order).
- ``parse``: ``JSON.parse`` (numbers are doubles, a repeated key keeps its first place and its last value, objects
  in JavaScript's property order; ``NaN`` and ``Infinity`` are refused).
"""
from __future__ import annotations

import json
import math
import re
from decimal import Decimal
from json.encoder import encode_basestring
from typing import Any, Dict, List

_ESCAPE = re.compile(r'[\x00-\x1f"\\\ud800-\udfff]')
_NAMED = {'"': '\\"', '\\': '\\\\', '\b': '\\b', '\f': '\\f', '\n': '\\n', '\r': '\\r', '\t': '\\t'}
_ARRAY_INDEX = re.compile(r'(?:0|[1-9][0-9]{0,9})\Z')
_MAX_INDEX = 4294967294


def _escape_one(m: 're.Match[str]') -> str:
    c = m.group(0)
    named = _NAMED.get(c)
    return named if named is not None else '\\u%04x' % ord(c)


_SURROGATE = re.compile(r'[\ud800-\udfff]')


def js_string(s: str) -> str:
    """A string literal as ``JSON.stringify`` writes it (every surrogate in a Python str is a lone one)."""
    # The json module's C encoder escapes as JavaScript does (named escapes, other controls as lower-case \u00xx,
    # nothing else), except lone surrogates, which it leaves raw.
    if _SURROGATE.search(s) is None:
        return encode_basestring(s)
    return '"' + _ESCAPE.sub(_escape_one, s) + '"'


def stringify_strings(value: Any) -> str:
    """``stringify`` for the record's string parts: a list of strings, or a map of strings and string lists (query,
    headers, labels, routes), written with the C string encoder; anything else (an array-index key, a lone
    surrogate) by ``stringify``."""
    eb = encode_basestring
    if isinstance(value, list):
        out = '[' + ','.join(map(eb, value)) + ']'
    elif isinstance(value, dict):
        parts = []
        for k, v in value.items():
            if k[:1].isdigit():
                return stringify(value)
            parts.append(eb(k) + ':' + (eb(v) if isinstance(v, str) else '[' + ','.join(map(eb, v)) + ']'))
        out = '{' + ','.join(parts) + '}'
    else:
        return stringify(value)
    return out if _SURROGATE.search(out) is None else stringify(value)


def js_number(x: float) -> str:
    """``Number.prototype.toString`` of a finite double; ``null`` for NaN and the infinities (``JSON.stringify``)."""
    if isinstance(x, bool):
        return 'true' if x else 'false'
    if isinstance(x, int):
        if abs(x) <= 2 ** 53:
            return str(x)
        x = float(x)
    if math.isnan(x) or math.isinf(x):
        return 'null'
    if x == 0:
        return '0'
    if x.is_integer() and abs(x) < 2 ** 53:
        return str(int(x))
    sign = '-' if x < 0 else ''
    _, digits_t, exp = Decimal(repr(abs(x))).as_tuple()
    digits = ''.join(map(str, digits_t)).rstrip('0') or '0'
    # The value is 0.digits × 10^n.
    n = int(exp) + len(digits_t)
    k = len(digits)
    if k <= n <= 21:
        out = digits + '0' * (n - k)
    elif 0 < n <= 21:
        out = digits[:n] + '.' + digits[n:]
    elif -6 < n <= 0:
        out = '0.' + '0' * (-n) + digits
    else:
        e = n - 1
        mant = digits if k == 1 else digits[0] + '.' + digits[1:]
        out = mant + 'e' + ('+' if e >= 0 else '-') + str(abs(e))
    return sign + out


def is_array_index(key: str) -> bool:
    return _ARRAY_INDEX.match(key) is not None and int(key) <= _MAX_INDEX


def js_keys(obj: Dict[str, Any]) -> List[str]:
    """The keys of an object in JavaScript's own-property order."""
    keys = list(obj)
    indexes = [k for k in keys if k[:1].isdigit() and is_array_index(k)]
    if not indexes:
        return keys
    indexes.sort(key=int)
    chosen = set(indexes)
    return indexes + [k for k in keys if k not in chosen]


def js_ordered(obj: Dict[str, Any]) -> Dict[str, Any]:
    keys = js_keys(obj)
    if keys == list(obj):
        return obj
    return {k: obj[k] for k in keys}


def stringify(value: Any) -> str:
    """``JSON.stringify(value)`` for JSON-shaped Python values (None, bool, int, float, str, list, dict)."""
    if value is None:
        return 'null'
    if value is True:
        return 'true'
    if value is False:
        return 'false'
    if isinstance(value, str):
        return js_string(value)
    if isinstance(value, (int, float)):
        return js_number(value)
    if isinstance(value, (list, tuple)):
        return '[' + ','.join(stringify(v) for v in value) + ']'
    if isinstance(value, dict):
        return '{' + ','.join(js_string(k) + ':' + stringify(value[k]) for k in js_keys(value)) + '}'
    raise TypeError('not a JSON value: %r' % type(value))


def _refuse_constant(name: str) -> Any:
    raise ValueError('%s is not JSON' % name)


def _object(pairs: List[Any]) -> Dict[str, Any]:
    out: Dict[str, Any] = {}
    for k, v in pairs:
        out[k] = v
    return js_ordered(out)


_DECODER = json.JSONDecoder(object_pairs_hook=_object, parse_int=float, parse_constant=_refuse_constant)


def parse(text: str) -> Any:
    """``JSON.parse(text)``; raises ValueError on what it refuses."""
    return _DECODER.decode(text)
