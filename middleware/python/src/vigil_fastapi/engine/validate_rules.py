"""The schema of a `rules` list (policies/schema.ts), checked strictly: every problem with its key path."""
from __future__ import annotations

import re
from typing import Any, List, Sequence, Tuple, Union

from .detectors import DETECTOR_KINDS
from .errors import PolicyError, format_key_path
from .js_json import stringify

KeyPath = List[Union[str, int]]
Problem = Tuple[KeyPath, str]

_HEADER_NAME = r"^[!#$%&'*+.^_`|~0-9A-Za-z-]+$"
_LABEL_NAME = r'^(?!__)[a-zA-Z_][a-zA-Z0-9_]*$'
_LABEL_SOURCE = r"^header:[!#$%&'*+.^_`|~0-9A-Za-z-]+$"

_RULE_KEYS = ('name', 'match', 'restrict', 'redact', 'labels', 'sample', 'keep_errors', 'meter', 'wasm')
_MATCH_KEYS = ('path', 'methods')
_REDACT_KEYS = ('headers', 'query_params', 'json_fields', 'detect')
_METER_KEYS = ('tokens',)
_RESTRICT = ('request_body', 'response_body', 'headers')


def _js_pattern(pattern: str) -> 're.Pattern[str]':
    # A JavaScript `$` (no m flag) is the very end; Python's also meets a final newline.
    return re.compile(pattern[:-1] + r'\Z' if pattern.endswith('$') and not pattern.endswith('\\$') else pattern)


_PATTERNS = {p: _js_pattern(p) for p in (_HEADER_NAME, _LABEL_NAME, _LABEL_SOURCE, '^/', r'^\$', '^[A-Za-z]+$')}


def _type_name(v: Any) -> str:
    if v is None:
        return 'null'
    if isinstance(v, bool):
        return 'boolean'
    if isinstance(v, (int, float)):
        return 'number'
    if isinstance(v, str):
        return 'string'
    if isinstance(v, list):
        return 'array'
    return 'object'


def check_rules(rules: Any) -> List[Problem]:
    """Every schema problem of a `rules` value; key paths start with 'rules'."""
    problems: List[Problem] = []

    def bad(path: KeyPath, message: str) -> None:
        problems.append((path, message))

    def obj(value: Any, path: KeyPath, allowed: Sequence[str], required: Sequence[str] = ()) -> bool:
        if not isinstance(value, dict):
            bad(path, 'must be object')
            return False
        for key in value:
            if key not in allowed:
                bad(path + [key], 'unknown key (allowed here: %s)' % ', '.join(allowed))
        for key in required:
            if key not in value:
                bad(path, 'missing required key "%s"' % key)
        return True

    def string(value: Any, path: KeyPath, pattern: str = '', min_length: int = 0) -> None:
        if not isinstance(value, str):
            bad(path, 'must be string')
            return
        if len(value) < min_length:
            bad(path, 'must NOT have fewer than %d characters' % min_length)
        if pattern and not _PATTERNS[pattern].search(value):
            bad(path, '%s must match %s' % (stringify(value), pattern))

    def strings(value: Any, path: KeyPath, pattern: str = '', min_length: int = 0, enum: Sequence[str] = ()) -> None:
        if not isinstance(value, list):
            bad(path, 'must be array')
            return
        for i, item in enumerate(value):
            if enum:
                if item not in enum or not isinstance(item, str):
                    bad(path + [i], 'must be one of %s' % ', '.join(stringify(e) for e in enum))
            else:
                string(item, path + [i], pattern, min_length)

    if not isinstance(rules, list):
        return [(['rules'], 'must be array')]
    for i, rule in enumerate(rules):
        at: KeyPath = ['rules', i]
        if not obj(rule, at, _RULE_KEYS, ('name', 'match')):
            continue
        if 'name' in rule:
            string(rule['name'], at + ['name'], min_length=1)
        if 'match' in rule and obj(rule['match'], at + ['match'], _MATCH_KEYS, ('path',)):
            m = rule['match']
            if 'path' in m:
                string(m['path'], at + ['match', 'path'], '^/')
            if 'methods' in m:
                strings(m['methods'], at + ['match', 'methods'], '^[A-Za-z]+$')
        if 'restrict' in rule:
            strings(rule['restrict'], at + ['restrict'], enum=_RESTRICT)
        if 'redact' in rule and obj(rule['redact'], at + ['redact'], _REDACT_KEYS):
            r = rule['redact']
            if 'headers' in r:
                strings(r['headers'], at + ['redact', 'headers'], _HEADER_NAME)
            if 'query_params' in r:
                strings(r['query_params'], at + ['redact', 'query_params'], min_length=1)
            if 'json_fields' in r:
                strings(r['json_fields'], at + ['redact', 'json_fields'], r'^\$')
            if 'detect' in r:
                strings(r['detect'], at + ['redact', 'detect'], enum=DETECTOR_KINDS)
        if 'labels' in rule:
            labels = rule['labels']
            if not isinstance(labels, dict):
                bad(at + ['labels'], 'must be object')
            else:
                for name, source in labels.items():
                    if not _PATTERNS[_LABEL_NAME].search(str(name)):
                        bad(at + ['labels', str(name)], 'invalid name')
                    string(source, at + ['labels', str(name)], _LABEL_SOURCE)
        if 'sample' in rule:
            s = rule['sample']
            if isinstance(s, bool) or not isinstance(s, (int, float)):
                bad(at + ['sample'], 'must be number')
            elif s < 0:
                bad(at + ['sample'], 'must be >= 0')
            elif s > 1:
                bad(at + ['sample'], 'must be <= 1')
        if 'keep_errors' in rule and not isinstance(rule['keep_errors'], bool):
            bad(at + ['keep_errors'], 'must be boolean')
        if 'meter' in rule and obj(rule['meter'], at + ['meter'], _METER_KEYS):
            if 'tokens' in rule['meter']:
                string(rule['meter']['tokens'], at + ['meter', 'tokens'], r'^\$')
        if 'wasm' in rule:
            string(rule['wasm'], at + ['wasm'], min_length=1)
    return problems


def validate_rules(rules: Any) -> None:
    """Raises PolicyError (INVALID) listing every problem."""
    problems = check_rules(rules)
    if not problems:
        return
    first_path, first_message = problems[0]
    rest = ''.join('\n  %s: %s' % (format_key_path(p), m) for p, m in problems[1:])
    raise PolicyError('INVALID', tuple(first_path), first_message + rest)
