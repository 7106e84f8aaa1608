"""Header and query records (gateway/govern/header-record.ts, query-record.ts, exchange/hop-by-hop.ts)."""
from __future__ import annotations

import re
from typing import Dict, FrozenSet, List, Optional, Sequence, Set, Union

from .compile_json_path import REDACTED

Values = Dict[str, Union[str, List[str]]]

_TOKEN = re.compile(r"[!#$%&'*+.^_`|~0-9A-Za-z-]+\Z")
_WORD_START = re.compile(r'(^|-)([a-z])')
_canonical: Dict[str, str] = {}
_CANONICAL_CACHE_MAX = 2048

HOP_BY_HOP = frozenset(('connection', 'keep-alive', 'proxy-connection', 'te', 'trailer', 'transfer-encoding', 'upgrade'))
_NEVER_DROPPED_BY_CONNECTION = frozenset(('host', 'content-length'))


def canonical_header_name(name: str) -> str:
    hit = _canonical.get(name)
    if hit is not None:
        return hit
    out = name if not _TOKEN.match(name) else _WORD_START.sub(lambda m: m.group(1) + m.group(2).upper(), name.lower())
    if len(_canonical) < _CANONICAL_CACHE_MAX:
        _canonical[name] = out
    return out


def append_value(target: Values, key: str, value: str) -> None:
    prev = target.get(key)
    if prev is None:
        target[key] = value
    elif isinstance(prev, list):
        prev.append(value)
    else:
        target[key] = [prev, value]


def headers_to_record(raw: Sequence[str], redact: FrozenSet[str]) -> Values:
    out: Values = {}
    for i in range(0, len(raw) - 1, 2):
        name = raw[i]
        value = REDACTED if redact and name.lower() in redact else raw[i + 1]
        append_value(out, canonical_header_name(name), value)
    return out


def header_values(raw: Optional[Sequence[str]], lower_name: str) -> List[str]:
    out: List[str] = []
    if not raw:
        return out
    for i in range(0, len(raw) - 1, 2):
        if len(raw[i]) == len(lower_name) and raw[i].lower() == lower_name:
            out.append(raw[i + 1])
    return out


def without_hop_by_hop(raw: Sequence[str]) -> List[str]:
    """A response's header list as the gateway records it (downstreamResponseHead): hop-by-hop fields and the
    fields its Connection header lists dropped."""
    headers: List[str] = []
    options: Optional[Set[str]] = None
    for i in range(0, len(raw) - 1, 2):
        name = raw[i]
        value = raw[i + 1]
        lower = name.lower()
        if lower in HOP_BY_HOP:
            if lower == 'connection':
                options = _connection_options(value, options)
            continue
        headers.append(name)
        headers.append(value)
    if options:
        kept: List[str] = []
        for i in range(0, len(headers) - 1, 2):
            if headers[i].lower() not in options:
                kept.append(headers[i])
                kept.append(headers[i + 1])
        headers = kept
    return headers


def _connection_options(value: str, into: Optional[Set[str]]) -> Optional[Set[str]]:
    if len(value) <= 10 and value.lower() in ('keep-alive', 'close'):
        return into
    for token in value.split(','):
        name = token.strip(' \t\n\r\x0b\x0c\xa0\ufeff').lower()
        if name and name not in ('close', 'keep-alive') and name not in _NEVER_DROPPED_BY_CONNECTION:
            if into is None:
                into = set()
            into.add(name)
    return into


# ---- query --------------------------------------------------------------------------------------------------

_ESCAPE_RUN = re.compile(r'(?:%[0-9a-fA-F]{2})+')


def decode_uri_component(text: str) -> str:
    """``decodeURIComponent``: raises ValueError where it throws URIError."""
    if '%' not in text:
        return text
    out: List[str] = []
    at = 0
    for m in _ESCAPE_RUN.finditer(text):
        between = text[at:m.start()]
        if '%' in between:
            raise ValueError('malformed escape')
        out.append(between)
        run = bytes(int(m.group(0)[i + 1:i + 3], 16) for i in range(0, len(m.group(0)), 3))
        out.append(run.decode('utf-8'))  # strict: a stray byte, an overlong form or a surrogate throws, as there
        at = m.end()
    rest = text[at:]
    if '%' in rest:
        raise ValueError('malformed escape')
    out.append(rest)
    return ''.join(out)


def decode_component(text: str) -> str:
    spaced = text.replace('+', ' ') if '+' in text else text
    if '%' not in spaced:
        return spaced
    try:
        return decode_uri_component(spaced)
    except ValueError:
        return spaced


def query_to_record(target: str, redact: FrozenSet[str]) -> Values:
    out: Values = {}
    q = target.find('?')
    if q == -1:
        return out
    hash_at = target.find('#', q)
    query = target[q + 1:] if hash_at == -1 else target[q + 1:hash_at]
    if query == '':
        return out
    for pair in query.split('&'):
        if pair == '':
            continue
        eq = pair.find('=')
        name = decode_component(pair if eq == -1 else pair[:eq])
        redacted = bool(redact) and name.lower() in redact
        append_value(out, name, REDACTED if redacted else '' if eq == -1 else decode_component(pair[eq + 1:]))
    return out
