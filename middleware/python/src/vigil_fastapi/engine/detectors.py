"""Detectors: sensitive-looking values masked wherever they appear (policies/detectors/).

JavaScript's regular expressions here run without the `u` flag: `\\d`, `\\b` and `/i` are ASCII-only (re.ASCII), and
`\\s` is spelled out as JavaScript's white space.
"""
from __future__ import annotations

import base64
import json
import re
from typing import Callable, Dict, FrozenSet, Iterable, List, NamedTuple, Optional, Tuple

from .compile_json_path import REDACTED

DETECTOR_KINDS = ('card_number', 'iban', 'email', 'jwt', 'aws_access_key_id', 'private_key', 'bearer_token', 'api_key', 'us_ssn')

_S = '[\\t\\n\\x0b\\x0c\\r \\xa0\\u1680\\u2000-\\u200a\\u2028\\u2029\\u202f\\u205f\\u3000\\ufeff]'
_A = re.ASCII


class Detection(NamedTuple):
    start: int
    end: int
    kind: str


# ---- card numbers -------------------------------------------------------------------------------------------

def _range(a: int, b: int) -> Tuple[int, ...]:
    return tuple(range(a, b + 1))


_CARD_ISSUERS = (
    (re.compile(r'4', _A), (13, 16, 19)),
    (re.compile(r'(?:5[1-5]|222[1-9]|22[3-9]\d|2[3-6]\d\d|27[01]\d|2720)', _A), (16,)),
    (re.compile(r'3[47]', _A), (15,)),
    (re.compile(r'(?:6011|64[4-9]|65|622(?:12[6-9]|1[3-9]\d|[2-8]\d\d|9[01]\d|92[0-5]))', _A), _range(16, 19)),
    (re.compile(r'(?:30[0-5]|3095|36|3[89])', _A), _range(14, 19)),
    (re.compile(r'35(?:2[89]|[3-8]\d)', _A), _range(16, 19)),
    (re.compile(r'62', _A), _range(16, 19)),
    (re.compile(r'(?:5018|5020|5038|5893|6304|6759|676[1-3])', _A), _range(13, 19)),
    (re.compile(r'220[0-4]', _A), _range(16, 19)),
)


def _card_issuer(digits: str) -> bool:
    return any(len(digits) in lengths and prefix.match(digits) for prefix, lengths in _CARD_ISSUERS)


def luhn_valid(digits: str) -> bool:
    total = 0
    double = False
    for ch in reversed(digits):
        d = ord(ch) - 48
        if d < 0 or d > 9:
            return False
        if double:
            d *= 2
            if d > 9:
                d -= 9
        total += d
        double = not double
    return total % 10 == 0


_CARD_CANDIDATE = re.compile(r'(?<![0-9])[0-9](?:[ -]?[0-9]){12,18}(?![0-9])')
_THIRTEEN_DIGITS = re.compile(r'[0-9](?:[^0-9]*[0-9]){12}')
_MIXED_SEPARATORS = re.compile(r'[ ][-]|[-][ ]')


def find_card_numbers(text: str) -> List[Tuple[int, int]]:
    out: List[Tuple[int, int]] = []
    if not _THIRTEEN_DIGITS.search(text):
        return out
    for m in _CARD_CANDIDATE.finditer(text):
        s = m.group(0)
        digits = s.replace(' ', '').replace('-', '')
        if _MIXED_SEPARATORS.search(s) or (' ' in s and '-' in s):
            continue
        if _card_issuer(digits) and luhn_valid(digits):
            out.append((m.start(), m.end()))
    return out


# ---- IBAN ---------------------------------------------------------------------------------------------------

_IBAN_LENGTHS: Dict[str, int] = {e[:2]: int(e[2:]) for e in (
    'AD24 AE23 AL28 AT20 AZ28 BA20 BE16 BG22 BH22 BR29 BY28 CH21 CR22 CY28 CZ24 DE22 DK18 DO28 EE20 EG29 ES24 '
    'FI18 FO18 FR27 GB22 GE22 GI23 GL18 GR27 GT28 HR21 HU28 IE22 IL23 IQ23 IS26 IT27 JO30 KW30 KZ20 LB28 LC32 '
    'LI21 LT20 LU20 LV21 MC27 MD24 ME22 MK19 MR27 MT31 MU30 NL18 NO15 PK24 PL28 PS29 PT25 QA29 RO24 RS22 SA24 '
    'SC31 SE24 SI19 SK24 SM27 ST25 SV28 TL23 TN24 TR26 UA29 VA22 VG24 XK20').split(' ')}


def iban_checksum_valid(iban: str) -> bool:
    rearranged = iban[4:] + iban[:4]
    remainder = 0
    for ch in rearranged:
        code = ord(ch)
        value = str(code - 55) if 65 <= code <= 90 else ch
        for digit in value:
            d = ord(digit) - 48
            if d < 0 or d > 9:
                return False
            remainder = (remainder * 10 + d) % 97
    return remainder == 1


_COUNTRY_AND_CHECK = re.compile(r'[A-Z]{2}[0-9]{2}')
_IBAN_CANDIDATE = re.compile(r'(?<![A-Za-z0-9])[A-Z]{2}[0-9]{2}(?: ?[A-Z0-9]){11,30}')


def find_ibans(text: str) -> List[Tuple[int, int]]:
    out: List[Tuple[int, int]] = []
    if not _COUNTRY_AND_CHECK.search(text):
        return out
    for m in _IBAN_CANDIDATE.finditer(text):
        s = m.group(0)
        expected = _IBAN_LENGTHS.get(s[:2])
        if expected is None:
            continue
        count = 0
        end = 0
        while end < len(s) and count < expected:
            if s[end] != ' ':
                count += 1
            end += 1
        if count < expected:
            continue
        if end < len(s) and s[end] != ' ':
            continue
        if iban_checksum_valid(s[:end].replace(' ', '')):
            out.append((m.start(), m.start() + end))
    return out


# ---- patterns -----------------------------------------------------------------------------------------------

def _any_of(*literals: str) -> Callable[[str], bool]:
    return lambda text: any(l in text for l in literals)


def _json_object_segment(segment: str) -> bool:
    # Buffer.from(segment, 'base64url'): lenient about padding; a lone trailing character carries no byte.
    if len(segment) % 4 == 1:
        segment = segment[:-1]
    try:
        raw = base64.urlsafe_b64decode(segment + '=' * (-len(segment) % 4))
        decoded = json.loads(raw.decode('utf-8', 'replace'), parse_constant=_refuse)
    except (ValueError, RecursionError):
        return False
    return isinstance(decoded, dict)


def _refuse(name: str) -> None:
    raise ValueError(name)


_API_KEY_HINT = re.compile(r'k_(?:live|test)_|sk-|gh[pousr]_|github_pat_|glpat-|xox[abposr]-|AIza', _A)
_KEY_WORDS = re.compile(r'key|token|secret', _A | re.I)
_BEARER_WORD = re.compile(r'bearer', _A | re.I)


class _Pattern(NamedTuple):
    kind: str
    pattern: 're.Pattern[str]'
    group: Optional[int]
    accept: Optional[Callable[[str], bool]]
    hint: Callable[[str], bool]


_PATTERNS = (
    _Pattern('private_key', re.compile(
        r'-----BEGIN (?:[A-Z0-9]+ ){0,3}PRIVATE KEY-----[\s\S]*?(?:-----END (?:[A-Z0-9]+ ){0,3}PRIVATE KEY-----|\Z)', _A),
        None, None, _any_of('-----BEGIN ')),
    _Pattern('jwt', re.compile(
        r'(?<![A-Za-z0-9_-])eyJ[A-Za-z0-9_-]{5,4096}\.eyJ[A-Za-z0-9_-]{5,16384}\.[A-Za-z0-9_-]{0,4096}', _A),
        None, lambda token: _json_object_segment(token[:token.index('.')]), _any_of('eyJ')),
    _Pattern('aws_access_key_id', re.compile(
        r'(?<![A-Za-z0-9])(?:AKIA|ASIA|ABIA|ACCA|A3T[A-Z0-9])[A-Z0-9]{16}(?![A-Za-z0-9])', _A),
        None, None, _any_of('AKIA', 'ASIA', 'ABIA', 'ACCA', 'A3T')),
    _Pattern('api_key', re.compile(
        '(?<![A-Za-z0-9_-])(?:' + '|'.join([
            '(?:sk|rk|pk)_(?:live|test)_[A-Za-z0-9]{16,128}',
            'sk-(?:proj-|ant-(?:api\\d\\d-)?)?[A-Za-z0-9_-]{20,256}',
            'gh[pousr]_[A-Za-z0-9]{36,255}',
            'github_pat_[A-Za-z0-9_]{22,255}',
            'glpat-[A-Za-z0-9_-]{20,64}',
            'xox[abposr]-[A-Za-z0-9-]{10,255}',
            'AIza[0-9A-Za-z_-]{35}',
        ]) + ')(?![A-Za-z0-9_-])', _A),
        None, None, lambda text: _API_KEY_HINT.search(text) is not None),
    _Pattern('api_key', re.compile(
        r'(?:api[_-]?key|secret[_-]?key|access[_-]?token|client[_-]?secret)["\']?' + _S + r'{0,4}[:=]' + _S
        + r'{0,4}["\']?([A-Za-z0-9_\-+/.=]{16,512})', _A | re.I),
        1, None, lambda text: (':' in text or '=' in text) and _KEY_WORDS.search(text) is not None),
    _Pattern('bearer_token', re.compile(r'\bBearer' + _S + r'{1,8}([A-Za-z0-9\-._~+/]{8,8192}=*)', _A | re.I),
             1, None, lambda text: _BEARER_WORD.search(text) is not None),
    _Pattern('email', re.compile(
        r'(?<![A-Za-z0-9._%+-])[A-Za-z0-9._%+-]{1,64}@[A-Za-z0-9](?:[A-Za-z0-9-]{0,62}[A-Za-z0-9])?'
        r'(?:\.[A-Za-z0-9](?:[A-Za-z0-9-]{0,62}[A-Za-z0-9])?){0,8}\.[A-Za-z]{2,24}(?![A-Za-z0-9-])', _A),
        None, None, _any_of('@')),
    _Pattern('us_ssn', re.compile(r'(?<![0-9-])(?!000|666|9\d\d)\d{3}-(?!00)\d{2}-(?!0000)\d{4}(?![0-9-])', _A),
             None, None, _any_of('-')),
)


def _find_pattern_secrets(text: str) -> List[Detection]:
    out: List[Detection] = []
    for d in _PATTERNS:
        if not d.hint(text):
            continue
        for m in d.pattern.finditer(text):
            secret = m.group(0) if d.group is None else m.group(d.group)
            if secret is None or (d.accept is not None and not d.accept(secret)):
                continue
            start = m.start() + (0 if d.group is None else m.group(0).rfind(secret))
            out.append(Detection(start, start + len(secret), d.kind))
    return out


def detect(value: str) -> List[Detection]:
    """Sensitive-looking spans, sorted by start; where two overlap, the earlier (then longer) one wins."""
    if not value:
        return []
    found = _find_pattern_secrets(value)
    found.extend(Detection(s, e, 'card_number') for s, e in find_card_numbers(value))
    found.extend(Detection(s, e, 'iban') for s, e in find_ibans(value))
    found.sort(key=lambda d: (d.start, -d.end))
    out: List[Detection] = []
    reach = -1
    for d in found:
        if d.start < reach:
            continue
        out.append(d)
        reach = d.end
    return out


def redact_text(text: str, kinds: Optional[Iterable[str]] = None) -> str:
    """``text`` with detected spans of ``kinds`` (default: every kind) replaced by the marker."""
    wanted: Optional[FrozenSet[str]] = None if kinds is None else frozenset(kinds)
    parts: List[str] = []
    at = 0
    for s in detect(text):
        if wanted is not None and s.kind not in wanted:
            continue
        parts.append(text[at:s.start])
        parts.append(REDACTED)
        at = s.end
    if not parts:
        return text
    parts.append(text[at:])
    return ''.join(parts)
